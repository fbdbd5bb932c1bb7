import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeTokens, outbox, users } from '../../src/db/schema';
import { sha256Hex } from '../../src/server/lib/crypto';
import { loadConfig } from '../../src/server/config';
import { mailerFromConfig } from '../../src/server/modules/mail/mailer';
import { DEMO_ADMIN_EMAIL, DEMO_MEMBER_EMAIL, DEMO_PASSWORD, demoAdminAccessMode, demoSignInLines, seedDemoData } from '../../src/server/seed/demo-data';
import { latestMail } from './support/outbox';
import { type TestApp, createTestApp } from './support/test-app';

/**
 * Demo data and what start-up prints about it: no password reaches a log. The admin's
 * one-time password is returned only for a terminal; otherwise a set-password link goes
 * through the outbox when SMTP_URL can deliver it, and neither when it cannot.
 */
let t: TestApp;
afterAll(async () => {
  await t?.close();
});

const mailerFor = (app: TestApp) => mailerFromConfig(loadConfig({ PUBLIC_URL: 'http://localhost:3000' }), app.clock);

describe('demoAdminAccessMode', () => {
  it('a password only for a terminal; a link only when SMTP_URL can deliver it; otherwise neither', () => {
    expect(demoAdminAccessMode({ terminal: true, smtp: false })).toBe('password');
    expect(demoAdminAccessMode({ terminal: true, smtp: true })).toBe('password');
    expect(demoAdminAccessMode({ terminal: false, smtp: true })).toBe('link');
    expect(demoAdminAccessMode({ terminal: false, smtp: false })).toBe('withheld');
  });
});

describe('seedDemoData', () => {
  it('for a terminal: returns the admin one-time password, which signs in, and queues no mail', async () => {
    const terminal = await createTestApp();
    try {
      const seeded = await seedDemoData(terminal.database.db, { now: terminal.clock() });
      expect(seeded).toEqual({ adminPassword: expect.stringMatching(/^Admin-[A-Za-z0-9_-]{16}$/) });
      const password = (seeded as { adminPassword: string }).adminPassword;
      const res = await terminal.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: DEMO_ADMIN_EMAIL, password } });
      expect(res.statusCode).toBe(200);
      expect(await terminal.database.db.select().from(outbox)).toHaveLength(0);
      expect(await seedDemoData(terminal.database.db)).toBeNull();
    } finally {
      await terminal.close();
    }
  });
});

describe('seedDemoData with neither a terminal nor SMTP_URL', () => {
  it('returns no password and queues no link that would reach no one', async () => {
    const headless = await createTestApp();
    try {
      const seeded = await seedDemoData(headless.database.db, { now: headless.clock(), withholdAdminPassword: true });
      expect(seeded).toEqual({ accessWithheldFor: DEMO_ADMIN_EMAIL });
      expect(await headless.database.db.select().from(outbox)).toHaveLength(0);
      expect(await headless.database.db.select().from(oneTimeTokens)).toHaveLength(0);
      // The admin exists, with a password nobody knows; ADMIN_EMAIL and ADMIN_PASSWORD set one.
      const [admin] = await headless.database.db.select().from(users).where(eq(users.email, DEMO_ADMIN_EMAIL));
      expect(admin!.role).toBe('admin');
    } finally {
      await headless.close();
    }
  });
});

describe('seedDemoData anywhere else (not a terminal, SMTP_URL set)', () => {
  let seeded: Awaited<ReturnType<typeof seedDemoData>>;
  beforeAll(async () => {
    t = await createTestApp();
    seeded = await seedDemoData(t.database.db, { now: t.clock(), mailer: mailerFor(t) });
  });

  it('returns no password and queues a single-use 24 h set-password link, stored hashed', async () => {
    expect(seeded).toEqual({ setPasswordLinkTo: DEMO_ADMIN_EMAIL });
    const mail = await latestMail(t, DEMO_ADMIN_EMAIL, 'set_password');
    expect(mail.path).toMatch(/^\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const [admin] = await t.database.db.select().from(users).where(eq(users.email, DEMO_ADMIN_EMAIL));
    const tokens = await t.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, admin!.id));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ purpose: 'set_password', tokenHash: sha256Hex(mail.token!), usedAt: null });
    expect(tokens[0]!.tokenHash).not.toContain(mail.token!);
    expect(tokens[0]!.expiresAt.getTime() - t.clock().getTime()).toBe(24 * 60 * 60 * 1000);
    expect(admin!.emailVerifiedAt).toEqual(t.clock());
  });

  it('the link sets the admin password once (POST /api/auth/reset-password accepts set_password tokens)', async () => {
    const { token } = await latestMail(t, DEMO_ADMIN_EMAIL, 'set_password');
    const password = 'Orchid lantern ferry 58';
    const set = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
    expect(set.statusCode, set.body).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: DEMO_ADMIN_EMAIL, password } })).statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'Another lantern ferry 59' } });
    expect(again.statusCode).toBe(400);
  });

  it("the demo members' published password still signs in", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: DEMO_MEMBER_EMAIL, password: DEMO_PASSWORD } });
    expect(res.statusCode).toBe(200);
  });
});

describe('demoSignInLines', () => {
  it('shows the admin password only when one was generated for a terminal', () => {
    const lines = demoSignInLines({ seeded: { adminPassword: 'Admin-secretsecretsecret' }, embedded: true, smtp: false }).join('\n');
    expect(lines).toContain('Admin-secretsecretsecret');
    expect(lines).toContain(`${DEMO_MEMBER_EMAIL} / ${DEMO_PASSWORD}`);
  });

  it('with a set-password link: names the address, no password; never claims a link was sent without SMTP_URL', () => {
    const mailed = demoSignInLines({ seeded: { setPasswordLinkTo: DEMO_ADMIN_EMAIL }, embedded: false, smtp: true }).join('\n');
    expect(mailed).toContain(`a set-password link was sent to ${DEMO_ADMIN_EMAIL}`);
    expect(mailed).not.toMatch(/Admin-|SMTP_URL/);
    const unsent = demoSignInLines({ seeded: { setPasswordLinkTo: DEMO_ADMIN_EMAIL }, embedded: true, smtp: false }).join('\n');
    expect(unsent).not.toContain('was sent to');
    expect(unsent).not.toContain('prints the link');
    expect(unsent).toContain('cannot be sent: SMTP_URL is not set');
  });

  it('with neither a terminal nor SMTP_URL: no password, no pretended link, and what the operator can do', () => {
    for (const embedded of [true, false]) {
      const lines = demoSignInLines({ seeded: { accessWithheldFor: DEMO_ADMIN_EMAIL }, embedded, smtp: false }).join('\n');
      expect(lines).toContain(DEMO_ADMIN_EMAIL);
      expect(lines).not.toMatch(/Admin-|link was sent|prints the link/);
      expect(lines).toContain('set ADMIN_EMAIL and ADMIN_PASSWORD and restart');
      expect(lines).toContain('or set SMTP_URL');
    }
  });

  it("prints the members' published password only for the embedded demo", () => {
    for (const seeded of [null, { setPasswordLinkTo: DEMO_ADMIN_EMAIL }]) {
      const deployment = demoSignInLines({ seeded, embedded: false, smtp: true }).join('\n');
      expect(deployment).toContain(DEMO_MEMBER_EMAIL);
      expect(deployment).not.toContain(DEMO_PASSWORD);
    }
  });
});
