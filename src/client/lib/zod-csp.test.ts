import { describe, expect, it } from 'vitest';
import './zod-csp';
import { z } from 'zod';

describe('zod under the CSP', () => {
  it('zod adopts the jitless configuration set before it loads', () => {
    expect(z.config().jitless).toBe(true);
  });

  it('object schemas still parse and report issues without JIT', () => {
    const schema = z.object({ email: z.email(), age: z.number().int() });
    expect(schema.parse({ email: 'a@b.test', age: 3 })).toEqual({ email: 'a@b.test', age: 3 });
    expect(schema.safeParse({ email: 'nope', age: 1.5 }).error?.issues.map((i) => i.path[0])).toEqual(['email', 'age']);
  });
});
