import { describe, expect, it } from 'vitest';
import { hasUnstorableText, takesInput } from './input-hygiene';

describe('hasUnstorableText', () => {
  it('refuses NUL and unpaired surrogates', () => {
    for (const s of ['\u0000', 'a\u0000b', '\ud800', 'a\udfffb', '\udc00\ud800']) expect(hasUnstorableText(s), JSON.stringify(s)).toBe(true);
  });
  it('accepts any well-formed text, emoji, combining marks and other control characters included', () => {
    for (const s of ['', 'plain', '👩‍👩‍👧‍👦', 'Z\u0351\u0362a', '\t\n\r', '\u202e', 'İstanbul ß ﬃ']) expect(hasUnstorableText(s), JSON.stringify(s)).toBe(false);
  });
});

describe('takesInput', () => {
  it('is true for path parameters, a declared query (either name Fastify takes) and any method with a body', () => {
    expect(takesInput({ url: '/api/family-members/:id', method: 'GET' })).toBe(true);
    expect(takesInput({ url: '/files/*', method: 'GET' })).toBe(true);
    expect(takesInput({ url: '/api/admin/employers', method: 'GET', schema: { querystring: {} } })).toBe(true);
    expect(takesInput({ url: '/api/admin/employers', method: 'GET', schema: { query: {} } as never })).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) expect(takesInput({ url: '/api/x', method }), method).toBe(true);
    expect(takesInput({ url: '/api/x', method: ['GET', 'POST'] })).toBe(true);
  });

  it('is false for a read of a fixed address that declares no query', () => {
    expect(takesInput({ url: '/healthz', method: 'GET' })).toBe(false);
    expect(takesInput({ url: '/api/auth/me', method: ['GET', 'HEAD'], schema: { response: {} } })).toBe(false);
  });
});
