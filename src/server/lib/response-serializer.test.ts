import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer';

const Answer = z.object({
  user: z.object({ id: z.uuid(), email: z.string(), language: z.enum(['en', 'es']).nullable() }),
  items: z.array(z.object({ name: z.string(), count: z.number().int() })),
  expiresAt: z.iso.datetime(),
});
const compile = (schema: unknown) => responseSerializerCompiler({ schema, method: 'GET', url: '/api/x', httpStatus: '200' });
const answer = {
  user: { id: '5b0e7f55-2f4c-4b0e-9a55-0d1d2f3e4a5b', email: 'ada@example.com', language: null },
  items: [{ name: 'a', count: 1 }],
  expiresAt: '2026-11-24T12:00:00.000Z',
};

describe('responseSerializerCompiler', () => {
  it('writes what the schema declares, the same JSON as zod encode would, and nothing undeclared', () => {
    const serialize = compile(Answer);
    const leaky = { ...answer, passwordHash: 'x', user: { ...answer.user, role: 'admin', mfaSecret: 's' } };
    const written = serialize(leaky);
    expect(written).toBe(JSON.stringify(z.encode(Answer, answer)));
    expect(written).not.toContain('passwordHash');
    expect(written).not.toContain('mfaSecret');
    // The `{ properties }` form Fastify also passes.
    expect(compile({ properties: Answer })(leaky)).toBe(written);
  });

  it('refuses an answer that does not match, as a response serialization error (a 500)', () => {
    const serialize = compile(Answer);
    for (const wrong of [
      { ...answer, expiresAt: 'tomorrow' },
      { ...answer, user: { ...answer.user, language: 'fr' } },
      { ...answer, items: [{ name: 'a', count: 1.5 }] },
      { user: answer.user, items: [] },
    ]) {
      let thrown: unknown;
      try {
        serialize(wrong);
      } catch (err) {
        thrown = err;
      }
      expect(isResponseSerializationError(thrown), JSON.stringify(wrong)).toBe(true);
    }
  });

  it('refuses a schema that is not zod when the route is compiled', () => {
    expect(() => compile({ type: 'object' })).toThrow(/must be a zod schema/);
  });
});
