import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const out = process.env.BUILD_OUT ?? 'dist';

/**
 * The build of app/prerender.ts for Node (server-side rendering mode: packages stay external),
 * which scripts/prerender.mjs runs once per language to write the sign-in screen's HTML into
 * /login's documents (docs/decisions/prerendered-sign-in.md). Nothing of it is served.
 */
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react()],
  logLevel: 'warn',
  build: {
    ssr: 'app/prerender.ts',
    outDir: `../../${out}/prerender`,
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
