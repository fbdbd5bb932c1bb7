import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CONFIG_KEY, ME_KEY } from '../lib/query-scopes';
import { createQueryClient } from '../lib/query-client';
import { json, meAnswer, storeTestSession } from '../test/render';
import { startFirstReads } from './first-reads';
import { AppProviders } from './providers';

const served = { brandName: 'Harbour Health', brandLogoUrl: '/logo.svg', brandPrimaryColor: '#123456', vitalScanUrl: '', wellnessProgramUrl: '', helpVideoIds: [] };

/**
 * `fetch`, counting each request as it is made, its answers held until `release()`: the
 * providers mount while the first reads are still on their way, as they do in the app.
 */
function heldApi() {
  const sent: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost').pathname;
    sent.push(url);
    await released;
    return url === '/api/auth/me' ? meAnswer() : json(200, served);
  });
  return { sent: () => [...sent].sort(), release };
}

/** The app's providers over a stand-in screen, on the query client the first reads used. */
async function renderProviders(queryClient: ReturnType<typeof createQueryClient>) {
  render(
    <AppProviders queryClient={queryClient}>
      <p>Home</p>
    </AppProviders>,
  );
  expect(await screen.findByText('Home')).toBeTruthy();
}

describe('startFirstReads', () => {
  it('asks for the configuration; the providers mounting while it is on its way do not ask again, and AuthProvider asks for the session user once', async () => {
    storeTestSession();
    const api = heldApi();
    const queryClient = createQueryClient();
    startFirstReads(queryClient);
    expect(api.sent()).toEqual(['/api/config']);

    await renderProviders(queryClient);
    // ConfigProvider's read and AuthProvider's confirmation of the stored session have run.
    expect(queryClient.getQueryState(CONFIG_KEY)?.fetchStatus).toBe('fetching');
    expect(api.sent()).toEqual(['/api/auth/me', '/api/config']);

    api.release();
    await vi.waitFor(() => {
      expect(queryClient.getQueryState(CONFIG_KEY)?.status).toBe('success');
      expect(queryClient.getQueryState(ME_KEY)?.status).toBe('success');
    });
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(api.sent()).toEqual(['/api/auth/me', '/api/config']);
  });

  it('answered before the first render: the session user left to AuthProvider, which asks once; the configuration not asked again', async () => {
    storeTestSession();
    const api = heldApi();
    const queryClient = createQueryClient();
    startFirstReads(queryClient);
    api.release();
    await vi.waitFor(() => expect(queryClient.getQueryState(CONFIG_KEY)?.status).toBe('success'));
    // On a device holding a session too: a 401 for the session user must come after the first render.
    expect(api.sent()).toEqual(['/api/config']);
    expect(queryClient.getQueryState(ME_KEY)).toBeUndefined();

    await renderProviders(queryClient);
    await vi.waitFor(() => expect(queryClient.getQueryState(ME_KEY)?.status).toBe('success'));
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(api.sent()).toEqual(['/api/auth/me', '/api/config']);
  });
});
