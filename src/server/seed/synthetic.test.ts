import { describe, expect, it } from 'vitest';
import { pgArray } from '#db/client';
import { createRandom, employerNames, employerSizes, seededLhmpId } from './synthetic';

describe('employerSizes', () => {
  it('spreads a million employees over 1,000 employers like real employer populations', () => {
    const sizes = employerSizes(1000, 1_000_000);
    expect(sizes).toHaveLength(1000);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(sizes[0]).toBeGreaterThan(50_000);
    expect(sizes[0]).toBeLessThan(80_000);
    expect(Math.min(...sizes)).toBeGreaterThan(200);
    for (let i = 1; i < sizes.length; i += 1) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]! + 1);
  });

  it.each([
    [1, 0],
    [1, 7],
    [3, 2],
    [7, 1000],
    [0, 0],
  ])('sums exactly for %i employers and %i employees', (employers, employees) => {
    const sizes = employerSizes(employers, employees);
    expect(sizes).toHaveLength(employers);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(employees);
    expect(sizes.every((s) => s >= 0)).toBe(true);
  });
});

describe('seededLhmpId', () => {
  it('gives unique 7-character IDs that never use the LQ range of real registrations', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 250_000; i += 1) {
      const id = seededLhmpId(i);
      seen.add(id);
      if (i % 997 === 0) {
        expect(id).toMatch(/^[A-Z]{2}\d{5}$/);
        expect(id.startsWith('LQ')).toBe(false);
      }
    }
    expect(seen.size).toBe(250_000);
    expect([seededLhmpId(0), seededLhmpId(99_999), seededLhmpId(100_000), seededLhmpId(500_000)]).toEqual(['LA00000', 'LA99999', 'LB00000', 'LF00000']);
    // 25 letters without Q: the L block runs LA..LZ, skipping LQ, then MA.
    expect(seededLhmpId(15 * 100_000)).toBe('LP00000');
    expect(seededLhmpId(16 * 100_000)).toBe('LR00000');
    expect(seededLhmpId(25 * 100_000)).toBe('MA00000');
  });
});

describe('createRandom', () => {
  it('is reproducible by seed and differs between seeds', () => {
    const draw = (seed: number) => {
      const r = createRandom(seed);
      return [r.next(), r.int(1, 100), r.uuid(), r.pick(['a', 'b', 'c'])];
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(createRandom(1).uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('employerNames', () => {
  // A stand-in for the SQL function employer_name_key (migration 0006), enough to test the
  // bookkeeping; tests/api/employer-names.test.ts seeds through the real one.
  const fakeKey = (name: string) =>
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
      .replace(/ (co|company|inc|llc|ltd|corp)$/, '');
  const keysOf = async (names: string[]) => names.map(fakeKey);

  it('makes names unique by name key and avoids keys already taken', async () => {
    const first = await employerNames(createRandom(5), 50, new Set(), keysOf);
    const taken = new Set(first.slice(0, 10).map(fakeKey));
    const names = await employerNames(createRandom(5), 2000, taken, keysOf);
    expect(names).toHaveLength(2000);
    expect(new Set(names.map(fakeKey)).size).toBe(2000);
    expect(names.some((n) => taken.has(fakeKey(n)))).toBe(false);
    // Suffix-only twins ("... Inc" and "... LLC") never both appear.
    const twins = names.filter((n) => / (Inc|LLC|Co|Corp|Ltd)$/.test(n)).map(fakeKey);
    expect(new Set(twins).size).toBe(twins.length);
  });

  it('is reproducible by seed', async () => {
    expect(await employerNames(createRandom(9), 30, new Set(), keysOf)).toEqual(await employerNames(createRandom(9), 30, new Set(), keysOf));
  });
});

describe('pgArray', () => {
  it('quotes every element and escapes quotes and backslashes; null stays NULL', () => {
    expect(pgArray(["O'Brien", 'say "hi"', 'back\\slash', null, 3, 'a,b{c}'])).toBe(
      '{"O\'Brien","say \\"hi\\"","back\\\\slash",NULL,"3","a,b{c}"}',
    );
    expect(pgArray([])).toBe('{}');
  });
});
