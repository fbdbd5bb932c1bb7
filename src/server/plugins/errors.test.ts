import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { redactQuery } from '../app';
import { loggableError } from './errors';

describe('loggableError', () => {
  it("keeps a failed query's statement and its cause, never its parameters", () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const err = new DrizzleQueryError('select * from sessions where token_hash = $1', ['secret-token-hash'], cause);
    const logged = loggableError(err);
    expect(JSON.stringify(logged)).not.toContain('secret-token-hash');
    expect(logged).toMatchObject({ message: 'Failed query: select * from sessions where token_hash = $1', cause: { message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' } });
    expect(logged?.stack).toMatch(/^Error: Failed query: select[^\n]*\n\s+at /);
  });
});

describe('redactQuery', () => {
  it('keeps the path and the parameter names, drops every value', () => {
    expect(redactQuery('/api/auth/me?token=abc&search=Jane%20Doe&flag')).toBe('/api/auth/me?token=~&search=~&flag=~');
    expect(redactQuery('/api/auth/me')).toBe('/api/auth/me');
  });
});
