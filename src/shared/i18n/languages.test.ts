import { describe, expect, it } from 'vitest';
import { isLanguage, pickLanguage } from './languages';

describe('pickLanguage', () => {
  it.each([
    [['es-MX', 'en-US'], 'es'],
    [['en-GB', 'es'], 'en'],
    [['fr-FR', 'es-US'], 'es'],
    [['ES'], 'es'],
    [['pt_BR'], undefined],
    [[], undefined],
  ] as const)('picks from %j: %s', (preferred, expected) => expect(pickLanguage(preferred)).toBe(expected));
});

describe('isLanguage', () => {
  it('knows only the languages the app speaks', () => {
    expect(['en', 'es', 'fr', '', null].map(isLanguage)).toEqual([true, true, false, false, false]);
  });
});
