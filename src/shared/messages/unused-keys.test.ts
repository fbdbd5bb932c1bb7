import { globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messages } from './index';

/**
 * Every catalogue entry is read somewhere: an entry nobody shows is a sentence to translate for
 * nothing. Code reads an entry by its key (`m.quickAccess`, `t.members.home.title`) or, for a
 * group read by a value (`relationships[r]`, `templates[input.template]`), through its group.
 */
const SOURCES = globSync('src/{client,server,shared}/**/*.{ts,tsx}')
  .filter((file) => !file.includes('/messages/') && !/\.test\.tsx?$/.test(file))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

function leafPaths(node: unknown, path: string[] = []): string[][] {
  if (typeof node === 'string' || typeof node === 'function') return [path];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) => leafPaths(value, [...path, key]));
}

/**
 * Every identifier the code names; those it indexes with a value (`name[...]`); and those it
 * hands on whole as an argument (`shortcutsIn(language, list, t.members.shortcutNames)`).
 */
const identifiers = new Set(SOURCES.match(/[A-Za-z_$][\w$]*/g));
const indexed = new Set([...SOURCES.matchAll(/([A-Za-z_$][\w$]*)(?:\?\.)?\[/g)].map((match) => match[1]));
const passed = new Set([...SOURCES.matchAll(/\.([A-Za-z_$][\w$]*)\s*[),]/g)].map((match) => match[1]));
const readByKey = (key: string) => identifiers.has(key);
const readByValue = (group: string) => indexed.has(group) || passed.has(group);

describe('the catalogue', () => {
  it('has no entry that no code reads', () => {
    const unused = leafPaths(messages).filter((path) => {
      const key = path.at(-1)!;
      if (readByKey(key)) return false;
      // An entry of an array or a group read by a value: used when its group is.
      return !path.slice(0, -1).some((group, i) => readByValue(group) || (/^\d+$/.test(path[i + 1]!) && readByKey(group)));
    });
    expect(unused.map((path) => path.join('.'))).toEqual([]);
  });
});
