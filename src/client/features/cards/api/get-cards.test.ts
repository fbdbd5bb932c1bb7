import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IdCardsResponse } from '#shared/schemas/cards';
import { closeCardStore, loadCardsOwner, saveCards } from '../../../lib/card-store';
import { readKeepCardsPreference, writeKeepCardsPreference } from '../../../lib/keep-cards';
import { getCardsOrSaved, getSavedCards } from './get-cards';

const A = '7b5e0f7e-2a3c-4c1d-9d3e-0a1b2c3d4e5f';
const B = '0c8f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

const answer = (name: string): IdCardsResponse => ({
  details: { planName: 'Gold PPO', groupNumber: null, rxBin: null, rxPcn: null, rxGroup: null, memberServicesPhone: null, nurseLinePhone: null, payerId: null, backNote: null },
  cards: [
    {
      id: 'member',
      kind: 'member',
      name,
      relationship: null,
      dateOfBirth: null,
      subscriberName: name,
      employer: 'Acme',
      lhmpId: 'LQ00001',
      issuedAt: '2026-11-23T00:00:00.000Z',
      expiresAt: '2026-12-23T00:00:00.000Z',
      token: 'WHC1.a.b',
    },
  ],
});

function fakeLocalStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, String(v)), removeItem: (k: string) => void map.delete(k) };
}

const online = (body: unknown, status = 200) =>
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));
const offline = () =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );

beforeEach(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  vi.stubGlobal('localStorage', fakeLocalStorage());
  vi.stubGlobal('navigator', { onLine: true });
});
afterEach(async () => {
  await closeCardStore();
  vi.unstubAllGlobals();
});

describe('getCardsOrSaved', () => {
  it('online: the server’s cards, saved on the device for next time', async () => {
    online(answer('Riley'));
    expect(await getCardsOrSaved(A)).toEqual({ data: answer('Riley'), savedAt: null });
    expect(await loadCardsOwner()).toBe(A);
    expect((await getSavedCards(A))?.data).toEqual(answer('Riley'));
  });

  it('no connection: the saved cards and when they were saved', async () => {
    online(answer('Riley'));
    await getCardsOrSaved(A);
    offline();
    const result = await getCardsOrSaved(A);
    expect(result.data).toEqual(answer('Riley'));
    expect(result.savedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('no connection and nothing saved (or saved for someone else): the error', async () => {
    offline();
    await expect(getCardsOrSaved(A)).rejects.toThrow(TypeError);
    await saveCards(B, answer('Other'));
    await expect(getCardsOrSaved(A)).rejects.toThrow(TypeError);
  });

  it('a server error is not covered up with saved cards', async () => {
    online(answer('Riley'));
    await getCardsOrSaved(A);
    online({ error: 'boom', code: 'internal' }, 500);
    await expect(getCardsOrSaved(A)).rejects.toMatchObject({ status: 500 });
  });

  it('another member’s kept cards are replaced, and their "keep" choice goes off', async () => {
    await saveCards(B, answer('Other'));
    writeKeepCardsPreference(true);
    online(answer('Riley'));
    await getCardsOrSaved(A);
    expect(readKeepCardsPreference()).toBe(false);
    expect(await loadCardsOwner()).toBe(A);
  });

  it('the same member’s choice stays on', async () => {
    online(answer('Riley'));
    await getCardsOrSaved(A);
    writeKeepCardsPreference(true);
    await getCardsOrSaved(A);
    expect(readKeepCardsPreference()).toBe(true);
  });

  it('saved data that no longer matches the contract is not shown', async () => {
    await saveCards(A, { cards: 'nonsense' });
    expect(await getSavedCards(A)).toBeNull();
  });
});
