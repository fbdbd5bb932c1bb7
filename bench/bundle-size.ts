/**
 * Built client sizes: the initial JavaScript of /login against its 120 KiB gzip budget, and
 * each lazily loaded route chunk (gzipped). Reads the build output, so build first
 * (`npm run build`; BUILD_OUT picks another output directory).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const LOGIN_BUDGET_KIB = 120;
const LOGIN_CHUNK = 'sign-in-page';

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
/** `sign-in-page-DkX_3aB1.js` -> `sign-in-page` (Vite appends an 8-character hash). */
const chunkName = (file: string) => path.basename(file).replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, '');

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
  const files = readdirSync(assetsDir);
  const code = new Map<string, string>();
  const gz = new Map<string, number>();
  for (const file of files) {
    if (!/\.(js|css)$/.test(file)) continue;
    const text = readFileSync(path.join(assetsDir, file), 'utf8');
    code.set(file, text);
    gz.set(file, gzipSync(text, { level: 9 }).length);
  }

  const closure = (start: string, seen = new Set<string>()) => {
    if (seen.has(start) || !code.has(start)) return seen;
    seen.add(start);
    for (const rel of staticImports(code.get(start)!)) closure(path.basename(rel), seen);
    return seen;
  };
  const sum = (set: Iterable<string>) => [...set].reduce((n, f) => n + (gz.get(f) ?? 0), 0);

  const referenced = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1]!);
  const entryJs = new Set<string>();
  for (const file of referenced.filter((f) => f.endsWith('.js'))) closure(file, entryJs);
  const css = referenced.filter((f) => f.endsWith('.css'));

  const jsFiles = [...code.keys()].filter((f) => f.endsWith('.js'));
  const loginChunk = jsFiles.find((f) => chunkName(f) === LOGIN_CHUNK);
  const loginJs = new Set(entryJs);
  if (loginChunk) closure(loginChunk, loginJs);
  const loginKib = kib(sum(loginJs));

  const result: Record<string, number | string> = {
    'login initial JS gzip KiB': loginKib,
    'login initial JS budget KiB': LOGIN_BUDGET_KIB,
    'login within budget': loginChunk ? (loginKib < LOGIN_BUDGET_KIB ? 'yes' : 'NO') : `unknown: no ${LOGIN_CHUNK} chunk`,
    'entry JS gzip KiB': kib(sum(entryJs)),
    'CSS gzip KiB': kib(sum(css)),
    'JS chunks': jsFiles.length,
    'all JS gzip KiB': kib(sum(jsFiles)),
  };
  // Every chunk not in the entry: its own size, and what first navigating to it costs.
  const lazy = jsFiles.filter((f) => !entryJs.has(f)).sort((a, b) => chunkName(a).localeCompare(chunkName(b)));
  for (const file of lazy) {
    const extra = [...closure(file)].filter((f) => !entryJs.has(f));
    result[`chunk ${chunkName(file)} gzip KiB`] = kib(gz.get(file) ?? 0);
    if (extra.length > 1) result[`chunk ${chunkName(file)} with its imports gzip KiB`] = kib(sum(extra));
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run());
}
