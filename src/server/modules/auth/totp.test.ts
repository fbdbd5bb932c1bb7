import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asTotpCode, matchTotpStep, newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash, totpCodeAt, totpStep } from './totp';

// RFC 6238 appendix B: the SHA1 seed "12345678901234567890", 8-digit vectors; the last six
// digits are the 6-digit code of the same step (dynamic truncation, then mod 10^6).
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP', () => {
  it.each(RFC_VECTORS)('matches the RFC 6238 SHA1 vector at %i s', (seconds, eight) => {
    expect(totpCodeAt(RFC_SECRET, new Date(seconds * 1000))).toBe(eight.slice(-6));
  });

  it('agrees with an HMAC-SHA1 computed by hand', () => {
    const at = new Date('2026-03-02T12:00:00Z');
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(Math.floor(at.getTime() / 30_000)));
    const mac = createHmac('sha1', Buffer.from('12345678901234567890')).update(counter).digest();
    const offset = mac[19]! & 0xf;
    const bin = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
    expect(totpCodeAt(RFC_SECRET, at)).toBe(String(bin).padStart(6, '0'));
  });

  it('accepts one step either side and nothing further, and says which step matched', () => {
    const secret = newTotpSecret();
    const now = new Date('2026-03-02T12:00:10Z');
    const step = totpStep(now);
    for (const delta of [-1, 0, 1]) {
      expect(matchTotpStep(secret, totpCodeAt(secret, new Date(now.getTime() + delta * 30_000)), now)).toBe(step + delta);
    }
    for (const delta of [-2, 2]) {
      expect(matchTotpStep(secret, totpCodeAt(secret, new Date(now.getTime() + delta * 30_000)), now)).toBeNull();
    }
  });

  it('refuses codes of another secret and anything that is not six digits', () => {
    const secret = newTotpSecret();
    const now = new Date();
    expect(matchTotpStep(newTotpSecret(), totpCodeAt(secret, now), now)).toBeNull();
    expect(matchTotpStep(secret, totpCodeAt(secret, now).slice(0, 5), now)).toBeNull();
    expect(matchTotpStep(secret, 'abcdef', now)).toBeNull();
    expect(asTotpCode(' 123 456 ')).toBe('123456');
    expect(asTotpCode('1234567')).toBeNull();
  });

  it('makes 160-bit base32 secrets and an otpauth URL with issuer, label and parameters', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const url = new URL(otpauthUrl(secret, 'Wellhaven', 'ana@example.test'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Wellhaven:ana@example.test');
    expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'Wellhaven', secret, algorithm: 'SHA1', digits: '6', period: '30' });
  });
});

describe('recovery codes', () => {
  it('are ten distinct, readable codes whose hash ignores case, spaces and dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    const [first] = codes;
    expect(recoveryCodeHash(first!.toUpperCase().replace('-', ' '))).toBe(recoveryCodeHash(first!));
    expect(recoveryCodeHash(first!)).toMatch(/^[0-9a-f]{64}$/);
    expect(recoveryCodeHash(codes[1]!)).not.toBe(recoveryCodeHash(first!));
  });
});
