/**
 * The signed payload an ID card's QR code holds: `WHC1.<claims>.<signature>`, both parts
 * base64url, the signature Ed25519 over the UTF-8 bytes of `WHC1.<claims>`. The server signs
 * (src/server/modules/cards); anyone holding the public key (served at
 * `/.well-known/wellhaven-card-key`) verifies, the browser included, offline, with WebCrypto.
 *
 * Only `globalThis.crypto.subtle` and `atob`/`btoa` are used, so this one file verifies in
 * Node 24 and in the browser alike.
 */
import { z } from 'zod';
import { isRealIsoDate } from './dates';

export const CARD_TOKEN_PREFIX = 'WHC1';
/** How long a card's signature is valid. */
export const CARD_TOKEN_TTL_DAYS = 30;
/** Longest token accepted: a real one is about 300 characters; anything this long is not ours. */
export const CARD_TOKEN_MAX_LENGTH = 4000;

/** Longest text in a claim; the issuer shortens anything longer (no real name or plan comes near). */
export const CARD_CLAIM_MAX_LENGTH = 300;

const isoDate = z.string().refine(isRealIsoDate);
const text = z.string().min(1).max(CARD_CLAIM_MAX_LENGTH);

/** What the card says, short keys to keep the QR code small. */
export const CardClaimsSchema = z
  .object({
    /** Card holder's name. */
    n: text,
    /** Employer. */
    e: text,
    /** Subscriber's LHMP ID. */
    m: text,
    /** Plan name, when the employer has one. */
    p: text.optional(),
    /** Group number, when the employer has one. */
    g: text.optional(),
    /** Relationship to the subscriber, dependant cards only. */
    r: text.optional(),
    /** Issued and expires, ISO dates (YYYY-MM-DD, UTC). */
    iat: isoDate,
    exp: isoDate,
  })
  .strict()
  .refine((c) => c.exp >= c.iat);
export type CardClaims = z.infer<typeof CardClaimsSchema>;

export type CardTokenFailure = 'malformed' | 'signature' | 'expired';
export type CardTokenVerification = { ok: true; claims: CardClaims } | { ok: false; reason: CardTokenFailure };

/** A token split into its parts; the signature is not checked (see `verifyCardToken`). */
export type ParsedCardToken = {
  claims: CardClaims;
  /** `WHC1.<claims>`: the bytes the signature covers, as text. */
  signingInput: string;
  /** The 64-byte Ed25519 signature. */
  signature: Uint8Array<ArrayBuffer>;
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url text (no padding), or null when it is not canonical base64url. */
export function fromBase64Url(value: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(value) || value.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  // Only one spelling per byte string: stray low bits in the last character would let a
  // token be re-encoded into a different-looking but equally valid one.
  if (toBase64Url(bytes) !== value) return null;
  return bytes;
}

/**
 * The part of a token the signature covers: `WHC1.<base64url(JSON of the claims)>`. The
 * server signs these bytes (UTF-8) and appends `.<base64url(signature)>`.
 */
export function encodeCardClaims(claims: CardClaims): string {
  const json = JSON.stringify(CardClaimsSchema.parse(claims));
  return `${CARD_TOKEN_PREFIX}.${toBase64Url(new TextEncoder().encode(json))}`;
}

/** Joins a signing input and its signature into the token a QR code holds. */
export function joinCardToken(signingInput: string, signature: Uint8Array): string {
  return `${signingInput}.${toBase64Url(signature)}`;
}

/**
 * Reads a token without checking its signature (to show what a card claims next to
 * "Not valid", for instance). Null when it is not a well-formed card token. Surrounding
 * white space (a pasted payload) is ignored.
 */
export function parseCardToken(token: string): ParsedCardToken | null {
  if (typeof token !== 'string') return null;
  const trimmed = token.trim();
  if (trimmed.length === 0 || trimmed.length > CARD_TOKEN_MAX_LENGTH) return null;
  const parts = trimmed.split('.');
  if (parts.length !== 3 || parts[0] !== CARD_TOKEN_PREFIX) return null;
  const [, claimsPart = '', signaturePart = ''] = parts;
  const claimsBytes = fromBase64Url(claimsPart);
  const signature = fromBase64Url(signaturePart);
  if (!claimsBytes || !signature || signature.length !== 64) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(claimsBytes));
  } catch {
    return null;
  }
  const claims = CardClaimsSchema.safeParse(json);
  if (!claims.success) return null;
  return { claims: claims.data, signingInput: `${CARD_TOKEN_PREFIX}.${claimsPart}`, signature };
}

const importedKeys = new Map<string, Promise<CryptoKey | null>>();

function importPublicKey(publicKey: string): Promise<CryptoKey | null> {
  let key = importedKeys.get(publicKey);
  if (!key) {
    const raw = fromBase64Url(publicKey);
    key =
      raw && raw.length === 32
        ? globalThis.crypto.subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']).catch(() => null)
        : Promise.resolve(null);
    // A handful of keys at most (the served one, a rotation); never grows with input.
    if (importedKeys.size > 16) importedKeys.clear();
    importedKeys.set(publicKey, key);
  }
  return key;
}

/** The UTC calendar date of `now`, YYYY-MM-DD: the date claims are written and compared in. */
export function cardDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** `date` (YYYY-MM-DD) plus `days` calendar days. */
export function addCardDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return cardDate(d);
}

/**
 * Checks a card token against the issuer's public key (base64url of the raw 32-byte Ed25519
 * key) at `now`. A card is valid through its `exp` date (UTC). The signature is checked before
 * the dates, so `expired` is only ever said of a card the issuer really signed.
 */
export async function verifyCardToken(token: string, publicKey: string, now: Date): Promise<CardTokenVerification> {
  const parsed = parseCardToken(token);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const key = await importPublicKey(publicKey);
  if (!key) return { ok: false, reason: 'signature' };
  const valid = await globalThis.crypto.subtle
    .verify({ name: 'Ed25519' }, key, parsed.signature, new TextEncoder().encode(parsed.signingInput))
    .catch(() => false);
  if (!valid) return { ok: false, reason: 'signature' };
  if (cardDate(now) > parsed.claims.exp) return { ok: false, reason: 'expired' };
  return { ok: true, claims: parsed.claims };
}
