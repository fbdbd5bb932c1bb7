import { type KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type CardClaims, encodeCardClaims, joinCardToken } from '#shared/card-token';
import type { CardKeyResponse } from '#shared/schemas/cards';

/** The file the embedded default keeps its generated key in, inside DATA_DIR. */
export const CARD_KEY_FILE = 'card-signing-key.pem';

/** DER prefix of a PKCS#8 Ed25519 private key (RFC 8410): the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * CARD_SIGNING_KEY as configured: a PKCS#8 PEM (line breaks may be written `\n`), or base64
 * (or base64url) of the PKCS#8 DER or of the bare 32-byte seed. Throws unless it is an Ed25519
 * private key.
 */
export function parseCardSigningKey(value: string): KeyObject {
  const text = value.trim();
  let key: KeyObject;
  if (text.startsWith('-----BEGIN')) {
    key = createPrivateKey({ key: text.replace(/\\n/g, '\n'), format: 'pem' });
  } else {
    if (!/^[A-Za-z0-9+/_-]+=*$/.test(text)) throw new Error('not PEM or base64');
    const der = Buffer.from(text, 'base64');
    key = createPrivateKey({ key: der.length === 32 ? Buffer.concat([PKCS8_ED25519_PREFIX, der]) : der, format: 'der', type: 'pkcs8' });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  return key;
}

/**
 * The embedded default's key: read from DATA_DIR, or generated there once (mode 0600). Two
 * processes starting together both try to create it; the loser reads the winner's.
 */
export function loadOrCreateCardSigningKey(dataDir: string): { key: KeyObject; created: boolean } {
  const file = path.join(dataDir, CARD_KEY_FILE);
  // eslint-disable-next-line security/detect-non-literal-fs-filename -- DATA_DIR from configuration, not a request
  mkdirSync(dataDir, { recursive: true });
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  try {
    // eslint-disable-next-line security/detect-non-literal-fs-filename -- DATA_DIR from configuration
    writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
    return { key: parseCardSigningKey(pem), created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // eslint-disable-next-line security/detect-non-literal-fs-filename -- DATA_DIR from configuration
  return { key: parseCardSigningKey(readFileSync(file, 'utf8')), created: false };
}

/** A fresh key that lives as long as the process: tests, and apps built without a configured one. */
export function ephemeralCardSigningKey(): KeyObject {
  return generateKeyPairSync('ed25519').privateKey;
}

export interface CardSigner {
  /** What `/.well-known/wellhaven-card-key` serves. */
  publicKey: CardKeyResponse;
  /** A card token over `claims`, signed now. */
  sign(claims: CardClaims): string;
}

/** Signs card claims with node:crypto; the public half is checked by the shared WebCrypto code. */
export function createCardSigner(privateKey: KeyObject): CardSigner {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const x = String(jwk.x);
  const publicKey: CardKeyResponse = { alg: 'Ed25519', publicKey: x, jwk: { kty: 'OKP', crv: 'Ed25519', x } };
  return {
    publicKey,
    sign(claims) {
      const input = encodeCardClaims(claims);
      return joinCardToken(input, sign(null, Buffer.from(input, 'utf8'), privateKey));
    },
  };
}

/**
 * Said at start when a deployment (DATABASE_URL) signs with a key of its own DATA_DIR: every
 * instance must sign with the same key, or cards signed by one fail with the key another serves.
 */
export function cardKeyWarning(dataDir: string): string {
  return `ID cards are signed with the key in ${path.join(dataDir, CARD_KEY_FILE)}. With several instances, set CARD_SIGNING_KEY on all of them.`;
}
