/**
 * Built client sizes, read from the build output (build first: `npm run build`; BUILD_OUT picks
 * another output directory): the JavaScript of a first visit to /login and to a signed-in
 * /home (files, gzip 9 and brotli 11, as the server sends them precompressed), and each lazily
 * loaded chunk. What a browser really downloads, headers included, is `npm run bench -- web`.
 *
 * The first download is index.html's scripts and module preloads with their static imports:
 * the small entry (main.tsx) and the app chunk with /login in it. A signed-in Home adds the
 * home-route chunk (main.tsx starts it at once) with its static imports.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The budgets are for bytes on the wire with headers (bench/web.ts); these leave room for them. */
const LOGIN_BUDGET_KIB = 100;
const HOME_BUDGET_KIB = 170;
const HOME_CHUNK = 'home-route';

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
/** `home-route-DkX_3aB.js` -> `home-route` (a 7-character hash on chunks, vite.config.ts; 8 on the entry and style sheet). */
const chunkName = (file: string) => path.basename(file).replace(/-[A-Za-z0-9_-]{7,8}\.(js|css)$/, '');

/** Relative static imports of a built ES module (not dynamic `import()`). */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)) found.add(match[1]!);
  return [...found];
}

export async function run(): Promise<Record<string, number | string>> {
  const clientDir = path.resolve(process.env.BUILD_OUT ?? 'dist', 'client');
  const assetsDir = path.join(clientDir, 'assets');
  let html: string;
  try {
    html = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
  } catch (err) {
    throw new Error(`no build at ${clientDir}; run npm run build first`, { cause: err });
  }
  const code = new Map<string, string>();
  const gz = new Map<string, number>();
  const br = new Map<string, number>();
  for (const file of readdirSync(assetsDir)) {
    if (!/\.(js|css)$/.test(file)) continue;
    const text = readFileSync(path.join(assetsDir, file), 'utf8');
    code.set(file, text);
    gz.set(file, gzipSync(text, { level: 9 }).length);
    br.set(file, brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length);
  }

  const closure = (start: string, seen = new Set<string>()) => {
    if (seen.has(start) || !code.has(start)) return seen;
    seen.add(start);
    for (const rel of staticImports(code.get(start)!)) closure(path.basename(rel), seen);
    return seen;
  };
  const sum = (sizes: Map<string, number>, set: Iterable<string>) => [...set].reduce((n, f) => n + (sizes.get(f) ?? 0), 0);

  const referenced = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1]!);
  const entryJs = new Set<string>();
  for (const file of referenced.filter((f) => f.endsWith('.js'))) closure(file, entryJs);
  const css = referenced.filter((f) => f.endsWith('.css'));

  const jsFiles = [...code.keys()].filter((f) => f.endsWith('.js'));
  const homeChunk = jsFiles.find((f) => chunkName(f) === HOME_CHUNK);
  const homeJs = new Set(entryJs);
  if (homeChunk) closure(homeChunk, homeJs);

  const result: Record<string, number | string> = {
    'login JS files': entryJs.size,
    'login JS gzip KiB': kib(sum(gz, entryJs)),
    'login JS brotli KiB': kib(sum(br, entryJs)),
    'login JS budget KiB (on the wire, headers included: bench web)': LOGIN_BUDGET_KIB,
    'login within budget (brotli, before headers)': kib(sum(br, entryJs)) <= LOGIN_BUDGET_KIB ? 'yes' : 'NO',
    'home JS files': homeChunk ? homeJs.size : `unknown: no ${HOME_CHUNK} chunk`,
    'home JS gzip KiB': kib(sum(gz, homeJs)),
    'home JS brotli KiB': kib(sum(br, homeJs)),
    'home JS budget KiB (on the wire, headers included: bench web)': HOME_BUDGET_KIB,
    'home within budget (brotli, before headers)': homeChunk && kib(sum(br, homeJs)) <= HOME_BUDGET_KIB ? 'yes' : 'NO',
    'CSS gzip KiB': kib(sum(gz, css)),
    'CSS brotli KiB': kib(sum(br, css)),
    'JS chunks': jsFiles.length,
    'all JS gzip KiB': kib(sum(gz, jsFiles)),
  };
  // Every chunk not in the first download: its own size, and what first navigating to it costs.
  const lazy = jsFiles.filter((f) => !entryJs.has(f)).sort((a, b) => chunkName(a).localeCompare(chunkName(b)));
  for (const file of lazy) {
    const extra = [...closure(file)].filter((f) => !entryJs.has(f));
    result[`chunk ${chunkName(file)} gzip KiB`] = kib(gz.get(file) ?? 0);
    if (extra.length > 1) result[`chunk ${chunkName(file)} with its imports gzip KiB`] = kib(sum(gz, extra));
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run());
}
