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

describe('startFirstReads', () => {
  it('asks for the configuration; the providers mounting while it is on its way do not ask again, and AuthProvider asks for the session user once', async () => {
    storeTestSession();
    const api = heldApi();
    const queryClient = createQueryClient();
    startFirstReads(queryClient);
    expect(api.sent()).toEqual(['/api/config']);

    render(
      <AppProviders queryClient={queryClient}>
        <p>Home</p>
      </AppProviders>,
    );
    expect(await screen.findByText('Home')).toBeTruthy();
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

  it('answered before the first render: the provider uses the answer and does not ask again', async () => {
    storeTestSession();
    const api = heldApi();
    const queryClient = createQueryClient();
    startFirstReads(queryClient);
    api.release();
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));

    render(
      <AppProviders queryClient={queryClient}>
        <p>Home</p>
      </AppProviders>,
    );
    expect(await screen.findByText('Home')).toBeTruthy();
    await vi.waitFor(() => expect(queryClient.getQueryState(ME_KEY)?.status).toBe('success'));
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(api.sent()).toEqual(['/api/auth/me', '/api/config']);
  });

  it('on a device holding a session, leaves the session user to AuthProvider (a 401 for it must come after the first render)', async () => {
    storeTestSession();
    const api = heldApi();
    const queryClient = createQueryClient();
    startFirstReads(queryClient);
    api.release();
    await vi.waitFor(() => expect(queryClient.getQueryState(CONFIG_KEY)?.status).toBe('success'));
    expect(api.sent()).toEqual(['/api/config']);
    expect(queryClient.getQueryState(ME_KEY)).toBeUndefined();
  });
});
