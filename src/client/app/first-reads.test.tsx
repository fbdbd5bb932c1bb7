import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CONFIG_KEY, ME_KEY } from '../lib/query-scopes';
import { createQueryClient } from '../lib/query-client';
import { type ApiCall, json, meAnswer, stubApi, storeTestSession } from '../test/render';
import { startFirstReads } from './first-reads';
import { AppProviders } from './providers';

const served = { brandName: 'Harbour Health', brandLogoUrl: '/logo.svg', brandPrimaryColor: '#123456', vitalScanUrl: '', wellnessProgramUrl: '', helpVideoIds: [] };

const answer = (call: ApiCall) => (call.url === '/api/auth/me' ? meAnswer() : call.url === '/api/config' ? json(200, served) : json(404, { error: 'Not found', code: 'not_found' }));
const urls = (calls: ApiCall[]) => calls.map((c) => c.url).sort();

describe('startFirstReads', () => {
  it('on a device holding a session: asks for the configuration and the session user before the first render, and the providers ask again for neither', async () => {
    storeTestSession();
    const calls = stubApi(answer);
    const queryClient = createQueryClient();
    startFirstReads(queryClient);
    await vi.waitFor(() => expect(urls(calls)).toEqual(['/api/auth/me', '/api/config']));

    render(
      <AppProviders queryClient={queryClient}>
        <p>Home</p>
      </AppProviders>,
    );
    expect(await screen.findByText('Home')).toBeTruthy();
    await vi.waitFor(() => {
      expect(queryClient.getQueryState(CONFIG_KEY)?.status).toBe('success');
      expect(queryClient.getQueryState(ME_KEY)?.status).toBe('success');
    });
    // AuthProvider's confirmation of the stored session and ConfigProvider's read found the
    // requests already on their way.
    expect(urls(calls)).toEqual(['/api/auth/me', '/api/config']);
  });

  it('signed out: asks for the configuration only', async () => {
    const calls = stubApi(answer);
    const queryClient = createQueryClient();
    startFirstReads(queryClient);
    await vi.waitFor(() => expect(queryClient.getQueryState(CONFIG_KEY)?.status).toBe('success'));
    expect(urls(calls)).toEqual(['/api/config']);
    expect(queryClient.getQueryState(ME_KEY)).toBeUndefined();
  });
});
