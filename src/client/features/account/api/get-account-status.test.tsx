import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { meQueryOptions } from '../../../lib/me-query';
import { meAnswer, storeTestSession, stubApi } from '../../../test/render';
import { useAccountStatus } from './get-account-status';

describe('useAccountStatus', () => {
  it('renders its reader again when the account state changes, not when a read of it starts or ends', async () => {
    storeTestSession();
    const calls = stubApi(() => meAnswer());
    const queryClient = createQueryClient();
    let renders = 0;
    function Reader() {
      renders += 1;
      const status = useAccountStatus();
      return <p>{status.data === undefined ? 'unknown' : status.data.emailVerified ? 'verified' : 'not verified'}</p>;
    }
    render(
      <QueryClientProvider client={queryClient}>
        <Reader />
      </QueryClientProvider>,
    );
    await screen.findByText('verified');
    const settled = renders;
    // The same answer read again (as the app does after an account change): nothing the reader shows changes.
    await queryClient.refetchQueries({ queryKey: meQueryOptions().queryKey });
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/auth/me')).toHaveLength(2));
    expect(renders).toBe(settled);
  });
});
