import { describe, expect, it } from 'vitest';
import { encodeCardClaims, joinCardToken, toBase64Url, verifyCardToken } from '#shared/card-token';
import { describeVerification, normalisePayload } from './verify-result';

async function issuer() {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicKey = toBase64Url(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
  const sign = async (claims: Parameters<typeof encodeCardClaims>[0]) => {
    const input = encodeCardClaims(claims);
    const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, new TextEncoder().encode(input)));
    return joinCardToken(input, signature);
  };
  return { publicKey, sign };
}

const claims = { n: 'Sam Tester', e: 'Acme Health Co', m: 'LQ00001', p: 'Gold PPO', g: 'GRP-100', r: 'Child', iat: '2026-11-23', exp: '2026-12-23' };
const now = new Date('2026-11-30T12:00:00Z');

describe('verifying a card as /verify-card does', () => {
  it('a genuine card: "Valid card for <name>, <employer>, issued <date>" and what it claims', async () => {
    const { publicKey, sign } = await issuer();
    const outcome = describeVerification(await verifyCardToken(await sign(claims), publicKey, now));
    expect(outcome).toEqual({
      valid: true,
      headline: 'Valid card for Sam Tester, Acme Health Co, issued Nov 23, 2026',
      lines: ['Relationship: Child', 'LHMP ID: LQ00001', 'Plan: Gold PPO', 'Group: GRP-100', 'Signature checked by the programme’s key. Valid until Dec 23, 2026.'],
    });
  });

  it('a pasted payload with line breaks and spaces still verifies', async () => {
    const { publicKey, sign } = await issuer();
    const token = await sign(claims);
    const pasted = `  ${token.slice(0, 40)}\n${token.slice(40, 90)} \r\n${token.slice(90)}\n`;
    expect((await verifyCardToken(normalisePayload(pasted), publicKey, now)).ok).toBe(true);
  });

  it('a changed card, one signed by another key, an expired one and garbage are "Not valid", each with its reason', async () => {
    const { publicKey, sign } = await issuer();
    const other = await issuer();
    const token = await sign(claims);
    const forged = encodeCardClaims({ ...claims, n: 'Mallory' }) + token.slice(token.lastIndexOf('.'));
    const cases: [string, string, Date, RegExp][] = [
      [forged, publicKey, now, /changed after it was issued/],
      [await other.sign(claims), publicKey, now, /not signed by the programme/],
      [token, publicKey, new Date('2027-01-01T00:00:00Z'), /expired/],
      ['hello', publicKey, now, /not a programme ID card code/],
    ];
    for (const [t, key, at, reason] of cases) {
      const outcome = describeVerification(await verifyCardToken(t, key, at));
      expect(outcome.valid).toBe(false);
      expect(outcome.headline).toBe('Not valid');
      expect(outcome.lines[0]).toMatch(reason);
    }
  });

  it('no key to check with', () => {
    expect(describeVerification({ ok: false, reason: 'noKey' })).toEqual({ valid: false, headline: 'Not valid', lines: [expect.stringMatching(/key could not be fetched/)] });
  });
});
