// Bundles the server into dist/server, with the embedded database's worker thread beside it
// (src/db/pglite-thread.ts); dependencies stay external (installed in node_modules).
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/server/main.ts', 'pglite-worker': 'src/db/pglite-worker.ts' },
  outdir: `${process.env.BUILD_OUT ?? 'dist'}/server`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`server built: ${process.env.BUILD_OUT ?? 'dist'}/server/main.js`);
