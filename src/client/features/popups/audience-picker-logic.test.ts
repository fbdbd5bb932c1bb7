import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { employerName, moveActive, toggleId } from './audience-picker-logic';

describe('choosing employers', () => {
  it('toggles: adds at the end, removes wherever it is', () => {
    expect(toggleId([], 'a')).toEqual(['a']);
    expect(toggleId(['a', 'b'], 'c')).toEqual(['a', 'b', 'c']);
    expect(toggleId(['a', 'b', 'c'], 'b')).toEqual(['a', 'c']);
  });

  it('toggling twice changes nothing, and never makes a duplicate', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 })), fc.string({ minLength: 1, maxLength: 3 }), (ids, id) => {
        const once = toggleId(ids, id);
        expect(new Set(once).size).toBe(once.length);
        expect(new Set(toggleId(once, id))).toEqual(new Set(ids));
      }),
    );
  });

  it('a chosen employer that is no longer listed is named as such', () => {
    const names = new Map([['a', 'Acme']]);
    expect(employerName(names, 'a', '?')).toBe('Acme');
    expect(employerName(names, 'b', '?')).toBe('?');
  });
});

describe('arrow keys', () => {
  it('Down from none goes to the first, Up from none to the last; both wrap', () => {
    expect(moveActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(0, 3, 'ArrowDown')).toBe(1);
    expect(moveActive(2, 3, 'ArrowDown')).toBe(0);
    expect(moveActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(0, 3, 'ArrowUp')).toBe(2);
    expect(moveActive(2, 3, 'ArrowUp')).toBe(1);
  });

  it('no options: no active one; an out-of-range active comes back into range', () => {
    expect(moveActive(4, 0, 'ArrowDown')).toBe(-1);
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 60 }), fc.integer({ min: 1, max: 50 }), fc.constantFrom('ArrowDown' as const, 'ArrowUp' as const), (active, count, key) => {
        const next = moveActive(active, count, key);
        expect(next).toBeGreaterThanOrEqual(0);
        expect(next).toBeLessThan(count);
      }),
    );
  });
});
