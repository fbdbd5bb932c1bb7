// Draws the app icons of the web app manifest from the logo's shapes, with headless Chromium:
// icon-192.png, icon-512.png (rounded, as logo.svg) and icon-maskable-512.png (full bleed, the
// mark inside the maskable safe zone). The PNGs are committed in src/client/public/icons/; run
// again after changing the logo: `npx tsx scripts/make-icons.ts` (CHROMIUM_PATH, default /usr/bin/chromium).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';

const COLOUR = '#0f766e';
const MARK =
  '<path d="M32 50s-16-9.6-16-21.3C16 22.7 20.5 18 26 18c2.8 0 4.9 1.3 6 3.2C33.1 19.3 35.2 18 38 18c5.5 0 10 4.7 10 10.7C48 40.4 32 50 32 50z" fill="#fff"/>' +
  `<path d="M20 32h7l3-6 4 12 3-6h7" fill="none" stroke="${COLOUR}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`;

const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="16" fill="${COLOUR}"/>${MARK}</svg>`;
// Maskable: the platform crops to its own shape; keep the mark within the central 80 % circle.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${COLOUR}"/><g transform="translate(32 33) scale(0.72) translate(-32 -34)">${MARK}</g></svg>`;

const out = path.resolve(import.meta.dirname, '../src/client/public/icons');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const [name, svg, size] of [
    ['icon-192.png', rounded, 192],
    ['icon-512.png', rounded, 512],
    ['icon-maskable-512.png', maskable, 512],
  ] as const) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    await writeFile(path.join(out, name), await page.screenshot({ omitBackground: true }));
    await page.close();
  }
} finally {
  await browser.close();
}
