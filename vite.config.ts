import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const out = process.env.BUILD_OUT ?? 'dist';
const client = path.resolve(import.meta.dirname, 'src/client');

interface ModuleGraph {
  getModuleInfo(id: string): { code: string | null; importedIds: readonly string[] } | null;
}

/**
 * Packages whose index only re-exports: following every import of one would make a screen
 * that uses a single icon "need" every icon in the app. Imports from them are followed only to
 * the re-exports the importer names.
 */
const BARRELS: { pkg: string; index: RegExp }[] = [
  { pkg: 'lucide-react', index: /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/ },
  { pkg: 'radix-ui', index: /[\\/]node_modules[\\/]radix-ui[\\/]dist[\\/]index\.mjs$/ },
  // Its mutation, infinite and suspense hooks are for screens past sign-in only.
  { pkg: '@tanstack/react-query', index: /[\\/]node_modules[\\/]@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/]index\.js$/ },
];

/** A barrel's exported names -> the module each comes from. */
function barrelExports(id: string, graph: ModuleGraph): Map<string, string> {
  const info = graph.getModuleInfo(id);
  const exports = new Map<string, string>();
  if (!info?.code) return exports;
  const resolve = (spec: string) =>
    spec.startsWith('.')
      ? info.importedIds.find((dep) => dep === path.resolve(path.dirname(id), spec))
      : info.importedIds.find((dep) => dep.includes(`${path.sep}node_modules${path.sep}${spec}${path.sep}`));
  // export { default as ScanHeart, default as ScanHeartIcon } from './icons/scan-heart.mjs';
  for (const [, names, spec] of info.code.matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    const target = resolve(spec!);
    if (target) for (const name of names!.split(',')) exports.set(name.trim().split(/\s+as\s+/).pop()!, target);
  }
  // import * as Switch from "@radix-ui/react-switch"; (exported under the same name)
  for (const [, name, spec] of info.code.matchAll(/import\s*\*\s*as\s+(\w+)\s+from\s*["']([^"']+)["']/g)) {
    const target = resolve(spec!);
    if (target) exports.set(name!, target);
  }
  // import { useQuery } from "./useQuery.js"; ... export { useQuery, streamedQuery as experimental_streamedQuery };
  const imported = new Map<string, string>();
  for (const [, names, spec] of info.code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    const target = resolve(spec!);
    if (target) for (const name of names!.split(',')) imported.set(name.trim().split(/\s+as\s+/).pop()!, target);
  }
  for (const [, names] of info.code.matchAll(/export\s*\{([^}]*)\}\s*;/g)) {
    for (const name of names!.split(',')) {
      const [local, exported = local] = name.trim().split(/\s+as\s+/);
      const target = imported.get(local!);
      if (target) exports.set(exported!, target);
    }
  }
  // export * from "@tanstack/query-core"; (an index of the same kind)
  for (const [, spec] of info.code.matchAll(/export\s*\*\s*from\s*["']([^"']+)["']/g)) {
    const target = resolve(spec!);
    if (target) for (const [name, from] of barrelExports(target, graph)) if (!exports.has(name)) exports.set(name, from);
  }
  return exports;
}

/** What `importer` takes from a package: the names of `import { A, B as C } from 'pkg'`, or null if it takes it all. */
function namesImported(code: string, pkg: string): string[] | null {
  const names: string[] = [];
  const from = new RegExp(`import\\s*([^;]*?)\\s*from\\s*["']${pkg}["']`, 'g');
  for (const [, clause] of code.matchAll(from)) {
    const braces = /^\{([^}]*)\}$/.exec(clause!.trim());
    if (!braces) return null;
    for (const part of braces[1]!.split(',')) if (part.trim()) names.push(part.trim().split(/\s+as\s+/)[0]!.replace(/^type\s+/, ''));
  }
  return names;
}

/** Every module `roots` import statically (not what they load with import()), barrels resolved by name. */
function staticClosure(roots: string[], graph: ModuleGraph): Set<string> {
  const seen = new Set<string>();
  const exportsOf = new Map<string, Map<string, string>>();
  const todo = [...roots];
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    for (const dep of info.importedIds) {
      const barrel = BARRELS.find((b) => b.index.test(dep));
      const names = barrel && info.code ? namesImported(info.code, barrel.pkg) : null;
      if (!barrel || !names) {
        todo.push(dep);
        continue;
      }
      if (!exportsOf.has(dep)) exportsOf.set(dep, barrelExports(dep, graph));
      for (const name of names) {
        const target = exportsOf.get(dep)!.get(name);
        todo.push(target ?? dep);
      }
    }
  }
  return seen;
}

/**
 * Modules a screen's closure reaches only through a package index that re-exports everything
 * (`export *`, which BARRELS cannot follow by name), and that only lazy code uses: in a screen's
 * chunk they would be downloaded with it (a lazy chunk that uses one imports it from there).
 * Left to automatic splitting, they go with the lazy code that uses them.
 */
const LAZY_ONLY = [
  // TanStack Query's dehydrate/hydrate: only the offline copy of answers (lib/query-persist.ts).
  /[\\/]node_modules[\\/]@tanstack[\\/]query-core[\\/]build[\\/]modern[\\/]hydration\.js$/,
];

/**
 * Chunks by screen: the modules `roots` import statically go in one chunk named `name`
 * (minus those already claimed by a group of higher priority), instead of the many small
 * chunks automatic splitting makes of modules shared between screens. With `alsoIn`, only the
 * modules both sets of screens import.
 */
function screenChunk(name: string, roots: string[], alsoIn?: string[]) {
  const members = new WeakMap<ModuleGraph, Set<string>>();
  return (id: string, graph: ModuleGraph): string | null => {
    if (LAZY_ONLY.some((re) => re.test(id))) return null;
    if (!members.has(graph)) {
      const found = staticClosure(roots.map((f) => path.join(client, f)), graph);
      if (alsoIn) {
        const other = staticClosure(alsoIn.map((f) => path.join(client, f)), graph);
        for (const module of found) if (!other.has(module)) found.delete(module);
      }
      members.set(graph, found);
    }
    return members.get(graph)!.has(id) ? name : null;
  };
}

/** The app itself (React, router, providers, the sign-in screen): main.tsx imports it, index.html preloads it. */
const APP_ROOT = 'app/start.tsx';
/**
 * What a signed-in Home needs beyond the app (layout, page, voice block, icons and their Radix
 * parts). Member and admin screens that share a module load this chunk too (after Home, so
 * from cache); screens a signed-out visitor can reach never do: what they share with Home
 * (Radix internals, the close icon, the resend-verification button) is a chunk of its own.
 */
const HOME_ROOTS = ['app/home-route.tsx', 'features/members/components/member-layout.tsx'];
const SIGNED_OUT_LAZY = [
  'features/auth/components/register-page.tsx',
  'features/auth/components/sign-in-code-step.tsx',
  'features/auth/sign-in-validation.ts',
  'features/account/components/verify-email-page.tsx',
  'features/account/components/forgot-password-page.tsx',
  'features/account/components/reset-password-page.tsx',
  'components/ui/toaster.tsx',
];

/**
 * index.html preloads the app chunk and what it imports, so that it downloads alongside the
 * small entry (main.tsx) rather than after it has run.
 */
function preloadAppChunk(): Plugin {
  return {
    name: 'wellhaven:preload-app-chunk',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = new Map(Object.values(ctx.bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
        const app = [...chunks.values()].find((c) => c.moduleIds.includes(path.join(client, APP_ROOT)));
        if (!app) throw new Error(`no chunk for ${APP_ROOT}`);
        const files = new Set<string>();
        const add = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          for (const dep of chunks.get(file)?.imports ?? []) add(dep);
        };
        add(app.fileName);
        const entry = [...chunks.values()].find((c) => c.isEntry);
        for (const dep of [entry?.fileName, ...(entry?.imports ?? [])]) if (dep) files.delete(dep);
        return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/** The length of the content hash in chunks' names (`chunkFileNames` below). */
const CHUNK_HASH_LENGTH = 7;

/**
 * Code a session fetches at an idle moment, for later (auth-provider.tsx: the idle warning, and
 * what sign-out runs to clear the device; `lib/device-clear.ts` imports the latter too, at a
 * sign-out that finds it not yet here). Their `import()` starts one request, and the module
 * loader fetches what they import once they have arrived, instead of Vite's preload helper adding
 * a `modulepreload` link for each of those in the same task: every link is a request started
 * from script, a few milliseconds of main thread each, and nothing waits for this code.
 * Each chunk's name, and the module it is made for.
 */
const BACKGROUND_CHUNKS: Record<string, string> = {
  'idle-warning-dialog': 'features/auth/components/idle-warning-dialog.tsx',
  'device-data': 'lib/device-data.ts',
};
const backgroundChunkName = (file: string) => Object.keys(BACKGROUND_CHUNKS).find((name) => new RegExp(`^${name}-[\\w-]{${CHUNK_HASH_LENGTH}}\\.js$`).test(path.basename(file)));

/** Fails the build unless each of BACKGROUND_CHUNKS names one chunk, made for its module (a file renamed or split). */
function checkBackgroundChunks(): Plugin {
  return {
    name: 'wellhaven:background-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const [name, module] of Object.entries(BACKGROUND_CHUNKS)) {
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk' && backgroundChunkName(c.fileName) === name);
        const made = chunks.length === 1 && chunks[0]!.type === 'chunk' && chunks[0]!.facadeModuleId === path.join(client, module);
        if (!made) this.error(`BACKGROUND_CHUNKS: ${name} should name one chunk, made for ${module}`);
      }
    },
  };
}

/**
 * The service worker, `src/client/sw.ts` (Workbox modules; docs/decisions/pwa-offline.md), built
 * by vite-plugin-pwa into `sw.js`. Its precache list is written in after the build has drawn
 * /login and /home into their HTML (scripts/prerender.mjs), by scripts/service-worker.mjs:
 * those documents are precached too, so the list cannot be made here, before they exist.
 * The manifest is the server's (GET /manifest.webmanifest, from the runtime brand config).
 */
function serviceWorker() {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    manifest: false,
    includeManifestIcons: false,
    strategies: 'injectManifest',
    srcDir: '.',
    filename: 'sw.ts',
    injectManifest: {
      // Compiled here, its precache list injected later (scripts/service-worker.mjs).
      injectionPoint: undefined,
      minify: true,
      sourcemap: false,
    },
  });
}

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), preloadAppChunk(), checkBackgroundChunks(), serviceWorker()],
  build: {
    outDir: `../../${out}/client`,
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    // Every browser the build targets preloads modules itself.
    modulePreload: { polyfill: false, resolveDependencies: (file, deps) => (backgroundChunkName(file) ? [] : deps) },
    rolldownOptions: {
      output: {
        // Chunks' names carry a 7-character hash, not 8: the app chunk lists every lazy chunk's
        // name (its imports' preload lists), and a random character per name costs about 0.2 KiB
        // of /login's 100 (docs/decisions/initial-js-budget.md). Seven is the shortest in which
        // Rolldown can write its placeholders for this many chunks; 42 bits a name make two
        // chunks of the same name sharing a hash negligible.
        chunkFileNames: `assets/[name]-[hash:${CHUNK_HASH_LENGTH}].js`,
        // Few, whole requests for the two screens a phone opens first (each response costs a
        // round trip on a busy connection, and its headers; docs/decisions/initial-js-budget.md):
        codeSplitting: {
          groups: [
            // the entry: main.tsx and the little it imports;
            { name: 'index', tags: ['$initial'], priority: 40 },
            // the app, /login included, in one chunk;
            { name: screenChunk('app', [APP_ROOT]), priority: 30 },
            // a translation in one chunk of its own, which imports nothing but the entry's formatter
            // (lib/language.ts fetches it before any screen's code runs);
            { name: 'messages-es', test: /[\\/]src[\\/]shared[\\/]messages[\\/]es[\\/]/, priority: 25 },
            // the rest of the message catalogue (`t`) in one chunk rather than one per area;
            { name: 'messages', test: /[\\/]src[\\/](shared[\\/]messages[\\/]|client[\\/]lib[\\/]i18n\.ts$)/, priority: 20 },
            // what Home shares with screens a signed-out visitor can open;
            { name: screenChunk('shared', HOME_ROOTS, SIGNED_OUT_LAZY), priority: 15 },
            // Home's own modules in one chunk (named after its page, as automatic splitting would).
            { name: screenChunk('home-route', HOME_ROOTS), priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/readyz': 'http://127.0.0.1:3000', '/manifest.webmanifest': 'http://127.0.0.1:3000' },
  },
});
