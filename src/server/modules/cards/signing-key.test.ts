/* eslint-disable security/detect-non-literal-fs-filename -- paths of the test's own temporary directory */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyCardToken } from '#shared/card-token';
import { loadConfig } from '../../config';
import { CARD_KEY_FILE, createCardSigner, loadOrCreateCardSigningKey, parseCardSigningKey } from './signing-key';

const claims = { n: 'Ana Lima', e: 'Acme', m: 'LQ00001', iat: '2026-11-23', exp: '2026-12-23' };
const now = new Date('2026-11-24T00:00:00Z');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'card-key-'));
  dirs.push(dir);
  return dir;
};

describe('card signing key', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const seed = der.subarray(der.length - 32);
  const expected = createCardSigner(privateKey).publicKey.publicKey;

  it('reads PEM (with real or written line breaks), base64 DER and a base64 seed as the same key', () => {
    for (const value of [pem, pem.replace(/\n/g, '\\n'), der.toString('base64'), der.toString('base64url'), seed.toString('base64'), `  ${pem}  `]) {
      expect(createCardSigner(parseCardSigningKey(value)).publicKey.publicKey).toBe(expected);
    }
  });

  it('refuses anything that is not an Ed25519 private key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const publicPem = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }) as string;
    for (const value of ['', 'hello world', 'AAAA', rsa, publicPem, Buffer.alloc(31).toString('base64')]) {
      expect(() => parseCardSigningKey(value), value.slice(0, 30)).toThrow();
    }
  });

  it('CARD_SIGNING_KEY is checked at boot and named when bad', () => {
    expect(loadConfig({ CARD_SIGNING_KEY: pem }).CARD_SIGNING_KEY).toBe(pem);
    expect(loadConfig({ CARD_SIGNING_KEY: '' }).CARD_SIGNING_KEY).toBeUndefined();
    expect(() => loadConfig({ CARD_SIGNING_KEY: 'not a key' })).toThrow(/CARD_SIGNING_KEY: must be an Ed25519 private key/);
  });

  it('signs tokens the shared WebCrypto code verifies with the served public key', async () => {
    const signer = createCardSigner(privateKey);
    expect(signer.publicKey).toEqual({ alg: 'Ed25519', publicKey: expected, jwk: { kty: 'OKP', crv: 'Ed25519', x: expected } });
    expect(Buffer.from(expected, 'base64url')).toHaveLength(32);
    expect(await verifyCardToken(signer.sign(claims), expected, now)).toEqual({ ok: true, claims });
  });

  it('generates the embedded key once into DATA_DIR, mode 0600, and reads it back after', () => {
    const dataDir = path.join(tempDir(), 'data');
    const first = loadOrCreateCardSigningKey(dataDir);
    expect(first.created).toBe(true);
    const file = path.join(dataDir, CARD_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = loadOrCreateCardSigningKey(dataDir);
    expect(second.created).toBe(false);
    expect(createCardSigner(second.key).publicKey).toEqual(createCardSigner(first.key).publicKey);
  });

  it('stops on a damaged key file rather than replacing it', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, CARD_KEY_FILE), 'garbage');
    expect(() => loadOrCreateCardSigningKey(dataDir)).toThrow();
  });
});
