import { type Language, SIGNED_IN_COOKIE, isLanguage } from '#shared/i18n/languages';
import { paths } from '#shared/paths';
import type { SessionUser } from '#shared/schemas/auth';
import { writeAddressCookie } from './address-cookie';
import { language, readSavedLanguage } from './language';
import { common } from './messages/common';
import { ADMIN_ACCESS_KEY, ADMIN_EMAIL_KEY, AUTH_ACCOUNT_KEY, AUTH_TOKEN_KEY, AUTH_USER_KEY } from './session-keys';

export { ADMIN_ACCESS_KEY, ADMIN_EMAIL_KEY, AUTH_ACCOUNT_KEY, AUTH_TOKEN_KEY, AUTH_USER_KEY };

/** zod 4's `z.uuid()` pattern (RFC 9562: version 1-8, variant 10xx, or the nil and max UUIDs). */
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
const USER_TEXT_FIELDS = ['firstName', 'lastName', 'email', 'lhmpId', 'company'] as const;

/**
 * The stored user has the `SessionUser` shape. A structural check, not `SessionUserSchema`:
 * zod would otherwise be part of every screen's first download, and the server re-confirms
 * the session (GET /api/auth/me) right after it is restored. auth-storage.test.ts holds the
 * two to the same answers.
 */
export function isSessionUser(value: unknown): value is SessionUser {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const user = value as Record<string, unknown>;
  return (
    typeof user.id === 'string' &&
    UUID.test(user.id) &&
    USER_TEXT_FIELDS.every((key) => typeof user[key] === 'string') &&
    (user.role === 'member' || user.role === 'admin') &&
    // Absent in a session stored before languages were saved; GET /api/auth/me fills it in.
    (user.language === undefined || user.language === null || isLanguage(user.language))
  );
}

export function readStoredSession(): { token: string; user: SessionUser } | null {
  const token = localStorage.getItem(AUTH_TOKEN_KEY);
  const rawUser = localStorage.getItem(AUTH_USER_KEY);
  if (!token || !rawUser) return null;
  let user: unknown;
  try {
    user = JSON.parse(rawUser);
  } catch {
    user = undefined;
  }
  if (!isSessionUser(user)) {
    clearStoredSession();
    return null;
  }
  return { token, user };
}

export function storedToken(): string | null {
  return localStorage.getItem(AUTH_TOKEN_KEY);
}

/**
 * Tells the server that this device holds a session and the language its pages are in (`null`:
 * it holds none), so that /home's HTML comes with Home drawn in that language
 * (docs/decisions/prerendered-home.md). The cookie holds the language, never the token.
 */
export function shareSignedInLanguage(choice: Language | null) {
  writeAddressCookie(SIGNED_IN_COOKIE, choice, paths.home);
}

/** Keeps the session (at sign-in, and each time the server confirms a restored one). */
export function storeSession(token: string, user: SessionUser) {
  try {
    localStorage.setItem(AUTH_TOKEN_KEY, token);
    localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
  } catch {
    throw new Error(common.saveAuthFailed);
  }
  // The device's choice as it stands now (another tab may have changed it), else the page's.
  shareSignedInLanguage(readSavedLanguage() ?? language);
}

/**
 * Stores a token that replaces the session's own (the admin step-up hands out a new one and
 * revokes the old), with the signed-in user, whatever storage holds at that moment. If storage
 * refuses, no revoked token is left behind: the stored session is cleared and the error goes on.
 */
export function replaceStoredToken(token: string, user: SessionUser) {
  try {
    storeSession(token, user);
  } catch (err) {
    clearStoredSession();
    throw err;
  }
}

export function clearStoredSession() {
  for (const key of [AUTH_TOKEN_KEY, AUTH_USER_KEY, AUTH_ACCOUNT_KEY, ADMIN_ACCESS_KEY, ADMIN_EMAIL_KEY]) localStorage.removeItem(key);
  shareSignedInLanguage(null);
}

export type StoredAccount = { emailVerified: boolean; mfaEnabled: boolean };

/** The account state kept with the session, or null when there is none (or it is not that shape). */
export function readStoredAccount(): StoredAccount | null {
  if (!localStorage.getItem(AUTH_TOKEN_KEY)) return null;
  try {
    const value: unknown = JSON.parse(localStorage.getItem(AUTH_ACCOUNT_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { emailVerified, mfaEnabled } = value as Record<string, unknown>;
    return typeof emailVerified === 'boolean' && typeof mfaEnabled === 'boolean' ? { emailVerified, mfaEnabled } : null;
  } catch {
    return null;
  }
}

/** Keeps the account state with the session; a full storage only costs the first-render hint. */
export function storeAccount(account: StoredAccount) {
  try {
    localStorage.setItem(AUTH_ACCOUNT_KEY, JSON.stringify({ emailVerified: account.emailVerified, mfaEnabled: account.mfaEnabled }));
  } catch {
    // Not kept: Home waits for the server's answer instead.
  }
}

export function storeAdminAccess(email: string) {
  localStorage.setItem(ADMIN_ACCESS_KEY, 'true');
  localStorage.setItem(ADMIN_EMAIL_KEY, email);
}
