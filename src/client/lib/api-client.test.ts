import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema } from '#shared/errors';
import { ApiError, apiGet, isErrorBody, serverMessageOr, sessionEnded, urlFromKey } from './api-client';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from './auth-storage';

describe('urlFromKey', () => {
  it('joins string parts with / and turns objects into the query, skipping null and empty values', () => {
    expect(urlFromKey(['/api/admin/employers'])).toBe('/api/admin/employers');
    expect(urlFromKey(['/api/admin/employers', 'c1', 'employees', { search: 'ann', status: '', page: 2, size: null }])).toBe(
      '/api/admin/employers/c1/employees?search=ann&page=2',
    );
  });
  it('encodes query values', () => {
    expect(urlFromKey(['/api/x', { search: 'a&b c' }])).toBe('/api/x?search=a%26b+c');
  });
});

describe('isErrorBody', () => {
  const agrees = (value: unknown) => expect(isErrorBody(value)).toBe(ErrorBodySchema.safeParse(value).success);

  it('accepts the standard error body, with or without fields', () => {
    expect(isErrorBody({ error: 'Invalid email or password' })).toBe(true);
    expect(isErrorBody({ error: 'Bad input', fields: { email: 'Please enter a valid email address' } })).toBe(true);
    expect(isErrorBody({ error: 'x', fields: {} })).toBe(true);
  });

  it('refuses anything else', () => {
    for (const value of [null, 'error', 42, [], ['x'], {}, { error: 1 }, { message: 'x' }, { error: 'x', fields: null }, { error: 'x', fields: ['a'] }, { error: 'x', fields: { email: 1 } }, { error: 'x', fields: 'email' }]) {
      expect(isErrorBody(value)).toBe(false);
    }
  });

  it('gives the same answer as ErrorBodySchema for any JSON value and near-miss bodies', () => {
    const fieldsArb = fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue());
    const bodyArb = fc.record({ error: fc.oneof(fc.string(), fc.jsonValue()), fields: fieldsArb }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), bodyArb), (value) => {
        agrees(value);
      }),
      { numRuns: 500 },
    );
  });
});

describe('serverMessageOr', () => {
  it("prefers the server's sentence and falls back otherwise", () => {
    expect(serverMessageOr(new ApiError(409, '409: taken', { error: 'Already taken' }), 'Failed')).toBe('Already taken');
    expect(serverMessageOr(new ApiError(500, '500: boom', undefined), 'Failed')).toBe('Failed');
    expect(serverMessageOr(new TypeError('Failed to fetch'), 'Failed')).toBe('Failed');
  });
});

describe('a 401 answer', () => {
  let store: Map<string, string>;
  let assign: ReturnType<typeof vi.fn>;
  /** The answer fetch gives, and what happens to storage while the request is in flight. */
  let inFlight: () => void;
  beforeEach(() => {
    store = new Map([
      [AUTH_TOKEN_KEY, 'old-token'],
      [AUTH_USER_KEY, '{}'],
    ]);
    assign = vi.fn();
    inFlight = () => undefined;
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    vi.stubGlobal('window', { location: { assign } });
    vi.stubGlobal('fetch', async () => {
      inFlight();
      return new Response(JSON.stringify({ error: 'Authentication required' }), { status: 401 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('ends the stored session and starts over when it carried the stored token', async () => {
    await expect(apiGet('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(store.get(AUTH_TOKEN_KEY)).toBeUndefined();
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('leaves a newer token alone: a ping sent with the old one that lands after the step-up replaced it', async () => {
    inFlight = () => void store.set(AUTH_TOKEN_KEY, 'new-token');
    await expect(apiGet('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(store.get(AUTH_TOKEN_KEY)).toBe('new-token');
    expect(store.get(AUTH_USER_KEY)).toBe('{}');
    expect(assign).not.toHaveBeenCalled();
  });

  it('is the same for a request that is not fetch (the roster upload uses sessionEnded too)', () => {
    store.set(AUTH_TOKEN_KEY, 'new-token');
    expect(sessionEnded('old-token')).toMatchObject({ status: 401 });
    expect(store.get(AUTH_TOKEN_KEY)).toBe('new-token');
    expect(sessionEnded('new-token')).toMatchObject({ status: 401 });
    expect(store.get(AUTH_TOKEN_KEY)).toBeUndefined();
    expect(assign).toHaveBeenCalledTimes(1);
  });
});
