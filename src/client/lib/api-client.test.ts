import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '#shared/errors';
import { ApiError, isErrorBody, serverMessageOr, urlFromKey } from './api-client';

describe('urlFromKey', () => {
  it('joins string parts with / and turns objects into the query, skipping null and empty values', () => {
    expect(urlFromKey(['/api/admin/employers'])).toBe('/api/admin/employers');
    expect(urlFromKey(['/api/admin/employers', 'c1', 'employees', { search: 'ann', status: '', page: 2, size: null }])).toBe(
      '/api/admin/employers/c1/employees?search=ann&page=2',
    );
  });
  it('encodes query values', () => {
    expect(urlFromKey(['/api/x', { search: 'a&b c' }])).toBe('/api/x?search=a%26b+c');
  });
});

describe('isErrorBody', () => {
  const agrees = (value: unknown) => expect(isErrorBody(value)).toBe(ErrorBodySchema.safeParse(value).success);

  it('accepts the standard error body, with or without fields', () => {
    expect(isErrorBody({ error: 'Invalid email or password' })).toBe(true);
    expect(isErrorBody({ error: 'Bad input', fields: { email: 'Please enter a valid email address' } })).toBe(true);
    expect(isErrorBody({ error: 'x', fields: {} })).toBe(true);
  });

  it('refuses anything else', () => {
    for (const value of [null, 'error', 42, [], ['x'], {}, { error: 1 }, { message: 'x' }, { error: 'x', fields: null }, { error: 'x', fields: ['a'] }, { error: 'x', fields: { email: 1 } }, { error: 'x', fields: 'email' }]) {
      expect(isErrorBody(value)).toBe(false);
    }
  });

  it('gives the same answer as ErrorBodySchema for any JSON value and near-miss bodies', () => {
    const fieldsArb = fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue());
    const bodyArb = fc.record({ error: fc.oneof(fc.string(), fc.jsonValue()), fields: fieldsArb }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), bodyArb), (value) => {
        agrees(value);
      }),
      { numRuns: 500 },
    );
  });
});

describe('serverMessageOr', () => {
  it("prefers the server's sentence and falls back otherwise", () => {
    expect(serverMessageOr(new ApiError(409, '409: taken', { error: 'Already taken' }), 'Failed')).toBe('Already taken');
    expect(serverMessageOr(new ApiError(500, '500: boom', undefined), 'Failed')).toBe('Failed');
    expect(serverMessageOr(new TypeError('Failed to fetch'), 'Failed')).toBe('Failed');
  });
});
