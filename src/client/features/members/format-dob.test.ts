import { describe, expect, it } from 'vitest';
import { formatDob } from './format-dob';

describe('formatDob', () => {
  it('prints the calendar date without shifting it by time zone', () => {
    expect(formatDob('2015-06-01')).toBe('June 1, 2015');
    expect(formatDob('1900-01-01')).toBe('January 1, 1900');
    expect(formatDob('2024-12-31')).toBe('December 31, 2024');
  });

  it('leaves an unreadable value as it is', () => {
    expect(formatDob('not a date')).toBe('not a date');
  });
});
