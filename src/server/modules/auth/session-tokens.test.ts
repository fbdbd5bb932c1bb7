import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newToken } from '../../lib/crypto';
import { SessionTokens } from './session-tokens';

const tokens = (key = randomBytes(32), unsignedLive = true) => new SessionTokens(key, unsignedLive);

describe('SessionTokens', () => {
  it('mints 64-character base64url tokens, each new, that it recognises', () => {
    const t = tokens();
    const minted = Array.from({ length: 50 }, () => t.mint());
    for (const token of minted) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(t.mayName(token)).toBe(true);
    }
    expect(new Set(minted).size).toBe(minted.length);
  });

  it('refuses a token of the same shape that it did not sign: made up, altered, or signed with another key', () => {
    const t = tokens();
    expect(t.mayName(randomBytes(48).toString('base64url'))).toBe(false);
    const token = t.mint();
    // Each half altered: the random part (the tag no longer matches it) and the tag itself.
    for (const at of [0, 20, 43, 63]) {
      const altered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect(t.mayName(altered), `character ${at}`).toBe(false);
    }
    expect(t.mayName(tokens().mint())).toBe(false);
  });

  it('follows a replaced key: tokens of the old one are refused, the new one signs', () => {
    const t = tokens();
    const before = t.mint();
    t.update(randomBytes(32), true);
    expect(t.mayName(before)).toBe(false);
    expect(t.mayName(t.mint())).toBe(true);
  });

  it('looks up a token of the unsigned format only while a session opened with one can be live', () => {
    const t = tokens(randomBytes(32), true);
    const unsigned = newToken();
    expect(unsigned).toHaveLength(43);
    expect(t.mayName(unsigned)).toBe(true);
    const key = randomBytes(32);
    t.update(key, false);
    expect(t.mayName(unsigned)).toBe(false);
    // An instance of the earlier code issues one again (a rolling deploy, a rollback).
    t.update(key, true);
    expect(t.mayName(unsigned)).toBe(true);
  });

  it('refuses every other length without looking further', () => {
    const t = tokens();
    for (const token of ['', 'abc', t.mint().slice(0, 63), `${t.mint()}A`, newToken().slice(0, 42), randomBytes(64).toString('base64url')]) {
      expect(t.mayName(token), token).toBe(false);
    }
  });
});
