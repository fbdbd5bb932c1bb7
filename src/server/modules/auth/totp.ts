import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256Hex } from '../../lib/crypto';

/**
 * The second factor's parameters (RFC 6238 as every authenticator app reads it): HMAC-SHA1,
 * 30-second steps, 6 digits, and one step either side of the server's clock accepted.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const ALGORITHM = 'SHA1';
/** Lower case letters and digits a reader cannot confuse (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUP = 5;

/** A new 160-bit secret (RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans: issuer = the brand, label = the email. */
export function otpauthUrl(secret: string, issuer: string, email: string): string {
  return new TOTP({
    issuer,
    label: email,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
}

/** The time step a moment falls in. */
export const totpStep = (at: Date): number => TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: at.getTime() });

/**
 * The code an authenticator app shows at `at`. The server never makes codes, it only checks
 * them (matchTotpStep): this is for the tests (the RFC's vectors, API tests, fault scripts).
 */
export function totpCodeAt(secret: string, at: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, timestamp: at.getTime() });
}

/** A six-digit code (spaces ignored); anything else is taken for a recovery code. */
export function asTotpCode(input: string): string | null {
  const digits = input.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * The time step whose code `code` is, within ±TOTP_WINDOW steps of `now`; null when it is
 * none of them. Whether that step was already used is the caller's (atomic) check.
 */
export function matchTotpStep(secret: string, code: string, now: Date): number | null {
  const token = asTotpCode(code);
  if (!token) return null;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    timestamp: now.getTime(),
    window: TOTP_WINDOW,
  });
  return delta === null ? null : totpStep(now) + delta;
}

/** Ten new recovery codes, `xxxxx-xxxxx` (about 49 bits each), shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: RECOVERY_GROUP * 2 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]!);
    return `${chars.slice(0, RECOVERY_GROUP).join('')}-${chars.slice(RECOVERY_GROUP).join('')}`;
  });
}

/** What is stored for a recovery code: SHA-256 of it without case, spaces or dashes. */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.toLowerCase().replace(/[\s-]+/g, ''));
}
