import { describe, expect, it } from 'vitest';
import { EmployerListQuerySchema } from './admin';
import { emptyAsUndefined, emptyOrNullAsUndefined } from './common';
import { AdminPopupListQuerySchema } from './popups';

describe('emptyAsUndefined', () => {
  it('turns only the empty string into undefined', () => {
    expect(emptyAsUndefined('')).toBeUndefined();
    expect(emptyAsUndefined(null)).toBeNull();
    expect(emptyAsUndefined(' ')).toBe(' ');
    expect(emptyAsUndefined(0)).toBe(0);
  });
});

describe('emptyOrNullAsUndefined', () => {
  it('turns the empty string and null into undefined', () => {
    expect(emptyOrNullAsUndefined('')).toBeUndefined();
    expect(emptyOrNullAsUndefined(null)).toBeUndefined();
    expect(emptyOrNullAsUndefined('asc')).toBe('asc');
    expect(emptyOrNullAsUndefined(false)).toBe(false);
  });
});

describe('sort order in the list queries', () => {
  it('defaults per list and refuses other values', () => {
    expect(EmployerListQuerySchema.parse({ sortOrder: '' }).sortOrder).toBe('asc');
    expect(EmployerListQuerySchema.parse({ sortOrder: null }).sortOrder).toBe('asc');
    expect(AdminPopupListQuerySchema.parse({ sortOrder: '' }).sortOrder).toBe('desc');
    expect(AdminPopupListQuerySchema.safeParse({ sortOrder: null }).success).toBe(false);
    expect(EmployerListQuerySchema.safeParse({ sortOrder: 'up' }).success).toBe(false);
    expect(AdminPopupListQuerySchema.safeParse({ sortOrder: 'up' }).success).toBe(false);
  });
});
