/**
 * The member's language on the server: saved on the account (PATCH /api/me/preferences), given
 * back at sign-in and by /api/auth/me, and the language of every error answer, chosen from the
 * caller's Accept-Language.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import { messages as en } from '../../src/shared/messages/index';
import { messages as es } from '../../src/shared/messages/es/index';
import { latestMail } from './support/outbox';
import { type TestApp, createTestApp, injectAs, newMember, signedInAdmin, signedInMember } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const savePreferences = (token: string | undefined, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url: '/api/me/preferences', payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('PATCH /api/me/preferences', () => {
  it('refuses an anonymous caller', async () => {
    const res = await savePreferences(undefined, { language: 'es' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('saves a member’s language, given back by /api/auth/me and at the next sign-in', async () => {
    const member = await signedInMember(t.app);
    const before = await injectAs(t, member, { method: 'GET', url: '/api/auth/me' });
    expect(before.json()).toMatchObject({ user: { language: null } });

    const res = await savePreferences(member.token, { language: 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ language: 'es' });

    const me = await injectAs(t, member, { method: 'GET', url: '/api/auth/me' });
    expect(me.json()).toMatchObject({ user: { language: 'es' } });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: member.email, password: member.password } });
    expect(signIn.json()).toMatchObject({ user: { language: 'es' } });
    // The audit trail has the change, with who made it.
    const audit = await t.database.db.select().from(events).where(and(eq(events.type, 'user.preferences_changed'), eq(events.actorUserId, member.id)));
    expect(audit.map((e) => e.payloadJson)).toEqual([{ language: 'es' }]);
  });

  it('saves an admin’s language too', async () => {
    const admin = await signedInAdmin(t);
    const res = await savePreferences(admin.token, { language: 'en' });
    expect(res.statusCode).toBe(200);
    expect((await injectAs(t, admin, { method: 'GET', url: '/api/auth/me' })).json()).toMatchObject({ user: { language: 'en' } });
  });

  it.each([{ language: 'fr' }, { language: '' }, {}, { language: 'es', role: 'admin' }])('refuses %j and changes nothing', async (payload) => {
    const member = await signedInMember(t.app);
    const res = await savePreferences(member.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation' });
    expect((await injectAs(t, member, { method: 'GET', url: '/api/auth/me' })).json()).toMatchObject({ user: { language: null, role: 'member' } });
  });
});

describe('error answers in the caller’s language', () => {
  const signInWithoutPassword = (acceptLanguage?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'someone@example.test', password: '' },
      headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
    });

  it.each(['es', 'es-MX,es;q=0.9', 'fr-FR, es;q=0.5, en;q=0.1'])('answers in Spanish to Accept-Language %s', async (header) => {
    const res = await signInWithoutPassword(header);
    expect(res.statusCode).toBe(400);
    expect(es.auth.validation.passwordRequired).not.toBe(en.auth.validation.passwordRequired);
    expect(res.json()).toEqual({ error: es.auth.validation.passwordRequired, code: 'validation', fields: { password: es.auth.validation.passwordRequired } });
  });

  it.each([undefined, 'en-US', 'en;q=0.9, es;q=0.8', 'de'])('answers in English to Accept-Language %s', async (header) => {
    const res = await signInWithoutPassword(header);
    expect(res.json()).toMatchObject({ error: en.auth.validation.passwordRequired, fields: { password: en.auth.validation.passwordRequired } });
  });

  it('translates the server’s own refusals too (a body that is not JSON)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: '{"email":',
      headers: { 'content-type': 'application/json', 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(400);
    expect(es.server.malformedBody).not.toBe(en.server.malformedBody);
    expect(res.json()).toEqual({ error: es.server.malformedBody, code: 'bad_request' });
  });

  it('translates a refusal the server made, not only a schema message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { 'accept-language': 'es' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: es.auth.server.unauthenticated, code: 'unauthenticated' });
  });
});

describe('mail in the recipient’s language', () => {
  it('writes the verification mail in the language of the registration request', async () => {
    const data = newMember();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: data, headers: { 'accept-language': 'es-US,es;q=0.9' } });
    expect(res.statusCode).toBe(201);
    const mail = await latestMail(t, data.email, 'verify_email');
    expect(mail.subject).toBe(es.mail.templates.verify_email.subject);
    expect(mail.html).toContain('<html lang="es"');
    expect(mail.text).toContain(es.mail.templates.verify_email.action);
  });

  it('uses the account’s saved language over the request’s', async () => {
    const member = await signedInMember(t.app);
    expect((await savePreferences(member.token, { language: 'es' })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: member.email }, headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    const mail = await latestMail(t, member.email, 'reset_password');
    expect(mail.subject).toBe(es.mail.templates.reset_password.subject);
  });

  it('stays in English for an account and a request without Spanish', async () => {
    const member = await signedInMember(t.app);
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: member.email } });
    expect((await latestMail(t, member.email, 'reset_password')).subject).toBe(en.mail.templates.reset_password.subject);
  });
});
