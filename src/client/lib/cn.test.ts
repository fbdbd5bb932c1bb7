import { createTailwindMerge, getDefaultConfig, twMerge, validators } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { cn } from './cn';

/**
 * `cn` merges with tailwind-merge's own engine but only the class groups this app's sources
 * use (tailwind-merge-config.ts, generated here from tailwind-merge's default configuration):
 * the full configuration is about 7 KiB of every page's first download. These tests hold it to
 * the full twMerge for every pair of classes the sources contain, and regenerate the file:
 * after using a new kind of utility, run `npx vitest run --project unit src/client/lib/cn.test.ts -u`.
 */

const GENERATED = 'tailwind-merge-config.ts';
/** The client's sources (Vite reads them for the test), but tests and the generated file. */
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', `!./tailwind-merge-config.ts`], { query: '?raw', import: 'default', eager: true });

/** Every class-like token in the client's sources, found as Tailwind finds classes: whole words in strings. */
function sourceTokens(): string[] {
  const tokens = new Set<string>();
  for (const source of Object.values(sources)) {
    for (const [, , text] of source.matchAll(/(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g)) {
      for (const token of text!.split(/\s+/)) if (token.length > 1 && /^[!\w\-:/.[\]&=>()%*+,#@~"]+$/.test(token)) tokens.add(token);
    }
  }
  return [...tokens].sort();
}

const defaults = getDefaultConfig();
type Group = keyof typeof defaults.classGroups;

/** The class groups of tailwind-merge's default configuration that `tokens` belong to, in its order. */
function groupsUsed(tokens: string[]): Group[] {
  return (Object.keys(defaults.classGroups) as Group[]).filter((group) => {
    const only = createTailwindMerge(() => ({
      ...defaults,
      cacheSize: 0,
      classGroups: { [group]: defaults.classGroups[group] },
      conflictingClassGroups: {},
      conflictingClassGroupModifiers: {},
      postfixLookupClassGroups: [],
    }));
    // A class of the group is kept once when repeated; any other class stays as it is.
    return tokens.some((token) => only(`${token} ${token}`) === token);
  });
}

const validatorNames = new Map<unknown, string>(Object.entries(validators).map(([name, fn]) => [fn, name]));

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A configuration value as TypeScript source: validators by name, theme lookups as fromTheme(). */
function source(value: unknown, indent = ''): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'function') {
    const themeKey = (value as { themeKey?: string }).themeKey;
    if (themeKey) return `fromTheme(${quote(themeKey)})`;
    const name = validatorNames.get(value);
    if (!name) throw new Error(`unknown function in tailwind-merge's configuration: ${String(value)}`);
    return `v.${name}`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => source(v, indent)).join(', ')}]`;
  if (value && typeof value === 'object') {
    const inner = `${indent}  `;
    return `{\n${Object.entries(value)
      .map(([k, v]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k)}: ${source(v, inner)},`)
      .join('\n')}\n${indent}}`;
  }
  throw new Error(`unexpected value in tailwind-merge's configuration: ${String(value)}`);
}

/** The theme scales the chosen groups look up (fromTheme), followed through the theme itself. */
function themeKeysUsed(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'function') {
    const key = (value as { themeKey?: string }).themeKey;
    if (key && !found.has(key)) {
      found.add(key);
      themeKeysUsed((defaults.theme as Record<string, unknown>)[key], found);
    }
  } else if (Array.isArray(value)) for (const v of value) themeKeysUsed(v, found);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) themeKeysUsed(v, found);
  return found;
}

/** A class as the config names it: no variants (`hover:`), no `!`, no minus sign, no `/opacity`. */
function baseClasses(tokens: string[]): Set<string> {
  const bases = new Set<string>();
  for (const token of tokens) {
    // The last segment after variants; a variant can hold ':' inside brackets ([&:hover]).
    let depth = 0;
    let start = 0;
    for (let i = 0; i < token.length; i += 1) {
      if (token[i] === '[') depth += 1;
      else if (token[i] === ']') depth -= 1;
      else if (token[i] === ':' && depth === 0) start = i + 1;
    }
    const base = token.slice(start).replace(/^!|!$/g, '').replace(/^-/, '');
    bases.add(base);
    bases.add(base.replace(/\/[^/]*$/, ''));
  }
  return bases;
}

/**
 * A class group's definition without the literal values no source uses ('table-caption' and
 * the like): validators and theme lookups stay, so any value they accept still merges.
 */
function pruned(definitions: readonly unknown[], prefix: string[], used: Set<string>): unknown[] {
  const kept: unknown[] = [];
  for (const definition of definitions) {
    if (typeof definition === 'string') {
      if (used.has([...prefix, definition].filter(Boolean).join('-'))) kept.push(definition);
    } else if (typeof definition === 'function') {
      kept.push(definition);
    } else if (definition && typeof definition === 'object') {
      const object = Object.fromEntries(
        Object.entries(definition)
          .map(([key, values]) => [key, pruned(values as unknown[], [...prefix, key], used)] as const)
          .filter(([, values]) => values.length > 0),
      );
      if (Object.keys(object).length > 0) kept.push(object);
    }
  }
  return kept;
}

function generatedConfig(groups: Group[], bases: Set<string>): string {
  const used = new Set<string>(groups);
  const pick = <T,>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).filter(([k]) => used.has(k)));
  const conflicts = (record: Record<string, readonly string[] | undefined>) =>
    Object.fromEntries(
      Object.entries(pick(record))
        .map(([k, v]) => [k, (v ?? []).filter((g) => used.has(g))] as const)
        .filter(([, v]) => v.length > 0),
    );
  const classGroups = Object.fromEntries(
    Object.entries(pick(defaults.classGroups as Record<string, readonly unknown[]>)).map(([group, definitions]) => [group, pruned(definitions, [], bases)]),
  );
  const theme = Object.fromEntries([...themeKeysUsed(classGroups)].sort().map((k) => [k, (defaults.theme as Record<string, unknown>)[k]]));
  const config = {
    cacheSize: defaults.cacheSize,
    theme,
    classGroups,
    conflictingClassGroups: conflicts(defaults.conflictingClassGroups),
    conflictingClassGroupModifiers: conflicts(defaults.conflictingClassGroupModifiers),
    postfixLookupClassGroups: defaults.postfixLookupClassGroups.filter((g) => used.has(g)),
    orderSensitiveModifiers: defaults.orderSensitiveModifiers,
  };
  const fromThemeUsed = Object.keys(theme).length > 0;
  return `// Generated by cn.test.ts from tailwind-merge's default configuration: only the class groups
// the client's sources use (${groups.length} of ${Object.keys(defaults.classGroups).length}), and of their literal values only those used.
// Do not edit: after using a new kind of utility, run
// \`npx vitest run --project unit src/client/lib/cn.test.ts -u\`.
import { type Config, ${fromThemeUsed ? 'fromTheme, ' : ''}validators as v } from 'tailwind-merge';

export const tailwindMergeConfig = (): Config<string, string> => (${source(config)});
`;
}

describe('cn', () => {
  const tokens = sourceTokens();
  // The classes the full configuration knows: repeated, they are kept once.
  const classes = tokens.filter((t) => twMerge(`${t} ${t}`) === t);

  it('keeps the generated configuration in step with the sources and tailwind-merge', async () => {
    const hint = `${GENERATED} is out of date: run npx vitest run --project unit src/client/lib/cn.test.ts -u`;
    await expect(generatedConfig(groupsUsed(classes), baseClasses(classes)), hint).toMatchFileSnapshot(`./${GENERATED}`);
  }, 120_000);

  it('merges every pair of the sources classes as the full twMerge does', () => {
    expect(classes.length).toBeGreaterThan(300);
    const differences: string[] = [];
    for (const a of classes) {
      for (const b of classes) {
        const expected = twMerge(`${a} ${b}`);
        if (cn(a, b) !== expected) differences.push(`cn("${a}", "${b}") = "${cn(a, b)}", twMerge: "${expected}"`);
      }
    }
    expect(differences.slice(0, 20)).toEqual([]);
  }, 120_000);

  it('resolves conflicts, keeps classes it does not know, and joins conditionals (clsx)', () => {
    expect(cn('px-4 py-2 text-sm', 'px-6', false, undefined, { 'font-bold': true, hidden: false })).toBe('py-2 text-sm px-6 font-bold');
    expect(cn('bg-brand hover:bg-brand-strong', 'bg-surface')).toBe('hover:bg-brand-strong bg-surface');
    expect(cn('data-[state=checked]:bg-brand', 'data-[state=checked]:bg-muted')).toBe('data-[state=checked]:bg-muted');
    expect(cn('my-own-class w-full', 'another w-1/2')).toBe('my-own-class another w-1/2');
  });
});
