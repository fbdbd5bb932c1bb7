// Writes the sign-in screen into /login's documents, one per language (login.en.html,
// login.es.html next to the built index.html), so that a first visit paints the screen from
// the HTML instead of after the app's JavaScript has arrived and run. The server answers /login
// with the one in the visitor's language (src/server/plugins/client.ts); the app then renders
// the same screen over it. docs/decisions/prerendered-sign-in.md.
// Usage: node scripts/prerender.mjs   (after vite build; reads and writes $BUILD_OUT/client, BUILD_OUT=dist)
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { build } from 'vite';

/** Web storage as the browser has it, enough for the app's reads at its first render. */
class MemoryStorage {
  #items;
  constructor(items) {
    this.#items = new Map(Object.entries(items));
  }
  getItem(key) {
    return this.#items.get(key) ?? null;
  }
  setItem(key, value) {
    this.#items.set(key, String(value));
  }
  removeItem(key) {
    this.#items.delete(key);
  }
}

/** In a worker of its own (the app reads its language once, as its modules load): one language's screen. */
async function renderInWorker({ bundle, language }) {
  // An online device that chose `language` and holds no session.
  const browser = {
    localStorage: new MemoryStorage({ 'wellhaven.language': language }),
    sessionStorage: new MemoryStorage({}),
    navigator: { onLine: true, language, languages: [language] },
  };
  for (const [name, value] of Object.entries(browser)) Object.defineProperty(globalThis, name, { value, configurable: true });
  const { renderSignInScreen } = await import(pathToFileURL(bundle).href);
  parentPort.postMessage(await renderSignInScreen());
}

function renderLanguage(bundle, language) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { bundle, language } });
    worker.once('message', (html) => {
      resolve(html);
      // The screen's pending configuration request holds nothing worth waiting for.
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`prerender of ${language} exited with ${code}`)));
  });
}

async function main() {
  const out = process.env.BUILD_OUT ?? 'dist';
  const clientDir = path.join(out, 'client');
  const bundleDir = path.join(out, 'prerender');
  await build({ configFile: 'vite.prerender.config.ts' });
  const bundle = path.resolve(bundleDir, 'prerender.js');
  try {
    const { LANGUAGES } = await import(pathToFileURL(bundle).href);
    const shell = await readFile(path.join(clientDir, 'index.html'), 'utf8');
    const root = '<div id="root"></div>';
    if (shell.split(root).length !== 2) throw new Error(`index.html must hold ${root} once`);
    for (const language of LANGUAGES) {
      const screen = await renderLanguage(bundle, language);
      if (!screen.includes('<main')) throw new Error(`the ${language} sign-in screen rendered no <main>`);
      const page = shell
        .replace(root, `<div id="root">${screen}</div>`)
        .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
        // The screen is drawn here: the app's code is fetched once it shows (main.tsx), not
        // alongside the style sheet, whose bandwidth it would share on a slow connection.
        .replaceAll(/\s*<link rel="modulepreload"[^>]*>/g, '');
      await writeFile(path.join(clientDir, `login.${language}.html`), page);
    }
    console.log(`prerendered /login: ${LANGUAGES.map((l) => `login.${l}.html`).join(', ')}`);
  } finally {
    await rm(bundleDir, { recursive: true, force: true });
  }
}

if (isMainThread) await main();
else await renderInWorker(workerData);
