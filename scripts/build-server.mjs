// Bundles the server into dist/server; dependencies stay external (installed in node_modules).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts'],
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
