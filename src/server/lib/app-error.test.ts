import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';

describe('AppError', () => {
  it('carries its code, status, fields and headers, and no stack frames: it is an answer, not a fault', () => {
    const err = new AppError('rate_limited', 'Too many attempts', undefined, { 'retry-after': '60' });
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'AppError', code: 'rate_limited', status: 429, message: 'Too many attempts', headers: { 'retry-after': '60' } });
    expect(err.stack).not.toMatch(/\n\s+at /);
  });

  it('leaves the stack trace limit as it found it, so other errors keep their frames', () => {
    const before = Error.stackTraceLimit;
    new AppError('not_found', 'Not found');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('a fault').stack).toMatch(/\n\s+at /);
  });
});
