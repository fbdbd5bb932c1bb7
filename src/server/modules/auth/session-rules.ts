/** Session lifetime rules (product decisions: Accounts and sessions). Pure. */
export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/**
 * lastSeenAt is written at most this often, so a busy member does not cost a write per
 * request. The idle limit is measured from the last write, so a session may end up to this
 * much early, never late.
 */
export const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export type SessionStatus = 'active' | 'revoked' | 'idle_expired' | 'expired';

export function sessionStatus(s: SessionTimes, now: Date): SessionStatus {
  if (s.revokedAt) return 'revoked';
  if (now.getTime() >= s.expiresAt.getTime()) return 'expired';
  if (now.getTime() - s.lastSeenAt.getTime() >= IDLE_TIMEOUT_MS) return 'idle_expired';
  return 'active';
}

export function shouldTouch(s: SessionTimes, now: Date): boolean {
  return now.getTime() - s.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS;
}

export function absoluteExpiry(createdAt: Date): Date {
  return new Date(createdAt.getTime() + ABSOLUTE_TIMEOUT_MS);
}

export function idleExpiry(s: SessionTimes): Date {
  return new Date(Math.min(s.lastSeenAt.getTime() + IDLE_TIMEOUT_MS, s.expiresAt.getTime()));
}

/** An admin step-up lasts this long; after it the admin re-enters their credentials. */
export const ADMIN_ELEVATION_MS = 60 * 60 * 1000;

export function adminElevationActive(elevatedAt: Date | null, now: Date): boolean {
  return elevatedAt !== null && now.getTime() - elevatedAt.getTime() < ADMIN_ELEVATION_MS;
}
