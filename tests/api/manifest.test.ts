/** GET /manifest.webmanifest (issue 11): the installable app's manifest, from the runtime brand configuration. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentCsp } from '../../src/server/plugins/security';
import { type TestApp, createTestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { BRAND_NAME: 'Acme Wellness', BRAND_PRIMARY_COLOR: '#123456' } });
});
afterAll(async () => {
  await t?.close();
});

describe('web app manifest', () => {
  it('names the brand and its colour, standalone, with regular and maskable icons', async () => {
    const res = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/manifest+json');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toMatchObject({
      name: 'Acme Wellness',
      short_name: 'Acme Wellness',
      theme_color: '#123456',
      display: 'standalone',
      start_url: '/home',
      scope: '/',
    });
    const icons = res.json().icons as { src: string; sizes: string; purpose?: string }[];
    expect(icons.map((i) => i.sizes)).toEqual(['192x192', '512x512', '512x512']);
    expect(icons.filter((i) => i.purpose === 'maskable')).toHaveLength(1);
  });

  it('needs no sign-in and is not an API answer', async () => {
    const res = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(res.headers['content-security-policy']).toBe(documentCsp('/logo.svg'));
  });

  it('the page policy lets the app register its service worker and manifest from its own origin', () => {
    // worker-src and manifest-src fall back to script-src and default-src: both 'self'.
    const csp = documentCsp('/logo.svg');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/worker-src|manifest-src/);
  });
});
