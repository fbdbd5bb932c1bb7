import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_KEY_STORAGE, getCardKey } from './get-card-key';

const KEY = 'x'.repeat(43);
const served = { alg: 'Ed25519', publicKey: KEY, jwk: { kty: 'OKP', crv: 'Ed25519', x: KEY } };

function fakeLocalStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, String(v)), removeItem: (k: string) => void map.delete(k) };
}

beforeEach(() => vi.stubGlobal('localStorage', fakeLocalStorage()));
afterEach(() => vi.unstubAllGlobals());

describe('getCardKey', () => {
  it('fetches the key and remembers it; offline, the remembered one answers', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(served), { status: 200 })));
    expect(await getCardKey()).toBe(KEY);
    expect(localStorage.getItem(CARD_KEY_STORAGE)).toBe(KEY);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await getCardKey()).toBe(KEY);
  });

  it('never visited and offline: fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(getCardKey()).rejects.toThrow(TypeError);
  });

  it('an answer that is not a card key is not remembered', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ alg: 'RS256', publicKey: 'k' }), { status: 200 })));
    await expect(getCardKey()).rejects.toThrow();
    expect(localStorage.getItem(CARD_KEY_STORAGE)).toBeNull();
  });
});
