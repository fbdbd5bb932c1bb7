import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameMatchKey } from './name-match-key';

describe('nameMatchKey', () => {
  it.each([
    ['José', 'jose'],
    ['  José  ', 'jose'],
    ['JOSÉ', 'jose'],
    ['Jose\u0301', 'jose'],
    ['Zoë', 'zoe'],
    ['Łukasz', 'łukasz'],
    ['Ærø', 'ærø'],
    ['Nguyễn', 'nguyen'],
    ['Mary  Ann', 'mary ann'],
    ['Mary\tAnn', 'mary ann'],
    ['Mary\u00a0Ann', 'mary ann'],
    ['O’Brien', "o'brien"],
    ['O‘Brien', "o'brien"],
    ["O'Brien", "o'brien"],
    ['Smith-Jones', 'smith-jones'],
    ['İlker', 'ilker'],
  ])('%j -> %j', (input, key) => {
    expect(nameMatchKey(input)).toBe(key);
  });

  it('keeps names apart that differ in letters', () => {
    expect(nameMatchKey('Ann')).not.toBe(nameMatchKey('Anne'));
    expect(nameMatchKey('Mary Ann')).not.toBe(nameMatchKey('Maryann'));
    expect(nameMatchKey('Smith-Jones')).not.toBe(nameMatchKey('Smith Jones'));
  });

  it('is idempotent and ignores case and surrounding space for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const key = nameMatchKey(s);
        expect(nameMatchKey(key)).toBe(key);
        expect(nameMatchKey(`  ${s.toUpperCase()} `)).toBe(nameMatchKey(s.toUpperCase()));
        expect(key).toBe(key.trim());
        expect(key).not.toMatch(/\s{2}/);
      }),
    );
  });
});
