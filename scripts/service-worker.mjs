// Writes the service worker's precache list into the built `sw.js` (Workbox's injectManifest),
// after scripts/prerender.mjs has drawn /login and /home into their HTML: those documents are
// precached with the app shell, so a returning member's device answers both from its cache,
// drawn (src/client/sw.ts; docs/decisions/pwa-offline.md). Runs before precompress.mjs, so
// the compressed copies are of the final worker.
// Usage: node scripts/service-worker.mjs   (reads and writes $BUILD_OUT/client, BUILD_OUT=dist)
import path from 'node:path';
import { injectManifest } from 'workbox-build';

/**
 * Build output the service worker leaves out of its precache: the admin screens' own chunks
 * and the chart library only popup results draw (about 460 KB). Chunks an admin screen shares
 * with member screens stay in.
 */
const ADMIN_CHUNKS = [
  'assets/admin-employe*',
  'assets/admin-layout-*',
  'assets/admin-list-state-*',
  'assets/admin-popups-page-*',
  'assets/popup-results-*',
  'assets/popup-status-badge-*',
  'assets/enrolment-requests-*',
  'assets/search-box-*',
  'assets/sort-controls-*',
  // jsPDF's optional helpers for HTML and SVG input (html2canvas, DOMPurify, canvg and its
  // core-js), which it imports only for .html() and .svg(): about 380 KB.
  'assets/html2canvas-*',
  'assets/purify.es-*',
  'assets/index.es-*',
];

const clientDir = path.join(process.env.BUILD_OUT ?? 'dist', 'client');
const sw = path.join(clientDir, 'sw.js');
const { count, size, warnings } = await injectManifest({
  swSrc: sw,
  swDest: sw,
  globDirectory: clientDir,
  globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
  // The worker itself is not precached; compressed copies are reached through their originals.
  globIgnores: ['sw.js', '**/*.br', '**/*.gz', ...ADMIN_CHUNKS],
  // Hashed file names carry the version already.
  dontCacheBustURLsMatching: /^assets\//,
});
for (const warning of warnings) console.warn(`service worker: ${warning}`);
if (warnings.length > 0) process.exit(1);
console.log(`service worker: ${count} files precached, ${(size / 1024).toFixed(1)} KiB`);
