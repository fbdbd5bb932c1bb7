import { describe, expect, it } from 'vitest';
import { hasUnstorableText } from './input-hygiene';

describe('hasUnstorableText', () => {
  it('refuses NUL and unpaired surrogates', () => {
    for (const s of ['\u0000', 'a\u0000b', '\ud800', 'a\udfffb', '\udc00\ud800']) expect(hasUnstorableText(s), JSON.stringify(s)).toBe(true);
  });
  it('accepts any well-formed text, emoji, combining marks and other control characters included', () => {
    for (const s of ['', 'plain', '👩‍👩‍👧‍👦', 'Z\u0351\u0362a', '\t\n\r', '\u202e', 'İstanbul ß ﬃ']) expect(hasUnstorableText(s), JSON.stringify(s)).toBe(false);
  });
});
