// Writes the sign-in screen into /login's documents and Home into /home's, one per language
// (login.en.html, home.es.html... next to the built index.html), so that a first visit paints
// the screen from the HTML instead of after the app's JavaScript has arrived and run. The server
// answers with the one in the right language (/login: the visitor's; /home: the one the app's
// cookie names; src/server/plugins/client.ts); the app then renders the same screen over it.
// docs/decisions/prerendered-sign-in.md and prerendered-home.md.
// Usage: node scripts/prerender.mjs   (after vite build; reads and writes $BUILD_OUT/client, BUILD_OUT=dist)
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Window } from 'happy-dom';
import { build } from 'vite';

/**
 * The member Home is drawn for a session of no one in particular: the app's storage as sign-in
 * leaves it (lib/auth-storage.ts), with no name (Home's greeting is then the nameless one) and
 * an account with nothing to ask of the member (the verify banner is drawn hidden for everyone,
 * for the page's script to show: lib/drawn-banner.ts). Nothing of it reaches the HTML but the
 * screen.
 */
const SOMEONE_SIGNED_IN = {
  auth_token: 'drawn-at-build',
  auth_user: JSON.stringify({ id: '00000000-0000-0000-0000-000000000000', firstName: '', lastName: '', email: '', lhmpId: '', company: '', role: 'member' }),
  auth_account: JSON.stringify({ emailVerified: true, mfaEnabled: true }),
};

/** The browser the screens are drawn for: a phone's Chromium. */
const PHONE = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36';

/**
 * The screens drawn, each with the device the build renders it on. `holdsPaint`: the page's
 * script holds the first paint (`blocking="render"`; the browsers that do not know it paint
 * first): Home's verify banner is drawn hidden for every member, and the script shows it to a
 * member who is asked to verify before anything is painted, rather than moving the cards under
 * it in a second paint (lib/drawn-banner.ts). The script is small and comes alongside the style
 * sheet, which holds the paint anyway.
 */
const SCREENS = [
  { path: '/login', file: 'login', storage: {}, holdsPaint: false },
  { path: '/home', file: 'home', storage: SOMEONE_SIGNED_IN, holdsPaint: true },
];

/** In a worker of its own (the app reads its language and session once, as its modules load): one screen in one language. */
async function renderInWorker({ bundle, language, path: location, storage }) {
  // An online phone (a Chromium that can listen: Home draws its voice block as such a phone
  // shows it) that chose `language`: happy-dom's window, which the screens' code reads as a
  // browser's (storage, navigator, document).
  const window = new Window({ url: `https://wellhaven.invalid${location}`, settings: { navigator: { userAgent: PHONE } } });
  Object.defineProperty(window.navigator, 'languages', { value: [language] });
  Object.defineProperty(window.navigator, 'maxTouchPoints', { value: 5 });
  window.webkitSpeechRecognition = function SpeechRecognition() {};
  for (const [key, value] of Object.entries({ ...storage, 'wellhaven.language': language })) window.localStorage.setItem(key, value);
  for (const name of ['window', 'document', 'navigator', 'localStorage', 'sessionStorage']) {
    Object.defineProperty(globalThis, name, { value: name === 'window' ? window : window[name], configurable: true });
  }
  const { renderFirstScreen } = await import(pathToFileURL(bundle).href);
  parentPort.postMessage(await renderFirstScreen(location));
}

function renderLanguage(bundle, screen, language) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { bundle, language, path: screen.path, storage: screen.storage } });
    worker.once('message', (html) => {
      resolve(html);
      // The screen's pending requests hold nothing worth waiting for.
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`prerender of ${screen.path} in ${language} exited with ${code}`)));
  });
}

async function main() {
  const out = process.env.BUILD_OUT ?? 'dist';
  const clientDir = path.join(out, 'client');
  const bundleDir = path.join(out, 'prerender');
  await build({ configFile: 'vite.prerender.config.ts' });
  const bundle = path.resolve(bundleDir, 'prerender.js');
  try {
    const { LANGUAGES, drawnDocument } = await import(pathToFileURL(bundle).href);
    const shell = await readFile(path.join(clientDir, 'index.html'), 'utf8');
    const root = '<div id="root"></div>';
    if (shell.split(root).length !== 2) throw new Error(`index.html must hold ${root} once`);
    const written = [];
    for (const screen of SCREENS) {
      for (const language of LANGUAGES) {
        const html = await renderLanguage(bundle, screen, language);
        if (!html.includes('<main')) throw new Error(`${screen.path} in ${language} rendered no <main>`);
        const page = shell
          // A function, so that `$` in the screen's text is not read as a replacement pattern.
          .replace(root, () => `<div id="root">${html}</div>`)
          .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
          // The screen is drawn here: the app's code is fetched once it shows (main.tsx), not
          // alongside the style sheet, whose bandwidth it would share on a slow connection.
          .replaceAll(/\s*<link rel="modulepreload"[^>]*>/g, '')
          .replace(/<script type="module"/, (tag) => (screen.holdsPaint ? `${tag} blocking="render"` : tag));
        if (screen.holdsPaint && !page.includes('<script type="module" blocking="render"')) throw new Error(`${screen.path}'s script was not made to hold the first paint`);
        if (screen.holdsPaint && !page.includes(' data-drawn-banner=')) throw new Error(`${screen.path} was drawn without the verify banner its script shows`);
        const file = drawnDocument(screen.file, language);
        await writeFile(path.join(clientDir, file), page);
        written.push(file);
      }
    }
    console.log(`prerendered ${SCREENS.map((s) => s.path).join(' and ')}: ${written.join(', ')}`);
  } finally {
    await rm(bundleDir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else await renderInWorker(workerData);
