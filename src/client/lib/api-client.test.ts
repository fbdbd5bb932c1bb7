import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, ErrorBodySchema } from '#shared/errors';
import { common } from './messages/common';
import { ApiError, OFFLINE_CODE, apiGet, apiSend, isErrorBody, serverMessageOr, sessionEnded, urlFromKey } from './api-client';
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
    expect(isErrorBody({ error: 'Invalid email or password', code: 'unauthenticated' })).toBe(true);
    expect(isErrorBody({ error: 'Bad input', code: 'validation', fields: { email: 'Please enter a valid email address' } })).toBe(true);
    expect(isErrorBody({ error: 'x', code: 'validation', fields: {} })).toBe(true);
    expect(isErrorBody({ error: 'Reused', code: 'idempotency_key_reused' })).toBe(true);
    for (const code of ERROR_CODES) expect(isErrorBody({ error: 'x', code })).toBe(true);
  });

  it('refuses anything else', () => {
    for (const value of [null, 'error', 42, [], ['x'], {}, { error: 1 }, { message: 'x' }, { error: 'x', fields: null }, { error: 'x', fields: ['a'] }, { error: 'x', fields: { email: 1 } }, { error: 'x', fields: 'email' }, { error: 'x', code: 1 }, { error: 'x', code: null }, { error: 'x' }, { error: 'x', code: 'teapot' }]) {
      expect(isErrorBody(value)).toBe(false);
    }
  });

  it('gives the same answer as ErrorBodySchema for any JSON value and near-miss bodies', () => {
    const fieldsArb = fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue());
    const bodyArb = fc.record({ error: fc.oneof(fc.string(), fc.jsonValue()), code: fc.oneof(fc.constantFrom(...ERROR_CODES), fc.string(), fc.jsonValue()), fields: fieldsArb }, { requiredKeys: [] });
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
    expect(serverMessageOr(new ApiError(409, '409: taken', { error: 'Already taken', code: 'conflict' }), 'Failed')).toBe('Already taken');
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
    vi.stubGlobal('window', { location: { assign, protocol: 'http:' } });
    // The session's cookie for /home (lib/auth-storage.ts) goes with it.
    vi.stubGlobal('document', { cookie: 'wellhaven-signed-in=en; Path=/home' });
    vi.stubGlobal('fetch', async () => {
      inFlight();
      return new Response(JSON.stringify({ error: 'Authentication required', code: 'unauthenticated' }), { status: 401 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('ends the stored session and starts over when it carried the stored token', async () => {
    await expect(apiGet('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(store.get(AUTH_TOKEN_KEY)).toBeUndefined();
    // The last of the two writes: the service worker's copy (lib/address-cookie.ts) after the one for /home.
    expect(document.cookie).toBe('wellhaven-signed-in=; Path=/sw.js; Max-Age=0; SameSite=Lax');
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('leaves a newer token alone: a ping sent with the old one that lands after the step-up replaced it', async () => {
    inFlight = () => void store.set(AUTH_TOKEN_KEY, 'new-token');
    await expect(apiGet('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(store.get(AUTH_TOKEN_KEY)).toBe('new-token');
    expect(store.get(AUTH_USER_KEY)).toBe('{}');
    expect(document.cookie).toBe('wellhaven-signed-in=en; Path=/home');
    expect(assign).not.toHaveBeenCalled();
  });

  it('is the same for a request that is not fetch (the roster upload uses sessionEnded too)', () => {
    store.set(AUTH_TOKEN_KEY, 'new-token');
    expect(sessionEnded('old-token')).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(store.get(AUTH_TOKEN_KEY)).toBe('new-token');
    expect(sessionEnded('new-token')).toMatchObject({ status: 401 });
    expect(store.get(AUTH_TOKEN_KEY)).toBeUndefined();
    expect(assign).toHaveBeenCalledTimes(1);
  });
});

describe('a write', () => {
  let calls: { url: string; init: RequestInit }[];
  let answer: () => Promise<Response>;
  beforeEach(() => {
    calls = [];
    answer = async () => new Response(JSON.stringify({ id: 'f1' }), { status: 201 });
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    vi.stubGlobal('navigator', { onLine: true });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer();
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const expectOffline = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, code: OFFLINE_CODE, serverMessage: common.offlineNotSaved });
    expect(serverMessageOr(err, 'fallback')).toBe("You're offline. Your changes were not saved.");
  };

  it('fails at once without a request when the browser is offline', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) await expectOffline(apiSend(method, '/api/family-members', { a: 1 }));
    expect(calls).toHaveLength(0);
  });

  it('turns a network failure (no answer at all) into the same offline error', async () => {
    answer = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expectOffline(apiSend('POST', '/api/family-members', { a: 1 }));
    expect(calls).toHaveLength(1);
  });

  it('leaves other failures alone: a server answer, or an error that is not the network', async () => {
    answer = async () => new Response(JSON.stringify({ error: 'Reused', code: 'idempotency_key_reused' }), { status: 422 });
    const refused = await apiSend('POST', '/api/x').catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, code: 'idempotency_key_reused', serverMessage: 'Reused' });
    answer = async () => {
      throw new DOMException('aborted', 'AbortError');
    };
    const aborted = await apiSend('POST', '/api/x').catch((e: unknown) => e);
    expect(aborted).not.toMatchObject({ code: OFFLINE_CODE });
  });

  it('has no code, and no server message, when the answer is not the standard body', async () => {
    answer = async () => new Response('<html>Bad gateway</html>', { status: 502 });
    const failed = await apiSend('POST', '/api/x', {}).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ status: 502, code: undefined, serverMessage: undefined });
  });

  it('does not refuse reads offline (the cache and the offline screens handle them)', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    answer = async () => new Response(JSON.stringify({ ok: true }), { status: 200 });
    await expect(apiGet('/api/config')).resolves.toEqual({ ok: true });
  });

  it('sends the Idempotency-Key it is given, and none otherwise', async () => {
    await apiSend('POST', '/api/family-members', { a: 1 }, { idempotencyKey: 'k-123' });
    await apiSend('POST', '/api/family-members', { a: 1 });
    expect((calls[0]!.init.headers as Record<string, string>)['idempotency-key']).toBe('k-123');
    expect(calls[1]!.init.headers as Record<string, string>).not.toHaveProperty('idempotency-key');
  });
});
