import { describe, expect, it } from 'vitest';
import {
  ABSOLUTE_TIMEOUT_MS,
  ADMIN_ELEVATION_MS,
  adminElevationActive,
  IDLE_TIMEOUT_MS,
  TOUCH_INTERVAL_MS,
  absoluteExpiry,
  idleExpiry,
  sessionStatus,
  shouldTouch,
} from './session-rules';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const fresh = { createdAt: t0, lastSeenAt: t0, expiresAt: absoluteExpiry(t0), revokedAt: null };

describe('sessionStatus', () => {
  it('is active right after creation and just before the idle limit', () => {
    expect(sessionStatus(fresh, t0)).toBe('active');
    expect(sessionStatus(fresh, at(IDLE_TIMEOUT_MS - 1))).toBe('active');
  });
  it('is idle-expired exactly at 15 minutes of silence', () => {
    expect(sessionStatus(fresh, at(IDLE_TIMEOUT_MS))).toBe('idle_expired');
  });
  it('slides: activity moves the idle limit', () => {
    const seen = { ...fresh, lastSeenAt: at(10 * 60 * 1000) };
    expect(sessionStatus(seen, at(IDLE_TIMEOUT_MS + 60_000))).toBe('active');
  });
  it('expires at 12 hours even when active', () => {
    const busy = { ...fresh, lastSeenAt: at(ABSOLUTE_TIMEOUT_MS - 1000) };
    expect(sessionStatus(busy, at(ABSOLUTE_TIMEOUT_MS - 1))).toBe('active');
    expect(sessionStatus(busy, at(ABSOLUTE_TIMEOUT_MS))).toBe('expired');
  });
  it('revocation wins over everything', () => {
    expect(sessionStatus({ ...fresh, revokedAt: t0 }, t0)).toBe('revoked');
  });
});

describe('touch and expiry helpers', () => {
  it('touches only after the touch interval', () => {
    expect(shouldTouch(fresh, at(TOUCH_INTERVAL_MS - 1))).toBe(false);
    expect(shouldTouch(fresh, at(TOUCH_INTERVAL_MS))).toBe(true);
  });
  it('idle expiry never passes the absolute expiry', () => {
    expect(idleExpiry(fresh)).toEqual(at(IDLE_TIMEOUT_MS));
    const late = { ...fresh, lastSeenAt: at(ABSOLUTE_TIMEOUT_MS - 60_000) };
    expect(idleExpiry(late)).toEqual(fresh.expiresAt);
  });
});

describe('adminElevationActive', () => {
  it('lasts an hour from the step-up and never exists without one', () => {
    expect(adminElevationActive(null, t0)).toBe(false);
    expect(adminElevationActive(t0, at(ADMIN_ELEVATION_MS - 1))).toBe(true);
    expect(adminElevationActive(t0, at(ADMIN_ELEVATION_MS))).toBe(false);
  });
});
