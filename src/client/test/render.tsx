import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { SessionUser } from '#shared/schemas/auth';
import { Toaster } from '../components/ui/toaster';
import { AuthProvider } from '../features/auth/auth-provider';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from '../lib/auth-storage';
import { createQueryClient } from '../lib/query-client';

/** One request the screen sent through the stubbed transport. */
export interface ApiCall {
  method: string;
  /** Path and query, e.g. `/api/family-members`. */
  url: string;
  headers: Headers;
  body: unknown;
}

/** A JSON answer as the server sends it (an empty body for 204). */
export const json = (status: number, body?: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Replaces `fetch` under the app's real api-client: every call is recorded and answered by
 * `answer` (a thrown error is a network failure, as fetch gives one).
 */
export function stubApi(answer: (call: ApiCall) => Response | Promise<Response>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(input instanceof Request ? input.url : String(input), 'http://localhost'), init);
    const text = await request.text();
    const url = new URL(request.url);
    const call: ApiCall = { method: request.method, url: `${url.pathname}${url.search}`, headers: request.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
    calls.push(call);
    return answer(call);
  });
  return calls;
}

export const testUser: SessionUser = {
  id: '0b8f3c1e-6a52-4d1e-9a57-2f4c8e6d9b10',
  firstName: 'Rosa',
  lastName: 'Diaz',
  email: 'rosa@example.test',
  lhmpId: 'LQ12345',
  company: 'Acme Test Employer',
  role: 'member',
  language: null,
};

/** GET /api/auth/me for `testUser`: the answer the app confirms a restored session with. */
export const meAnswer = (user: SessionUser = testUser) =>
  json(200, {
    user,
    session: { expiresAt: '2030-01-01T00:00:00.000Z', idleExpiresAt: '2030-01-01T00:00:00.000Z', adminElevated: false },
    account: { emailVerified: true, mfaEnabled: false },
  });

/** A signed-in browser: the session the app keeps in local storage. */
export function storeTestSession(user: SessionUser = testUser) {
  localStorage.setItem(AUTH_TOKEN_KEY, 'test-token');
  localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
}

/**
 * Renders `element` at `path` inside the app's providers (query client, session, router, the
 * toasts), with `others` as further routes it may navigate to. The screen opens at `url`
 * (a path with a query, say) when given, at `path` otherwise.
 */
export function renderScreen(
  element: ReactElement,
  options: { path: string; url?: string; others?: Record<string, ReactElement>; user?: Parameters<typeof userEvent.setup>[0] },
) {
  const router = createMemoryRouter(
    [{ path: options.path, element }, ...Object.entries(options.others ?? {}).map(([path, other]) => ({ path, element: other }))],
    { initialEntries: [options.url ?? options.path] },
  );
  const user = userEvent.setup(options.user);
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider>
        <RouterProvider router={router} />
        <Toaster />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return { ...view, user, router };
}
