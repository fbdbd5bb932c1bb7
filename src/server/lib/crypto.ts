import { createHmac, hash, randomBytes } from 'node:crypto';

/** A 256-bit random token, base64url: one-time links and sign-in challenges (sessions' are signed: modules/auth/session-tokens.ts). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * SHA-256 of `value`, hex. The one-shot `crypto.hash` makes no Hash object: every bearer
 * request hashes its token to find its session, and `createHash(...).update().digest()` was
 * about 5% of `GET /api/auth/me`'s CPU.
 */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function hmacHex(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}
