import { describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE, SIGNED_IN_COOKIE } from '#shared/i18n/languages';
import { drawnDocumentFor } from './drawn-documents';

/** The cookies a device holds, by name. */
function jar(cookies: Record<string, string> = {}) {
  const asked: string[] = [];
  return {
    asked,
    cookie: async (name: string) => {
      asked.push(name);
      return cookies[name] ?? null;
    },
  };
}

describe('drawnDocumentFor', () => {
  it("answers /home with Home drawn in the pages' language on a device that holds a session", async () => {
    const device = jar({ [SIGNED_IN_COOKIE]: 'es' });
    expect(await drawnDocumentFor('/home', { cookie: device.cookie, preferred: ['en-US'] })).toBe('/home.es.html');
    expect(device.asked).toEqual([SIGNED_IN_COOKIE]);
  });

  it('answers /home with the app shell where no session is held, or the cookie names no language the app speaks', async () => {
    expect(await drawnDocumentFor('/home', { cookie: jar().cookie, preferred: ['es'] })).toBeUndefined();
    const odd = jar({ [SIGNED_IN_COOKIE]: 'fr' });
    expect(await drawnDocumentFor('/home', { cookie: odd.cookie, preferred: ['es'] })).toBeUndefined();
  });

  it("answers /login in the device's saved language, else the reader's first language the app speaks, else English", async () => {
    const saved = jar({ [LANGUAGE_COOKIE]: 'es' });
    expect(await drawnDocumentFor('/login', { cookie: saved.cookie, preferred: ['en'] })).toBe('/login.es.html');
    expect(await drawnDocumentFor('/login', { cookie: jar().cookie, preferred: ['fr-FR', 'es-MX', 'en'] })).toBe('/login.es.html');
    expect(await drawnDocumentFor('/login', { cookie: jar().cookie, preferred: ['fr', 'de'] })).toBe('/login.en.html');
    // Where the cookies cannot be read (a worker without the Cookie Store API), the saved choice is unknown: the app shell.
    expect(await drawnDocumentFor('/login', { cookie: async () => undefined, preferred: ['es'] })).toBeUndefined();
    expect(await drawnDocumentFor('/home', { cookie: async () => undefined, preferred: ['es'] })).toBeUndefined();
  });

  it('leaves every other page to the app shell', async () => {
    const device = jar({ [SIGNED_IN_COOKIE]: 'en' });
    for (const page of ['/', '/health', '/home/extra', '/profile', '/admin/login']) {
      expect(await drawnDocumentFor(page, { cookie: device.cookie, preferred: ['en'] }), page).toBeUndefined();
    }
  });
});
