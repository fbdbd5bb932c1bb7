import { describe, expect, it } from 'vitest';
import { isRealIsoDate, localIsoDate } from './dates';

describe('isRealIsoDate', () => {
  it.each(['2015-06-01', '2024-02-29', '1900-01-01', '2000-02-29'])('accepts %s', (d) => expect(isRealIsoDate(d)).toBe(true));
  it.each(['2023-02-29', '1900-02-29', '2015-13-01', '2015-04-31', '2015-6-1', '15-06-01', '2015/06/01', '', 'x'])('refuses %s', (d) =>
    expect(isRealIsoDate(d)).toBe(false),
  );
});

describe('localIsoDate', () => {
  it('formats the local date with zero padding', () => {
    expect(localIsoDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
