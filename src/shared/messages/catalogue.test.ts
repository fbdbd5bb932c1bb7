import { describe, expect, it } from 'vitest';
import { translationsBySource } from '../i18n/by-source';
import { messages as es } from './es/index';
import { messages as en } from './index';

type Leaf = { path: string; kind: 'string' | 'function'; value: unknown };

function leaves(node: unknown, path = ''): Leaf[] {
  if (typeof node === 'string') return [{ path, kind: 'string', value: node }];
  if (typeof node === 'function') return [{ path, kind: 'function', value: node }];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => leaves(value, path ? `${path}.${key}` : key));
}

/** Text that is the same in both languages: names, codes, words Spanish shares, and none at all. */
const SAME_IN_BOTH = /^(|Vital Scan|SOAR|LQ12345|LHMP ID|Rx BIN|Rx PCN|Error|Total|Plan|English|Español)$/;
/** Read by developers and operators, not members: English only. */
const NOT_FOR_MEMBERS = /^(common\.useAuthOutside|mail\.console\..*)$/;

describe('the Spanish catalogue', () => {
  const english = leaves(en);
  const spanish = new Map(leaves(es).map((leaf) => [leaf.path, leaf]));

  it('has every key of the English one, of the same kind, and no other', () => {
    expect([...spanish.keys()].sort()).toEqual(english.map((leaf) => leaf.path).sort());
    for (const leaf of english) expect(spanish.get(leaf.path)?.kind, leaf.path).toBe(leaf.kind);
  });

  it('translates every sentence (brand names and codes aside)', () => {
    const untranslated = english.filter((leaf) => leaf.kind === 'string' && leaf.value === spanish.get(leaf.path)?.value && !SAME_IN_BOTH.test(leaf.value as string) && !NOT_FOR_MEMBERS.test(leaf.path));
    expect(untranslated.map((leaf) => leaf.path)).toEqual([]);
  });

  it('says one English sentence one way, wherever it appears (the glossary, and the by-source map)', () => {
    const first = translationsBySource(en, es);
    const differing = english.filter((leaf) => leaf.kind === 'string' && first.get(leaf.value as string) !== spanish.get(leaf.path)?.value);
    expect(differing.map((leaf) => `${leaf.path}: ${String(leaf.value)}`)).toEqual([]);
  });

  it('writes counts with the plural forms, not "(s)"', () => {
    const sample = (fn: unknown) => {
      try {
        return String((fn as (...args: unknown[]) => unknown)(2, 2, 2));
      } catch {
        return '';
      }
    };
    const bracketed = [...english, ...spanish.values()].filter((leaf) => /\(s\)|\(es\)/.test(leaf.kind === 'function' ? sample(leaf.value) : String(leaf.value)));
    expect(bracketed.map((leaf) => leaf.path)).toEqual([]);
  });

  it('says a count of one in the singular ("1 Employee", not "1 Employees")', () => {
    const one = (fn: unknown) => {
      try {
        return String((fn as (...args: unknown[]) => unknown)(1, 1, 1));
      } catch {
        return '';
      }
    };
    // Not counts: a column's name, and the verbs after a line number or a name ("line 1 is").
    const notCounts = new Set(['enrolment.server.csvHeaderDuplicate']);
    const plural = english.filter(
      (leaf) => leaf.kind === 'function' && !notCounts.has(leaf.path) && /\b1 (?!is\b|as\b)[A-Za-z]+s\b/.test(one(leaf.value)),
    );
    expect(plural.map((leaf) => `${leaf.path}: ${one(leaf.value)}`)).toEqual([]);
  });
});
