import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { json, stubApi } from '../../test/render';
import { ConfigProvider, useConfig } from './use-config';

const served = { brandName: 'Harbour Health', brandLogoUrl: '/logo.svg', brandPrimaryColor: '#123456', vitalScanUrl: 'https://scan.example/', wellnessProgramUrl: '', helpVideoIds: [] };

/** Shows the brand name; `seen` is called at each of its renders. */
function Brand({ seen }: { seen?: () => void }) {
  seen?.();
  const { brandName, isLoading } = useConfig();
  return <p>{isLoading ? 'loading' : brandName}</p>;
}

const withClient = (children: ReactNode) => <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;

afterEach(() => vi.unstubAllGlobals());

describe('useConfig', () => {
  it('under the provider: one request for every reader, who re-render once when it arrives', async () => {
    const calls = stubApi(() => json(200, served));
    const first = vi.fn();
    const second = vi.fn();
    render(
      withClient(
        <ConfigProvider>
          <Brand seen={first} />
          <Brand seen={second} />
        </ConfigProvider>,
      ),
    );
    expect(await screen.findAllByText('Harbour Health')).toHaveLength(2);
    expect(calls.filter((c) => c.url === '/api/config')).toHaveLength(1);
    // The first render (loading), then the one the provider's deferred value brings: not a
    // second one from each reader's own subscription.
    expect(first).toHaveBeenCalledTimes(2);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('outside the provider (a screen rendered on its own): reads the configuration itself', async () => {
    stubApi(() => json(200, served));
    render(withClient(<Brand />));
    expect(await screen.findByText('Harbour Health')).toBeTruthy();
  });

  it('falls back to the built-in brand when the configuration cannot be read', async () => {
    stubApi(() => json(500, { error: 'Internal error', code: 'internal' }));
    render(
      withClient(
        <ConfigProvider>
          <Brand />
        </ConfigProvider>,
      ),
    );
    expect(await screen.findByText('Wellhaven', undefined, { timeout: 4000 })).toBeTruthy();
  });
});
