import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { messages } from '../../src/shared/messages/index';
import { createTestApp, newMember, type TestApp } from './support/test-app';

const v = messages.auth.validation;
let t: TestApp;
let branded: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  branded = await createTestApp({ env: { BRAND_NAME: 'Copper Kettle' } });
});
afterAll(async () => {
  await t?.close();
  await branded?.close();
});

const register = (app: TestApp, data: ReturnType<typeof newMember>) => app.app.inject({ method: 'POST', url: '/api/auth/register', payload: data });

describe('registration password rules', () => {
  const email = 'jordan.quill@example.test';
  it.each([
    ['Password1!', /^This password is too easy to guess\. .+/],
    ['Wellhaven1', v.passwordHasBrand],
    [email, v.passwordHasEmail],
    ['jordan.quill rocks', v.passwordHasEmail],
    ['Jordan the great 77', v.passwordHasName],
    ['Mighty Quill 2026!', v.passwordHasName],
    ['Zephyrcorp rules 9', v.passwordHasEmployer],
    ['password123', v.passwordCommon],
  ])('refuses %j on the password field, saying why, and stores nothing', async (password, message) => {
    const data = newMember({ email, firstName: 'Jordan', lastName: 'Quill', company: 'Zephyrcorp Logistics', password });
    const res = await register(t, data);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(Object.keys(body.fields)).toEqual(['password']);
    expect(body.fields.password).toMatch(message);
    expect(body.error).toBe(body.fields.password);
    expect(await t.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('accepts a strong password with the same details', async () => {
    const data = newMember({ firstName: 'Jordan', lastName: 'Quill', company: 'Zephyrcorp Logistics', password: 'violet tugboat margin' });
    expect((await register(t, data)).statusCode).toBe(201);
  });

  it('uses the configured brand name, not a fixed one', async () => {
    expect((await register(branded, newMember({ password: 'copper-kettle 2026 apt' }))).json().fields.password).toBe(v.passwordHasBrand);
    expect((await register(branded, newMember({ password: 'Wellhaven garden arch 9' }))).statusCode).toBe(201);
  });
});
