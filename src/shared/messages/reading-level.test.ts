import { describe, expect, it } from 'vitest';
import { messages as es } from './es/index';

/**
 * The Spanish a member reads, scored with the Fernández-Huerta readability formula (Flesch's
 * formula fitted to Spanish), as corrected by Law (2011):
 *   L = 206.84 − 60 × (syllables / words) − 1.02 × (words / sentences)
 * On its scale 70–80 is "bastante fácil", the reading of a 6th grade; 80–90 is 5th grade.
 * A formula is a floor, not a review: docs/spanish-glossary.md says what a person checks.
 */

/** Spanish syllables by vowel nuclei: a diphthong (an unstressed i or u beside another vowel) is one, a hiatus two. */
function syllables(word: string): number {
  let count = 0;
  for (const group of word.toLowerCase().match(/[aeiouáéíóúü]+/g) ?? []) {
    const strong = [...group].filter((c) => 'aeoáéóíú'.includes(c)).length;
    count += Math.max(1, strong);
  }
  // A final y after a vowel ("hoy", "muy") adds no syllable; a word with no vowel letter ("y") is one.
  return Math.max(1, count);
}

function score(texts: string[]): { score: number; words: number } {
  let words = 0;
  let sylls = 0;
  let sentences = 0;
  for (const text of texts) {
    const parts = text.split(/[.!?;:]+(?:\s|$)/).filter((part) => /\p{L}/u.test(part));
    sentences += parts.length;
    for (const word of text.match(/\p{L}+/gu) ?? []) {
      words += 1;
      sylls += syllables(word);
    }
  }
  return { score: 206.84 - 60 * (sylls / words) - 1.02 * (words / sentences), words };
}

type Node = string | ((...args: never[]) => unknown) | { [key: string]: Node };

/** Administrators' text inside the member areas. */
const FOR_ADMINS = /^(auth\.adminAccess|popups\.(admin|validation)|mfa\.admin|mfa\.security\.adminNote)\b/;

/** Every sentence of `node` (under `path`) a member reads; sentences with values are read with sample ones. */
function strings(node: Node, path: string): string[] {
  if (FOR_ADMINS.test(path)) return [];
  if (typeof node === 'string') return [node];
  if (typeof node === 'function') return [];
  return Object.entries(node).flatMap(([key, value]) => strings(value, `${path}.${key}`));
}

/** What members read (the admin area, roster import, server internals and mail markup aside). */
const MEMBER_AREAS = ['common', 'auth', 'members', 'voice', 'help', 'popups', 'account', 'mfa', 'cardUi', 'offline'] as const;

describe('the Spanish members read', () => {
  it('counts syllables as Spanish divides them', () => {
    expect(['casa', 'ciudad', 'país', 'tienda', 'leer', 'guía', 'recetas', 'análisis', 'y'].map(syllables)).toEqual([2, 2, 2, 2, 2, 2, 3, 4, 1]);
  });

  it('reads at a 6th grade level as a whole (Fernández-Huerta 70 or more)', () => {
    const { score: level } = score(MEMBER_AREAS.flatMap((area) => strings(es[area] as Node, area)));
    expect(level, level.toFixed(1)).toBeGreaterThanOrEqual(70);
  });

  // Account and two-step screens cannot drop their words ("contraseña", "dispositivo",
  // "verificación"): no area may fall below 65, the top of the 7th grade band.
  it.each(MEMBER_AREAS)('%s reads at about a 6th grade level (Fernández-Huerta 65 or more)', (area) => {
    const { score: level } = score(strings(es[area] as Node, area));
    expect(level, `${area}: ${level.toFixed(1)}`).toBeGreaterThanOrEqual(65);
  });
});
