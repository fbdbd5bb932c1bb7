import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { redactQuery } from '../app';
import { loggableError, registerErrorHandling } from './errors';

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

describe('the error handler', () => {
  /** A route whose query fails as PostgreSQL fails it: the driver's error (with its SQLSTATE) as the cause of drizzle's. */
  async function answerTo(sqlState: string) {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/write', async () => {
      const cause = Object.assign(new Error('database says no'), { code: sqlState });
      throw new DrizzleQueryError('insert into events (type) values ($1)', ['x'], cause);
    });
    const res = await app.inject({ url: '/write' });
    await app.close();
    return res;
  }

  it.each([
    ['40P01', 'a deadlock PostgreSQL broke'],
    ['40001', 'a serialization failure'],
  ])('answers %s (%s) with a 503 to retry after a second, not a 500: the transaction was rolled back whole', async (sqlState) => {
    const res = await answerTo(sqlState);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ error: 'Service temporarily unavailable. Please try again shortly.', code: 'unavailable' });
  });

  it('still answers any other database error as the 500 it is', async () => {
    const res = await answerTo('42P01');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal' });
  });
});
