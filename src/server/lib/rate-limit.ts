import { AppError } from './app-error';
import type { CounterStore } from './counter-store';
import { rateLimitKey } from './ip';

/**
 * Fixed-window rate limits on the counter store, for every service (per IP, per member, per
 * address, per link). One hit is counted per call; the answer is 0 while the key is within
 * `max` per `windowMs`, else the seconds until the window ends (at least 1).
 */
export async function countHit(counters: CounterStore, key: string, max: number, windowMs: number): Promise<number> {
  const hit = await counters.increment(key, windowMs);
  return hit.count > max ? Math.max(1, Math.ceil(hit.resetInMs / 1000)) : 0;
}

/** The 429 for a refused request, with Retry-After. */
export function rateLimitedError(message: string, retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', message, undefined, { 'retry-after': String(retryAfterSeconds) });
}

/** `countHit`, throwing the 429 (with `message`) when the key is over its limit. */
export async function enforceLimit(counters: CounterStore, key: string, max: number, windowMs: number, message: string): Promise<void> {
  const retryAfter = await countHit(counters, key, max, windowMs);
  if (retryAfter) throw rateLimitedError(message, retryAfter);
}

/** The key of a per-IP limit on `action`: an IPv4 address (IPv4-mapped too), or an IPv6 /56 (src/server/lib/ip.ts). */
export const perIpKey = (action: string, ip: string): string => `ip:${action}:${rateLimitKey(ip)}`;

/** The per-IP limit of the public auth routes (AUTH_RATE_LIMIT_PER_IP a minute). */
export const IP_WINDOW_MS = 60 * 1000;
