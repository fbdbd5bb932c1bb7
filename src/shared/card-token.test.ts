import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addCardDays,
  type CardClaims,
  cardDate,
  encodeCardClaims,
  fromBase64Url,
  joinCardToken,
  parseCardToken,
  toBase64Url,
  verifyCardToken,
} from './card-token';

type Signer = { publicKey: string; sign: (claims: CardClaims) => Promise<string> };

async function makeSigner(): Promise<Signer> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  return {
    publicKey: toBase64Url(raw),
    sign: async (claims) => {
      const input = encodeCardClaims(claims);
      const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, pair.privateKey, new TextEncoder().encode(input)));
      return joinCardToken(input, signature);
    },
  };
}

const claims: CardClaims = {
  n: 'José Núñez',
  e: 'Acme Health Co',
  m: 'LQ00001',
  p: 'Gold PPO',
  g: 'GRP-1234',
  iat: '2026-11-23',
  exp: '2026-12-23',
};
const now = new Date('2026-11-23T12:00:00Z');

let signer: Signer;
let other: Signer;
beforeAll(async () => {
  signer = await makeSigner();
  other = await makeSigner();
});

/** Replaces one character of `s` at `index` with a different base64url character. */
function flip(s: string, index: number): string {
  const c = s[index] === 'A' ? 'B' : 'A';
  return s.slice(0, index) + c + s.slice(index + 1);
}

describe('card tokens', () => {
  it('a signed card verifies and gives its claims back', async () => {
    const token = await signer.sign(claims);
    expect(token.startsWith('WHC1.')).toBe(true);
    expect(await verifyCardToken(token, signer.publicKey, now)).toEqual({ ok: true, claims });
    expect(parseCardToken(token)?.claims).toEqual(claims);
  });

  it('accepts a pasted token with surrounding white space', async () => {
    const token = await signer.sign(claims);
    expect((await verifyCardToken(`  ${token}\n`, signer.publicKey, now)).ok).toBe(true);
  });

  it('a dependant card carries the relationship', async () => {
    const dependant = { ...claims, n: 'Ana Núñez', r: 'Child' };
    const result = await verifyCardToken(await signer.sign(dependant), signer.publicKey, now);
    expect(result).toEqual({ ok: true, claims: dependant });
  });

  it('refuses claims changed after signing', async () => {
    const token = await signer.sign(claims);
    const [prefix, , signature] = token.split('.');
    const forged = encodeCardClaims({ ...claims, n: 'Mallory' }).split('.')[1];
    expect(await verifyCardToken(`${prefix}.${forged}.${signature}`, signer.publicKey, now)).toEqual({ ok: false, reason: 'signature' });
    const longer = encodeCardClaims({ ...claims, exp: '2030-01-01' }).split('.')[1];
    expect(await verifyCardToken(`${prefix}.${longer}.${signature}`, signer.publicKey, now)).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses a changed signature', async () => {
    const token = await signer.sign(claims);
    const dot = token.lastIndexOf('.');
    const tampered = flip(token, dot + 5);
    expect(await verifyCardToken(tampered, signer.publicKey, now)).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses a card signed with another key', async () => {
    const token = await other.sign(claims);
    expect(await verifyCardToken(token, signer.publicKey, now)).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses every card when the public key is unusable', async () => {
    const token = await signer.sign(claims);
    for (const key of ['', 'not base64!', toBase64Url(new Uint8Array(31)), toBase64Url(new Uint8Array(33))]) {
      expect(await verifyCardToken(token, key, now)).toEqual({ ok: false, reason: 'signature' });
    }
  });

  it('is valid through its expiry date (UTC) and expired the day after', async () => {
    const token = await signer.sign(claims);
    expect((await verifyCardToken(token, signer.publicKey, new Date('2026-12-23T23:59:59Z'))).ok).toBe(true);
    expect(await verifyCardToken(token, signer.publicKey, new Date('2026-12-24T00:00:00Z'))).toEqual({ ok: false, reason: 'expired' });
  });

  it('says "signature", never "expired", for a forged expired card', async () => {
    const token = await other.sign({ ...claims, iat: '2020-01-01', exp: '2020-01-31' });
    expect(await verifyCardToken(token, signer.publicKey, now)).toEqual({ ok: false, reason: 'signature' });
  });

  it('calls malformed input malformed', async () => {
    const token = await signer.sign(claims);
    const [prefix, body, signature] = token.split('.') as [string, string, string];
    const b64 = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)));
    const inputs = [
      '',
      '   ',
      'hello',
      `${prefix}.${body}`,
      `${prefix}.${body}.${signature}.extra`,
      `WHC2.${body}.${signature}`,
      `whc1.${body}.${signature}`,
      `${prefix}..${signature}`,
      `${prefix}.${body}.`,
      `${prefix}.${body}=.${signature}`,
      `${prefix}.${body}.${signature.slice(0, -2)}`,
      `${prefix}.${body.replace(/[A-Za-z]/, '+')}.${signature}`,
      `${prefix}.${toBase64Url(new TextEncoder().encode('not json'))}.${signature}`,
      `${prefix}.${toBase64Url(new Uint8Array([0xff, 0xfe]))}.${signature}`,
      `${prefix}.${b64([1, 2])}.${signature}`,
      `${prefix}.${b64({ ...claims, extra: 1 })}.${signature}`,
      `${prefix}.${b64({ ...claims, n: '' })}.${signature}`,
      `${prefix}.${b64({ ...claims, exp: '2026-02-30' })}.${signature}`,
      `${prefix}.${b64({ ...claims, exp: '2026-11-22' })}.${signature}`,
      `${prefix}.${b64({ ...claims, iat: 20261123 })}.${signature}`,
      `${prefix}.${body}.${signature}`.repeat(20),
    ];
    for (const input of inputs) {
      expect(await verifyCardToken(input, signer.publicKey, now), input.slice(0, 80)).toEqual({ ok: false, reason: 'malformed' });
      expect(parseCardToken(input)).toBeNull();
    }
    expect(await verifyCardToken(undefined as unknown as string, signer.publicKey, now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a non-canonical spelling of the same signature', async () => {
    const token = await signer.sign(claims);
    // 64 bytes end in a character carrying 2 spare bits; setting one keeps the bytes equal.
    const last = token.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const respelled = token.slice(0, -1) + alphabet[alphabet.indexOf(last) + 1];
    expect(parseCardToken(respelled)).toBeNull();
  });

  it('base64url round-trips any bytes, and dates step by calendar day', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const encoded = toBase64Url(bytes);
        expect(encoded).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(Array.from(fromBase64Url(encoded) ?? (bytes.length === 0 ? [] : [-1]))).toEqual(Array.from(bytes));
      }),
    );
    expect(cardDate(new Date('2026-11-23T23:59:59Z'))).toBe('2026-11-23');
    expect(addCardDays('2026-11-23', 30)).toBe('2026-12-23');
    expect(addCardDays('2028-02-15', 30)).toBe('2028-03-16');
  });

  it('property: any claims verify unchanged, and any single-character change is refused', async () => {
    const textArb = fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' });
    const dateArb = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true }).map(cardDate);
    const claimsArb = fc
      .record(
        { n: textArb, e: textArb, m: textArb, p: textArb, g: textArb, r: textArb, iat: dateArb },
        { requiredKeys: ['n', 'e', 'm', 'iat'] },
      )
      .map((c): CardClaims => ({ ...c, exp: addCardDays(c.iat, 30) }));
    await fc.assert(
      fc.asyncProperty(claimsArb, fc.nat(), async (c, position) => {
        const token = await signer.sign(c);
        const at = new Date(`${c.iat}T12:00:00Z`);
        expect(await verifyCardToken(token, signer.publicKey, at)).toEqual({ ok: true, claims: c });
        const index = CARD_PREFIX_LENGTH + (position % (token.length - CARD_PREFIX_LENGTH));
        if (token[index] === '.') return;
        const result = await verifyCardToken(flip(token, index), signer.publicKey, at);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});

const CARD_PREFIX_LENGTH = 'WHC1.'.length;
