// @vitest-environment happy-dom
// A DOM: the session's cookie for /home (shareSignedInLanguage) is written through `document.cookie`.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { common } from './messages/common';
import { type SessionUser, SessionUserSchema } from '#shared/schemas/auth';
import {
  ADMIN_ACCESS_KEY,
  AUTH_ACCOUNT_KEY,
  AUTH_TOKEN_KEY,
  AUTH_USER_KEY,
  clearStoredSession,
  isSessionUser,
  readStoredAccount,
  readStoredSession,
  replaceStoredToken,
  shareSignedInLanguage,
  storeAccount,
  storeSession,
} from './auth-storage';
import { language } from './language';

const user = {
  id: '6f1c2b9e-3d4a-4f5b-8c6d-7e8f9a0b1c2d',
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  lhmpId: 'LQ12345',
  company: 'Acme',
  role: 'member',
};

describe('isSessionUser', () => {
  it('accepts a stored session user (member or admin)', () => {
    expect(isSessionUser(user)).toBe(true);
    expect(isSessionUser({ ...user, role: 'admin' })).toBe(true);
  });

  it('refuses a missing field, a wrong type, an unknown role or an id that is not a UUID', () => {
    for (const key of Object.keys(user)) {
      const { [key]: _dropped, ...rest } = user as Record<string, unknown>;
      expect(isSessionUser(rest)).toBe(false);
      expect(isSessionUser({ ...user, [key]: 7 })).toBe(false);
    }
    expect(isSessionUser({ ...user, role: 'owner' })).toBe(false);
    expect(isSessionUser({ ...user, id: 'not-a-uuid' })).toBe(false);
    expect(isSessionUser({ ...user, id: '6f1c2b9e-3d4a-9f5b-8c6d-7e8f9a0b1c2d' })).toBe(false);
    for (const value of [null, 'user', 1, [], [user]]) expect(isSessionUser(value)).toBe(false);
  });

  it('gives the same answer as SessionUserSchema (language may be absent: a user stored before it was saved)', () => {
    const StoredUserSchema = SessionUserSchema.extend({ language: SessionUserSchema.shape.language.optional() });
    const idArb = fc.oneof(fc.uuid(), fc.constantFrom('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'), fc.string(), fc.jsonValue());
    const text = fc.oneof(fc.string(), fc.jsonValue());
    const userArb = fc.record(
      {
        id: idArb,
        firstName: text,
        lastName: text,
        email: text,
        lhmpId: text,
        company: text,
        role: fc.oneof(fc.constantFrom('member', 'admin', 'Admin', ''), fc.jsonValue()),
        language: fc.oneof(fc.constantFrom('en', 'es', null, 'fr', 'ES'), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(userArb, fc.jsonValue()), (value) => {
        expect(isSessionUser(value)).toBe(StoredUserSchema.safeParse(value).success);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('readStoredSession', () => {
  let store: Map<string, string>;
  beforeEach(() => {
    store = new Map();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('restores a well-formed session', () => {
    store.set(AUTH_TOKEN_KEY, 'tok');
    store.set(AUTH_USER_KEY, JSON.stringify(user));
    expect(readStoredSession()).toEqual({ token: 'tok', user });
  });

  it('is null without a token or a user', () => {
    expect(readStoredSession()).toBeNull();
    store.set(AUTH_TOKEN_KEY, 'tok');
    expect(readStoredSession()).toBeNull();
  });

  it.each([['not json {'], [JSON.stringify({ ...user, role: 'owner' })], [JSON.stringify(null)]])('clears a damaged session (%s)', (raw) => {
    store.set(AUTH_TOKEN_KEY, 'tok');
    store.set(AUTH_USER_KEY, raw);
    store.set(ADMIN_ACCESS_KEY, 'true');
    expect(readStoredSession()).toBeNull();
    expect([...store.keys()]).toEqual([]);
  });
});

describe('replaceStoredToken (the admin step-up hands out a new token and revokes the old)', () => {
  let store: Map<string, string>;
  let refuse: boolean;
  beforeEach(() => {
    store = new Map();
    refuse = false;
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => {
        if (refuse) throw new DOMException('quota', 'QuotaExceededError');
        store.set(k, v);
      },
      removeItem: (k: string) => void store.delete(k),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('stores the new token with the user whatever storage held (here no stored user at all)', () => {
    store.set(AUTH_TOKEN_KEY, 'old');
    replaceStoredToken('new', user as SessionUser);
    expect(readStoredSession()).toEqual({ token: 'new', user });
  });

  it('leaves no revoked token behind when storage refuses the new one', () => {
    store.set(AUTH_TOKEN_KEY, 'old');
    store.set(AUTH_USER_KEY, JSON.stringify(user));
    store.set(ADMIN_ACCESS_KEY, 'true');
    refuse = true;
    expect(() => replaceStoredToken('new', user as SessionUser)).toThrow(common.saveAuthFailed);
    expect([...store.keys()]).toEqual([]);
  });
});

describe('the account state kept with the session (Home knows it at its first render)', () => {
  let store: Map<string, string>;
  beforeEach(() => {
    store = new Map();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads back what was stored, only while there is a session, and goes with it', () => {
    storeAccount({ emailVerified: false, mfaEnabled: true });
    expect(readStoredAccount()).toBeNull();
    store.set(AUTH_TOKEN_KEY, 'tok');
    expect(readStoredAccount()).toEqual({ emailVerified: false, mfaEnabled: true });
    clearStoredSession();
    expect(store.has(AUTH_ACCOUNT_KEY)).toBe(false);
  });

  it.each([['not json {'], ['null'], [JSON.stringify({ emailVerified: 'no', mfaEnabled: false })], [JSON.stringify([true, false])]])(
    'is null for anything but that shape (%s)',
    (raw) => {
      store.set(AUTH_TOKEN_KEY, 'tok');
      store.set(AUTH_ACCOUNT_KEY, raw);
      expect(readStoredAccount()).toBeNull();
    },
  );
});

describe("the session's cookie for /home (the server draws Home for a device that holds one)", () => {
  let store: Map<string, string>;
  let written: string[];
  beforeEach(() => {
    store = new Map();
    written = [];
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => void written.push(value));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("is written with the session, holding the page's language and nothing else, and removed with it", () => {
    storeSession('secret-token', user as SessionUser);
    // For the server on /home, and its copy for the service worker, which reads only its own address's cookies.
    expect(written).toEqual([
      `wellhaven-signed-in=${language}; Path=/home; Max-Age=31536000; SameSite=Lax`,
      `wellhaven-signed-in=${language}; Path=/sw.js; Max-Age=31536000; SameSite=Lax`,
    ]);
    clearStoredSession();
    expect(written.slice(2)).toEqual(['wellhaven-signed-in=; Path=/home; Max-Age=0; SameSite=Lax', 'wellhaven-signed-in=; Path=/sw.js; Max-Age=0; SameSite=Lax']);
    expect(written.join()).not.toContain('secret-token');
  });

  it('goes when a damaged session is cleared, and is not written when storage refuses the session', () => {
    store.set(AUTH_TOKEN_KEY, 'tok');
    store.set(AUTH_USER_KEY, 'not json {');
    readStoredSession();
    expect(written).toEqual(['wellhaven-signed-in=; Path=/home; Max-Age=0; SameSite=Lax', 'wellhaven-signed-in=; Path=/sw.js; Max-Age=0; SameSite=Lax']);
    vi.stubGlobal('localStorage', {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
      removeItem: () => undefined,
    });
    expect(() => storeSession('tok', user as SessionUser)).toThrow(common.saveAuthFailed);
    expect(written).toHaveLength(2);
  });

  it('is Secure on HTTPS', () => {
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, protocol: 'https:' });
    shareSignedInLanguage('es');
    expect(written).toEqual([
      'wellhaven-signed-in=es; Path=/home; Max-Age=31536000; SameSite=Lax; Secure',
      'wellhaven-signed-in=es; Path=/sw.js; Max-Age=31536000; SameSite=Lax; Secure',
    ]);
  });
});
