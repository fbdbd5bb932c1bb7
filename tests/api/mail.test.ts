/**
 * Mail through the outbox, against a real SMTP server in this process: delivery with the
 * rendered subject, text and HTML; nothing sent for a rolled-back transaction; an SMTP server
 * that refuses, then is down, then recovers (nothing lost, backoff recorded, each message
 * delivered once); several workers on one database; the kick after a request that queued
 * mail; console mode without SMTP_URL (the link on stdout only for a terminal, never in the
 * log, never sent later). Then leases with slow SMTP servers and lost leases, a database
 * error after a send, lease times from the database, and stop().
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../src/db/client';
import { outbox } from '../../src/db/schema';
import { loadConfig } from '../../src/server/config';
import { type MailRequest, mailerFromConfig } from '../../src/server/modules/mail/mailer';
import { BACKOFF_BASE_MS, LEASE_MS, MAX_ATTEMPTS, createOutboxWorker } from '../../src/server/modules/mail/outbox-worker';
import { NEVER, claimNext, fixedTime } from '../../src/server/modules/mail/outbox.repository';
import { mailStartupWarning } from '../../src/server/modules/mail/register';
import { latestMail } from './support/outbox';
import { type SmtpCatcher, linkIn, startSmtpCatcher } from './support/smtp';
import { type TestApp, createTestApp } from './support/test-app';

const PUBLIC_URL = 'https://wellhaven.example';
let seq = 0;
const address = (tag: string) => `${tag}.${process.pid}.${++seq}@example.test`;

let smtp: SmtpCatcher;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await createTestApp({
    env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'Wellhaven <no-reply@wellhaven.example>', BRAND_PRIMARY_COLOR: '#1d4ed8' },
    beforeReady: (app) => {
      // A route that queues mail in its transaction, as the account flows do.
      app.post('/test/queue-mail', { config: { access: 'public' } }, async (request) => {
        const { to } = request.body as { to: string };
        await app.mailer.queue(t.database.db, { to, template: 'password_changed', firstName: 'Kick', path: '/forgot-password' });
        return { ok: true };
      });
    },
  });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function queue(mail: MailRequest) {
  await t.database.db.transaction(async (tx) => {
    await t.app.mailer.queue(tx, mail);
  });
}

async function rowsTo(...to: string[]) {
  return t.database.db.select().from(outbox).where(inArray(outbox.toAddress, to)).orderBy(outbox.id);
}

describe('outbox delivery over SMTP', () => {
  it('sends a message queued in a committed transaction: subject, text, HTML and link; then marks it sent and drops the bodies', async () => {
    const to = address('verify');
    const token = `tok_${seq}_${'x'.repeat(40)}`;
    await queue({ to, template: 'verify_email', firstName: 'Zoë <b>', path: `/verify-email?token=${token}` });

    // Queued, not yet sent: the worker only runs when told to in tests.
    const queued = await latestMail(t, to);
    expect(queued.sentAt).toBeNull();
    expect(queued.link).toBe(`${PUBLIC_URL}/verify-email?token=${token}`);
    expect(queued.token).toBe(token);
    expect(smtp.to(to)).toHaveLength(0);

    const result = await t.app.outbox.flush();
    expect(result.sent).toBeGreaterThanOrEqual(1);
    const mail = await smtp.waitFor(to);
    expect(mail.subject).toBe('Verify your email address');
    expect(mail.fromHeader).toBe('Wellhaven <no-reply@wellhaven.example>');
    expect(mail.headers['auto-submitted']).toBe('auto-generated');
    expect(mail.text).toContain('Hello Zoë <b>,');
    expect(linkIn(mail.text)).toBe(`${PUBLIC_URL}/verify-email?token=${token}`);
    expect(mail.html).toContain('<html lang="en"');
    expect(mail.html).toContain('Hello Zoë &lt;b&gt;,');
    expect(mail.html).toContain(`href="${PUBLIC_URL}/verify-email?token=${token}"`);
    expect(mail.html).toContain('>Verify email address</a>');
    expect(mail.html).toContain('#1d4ed8');

    const [row] = await rowsTo(to);
    expect(row!.sentAt).toEqual(t.clock());
    expect(row!.attempts).toBe(1);
    expect(row!.textBody).toBeNull();
    expect(row!.htmlBody).toBeNull();
    expect(row!.subject).toBe('Verify your email address');

    // Sent once: more passes find nothing.
    expect((await t.app.outbox.flush()).claimed).toBe(0);
    expect(smtp.to(to)).toHaveLength(1);
    // The log says a message went out, never to whom with which link.
    const log = t.logs.join('');
    expect(log).toContain('mail sent');
    expect(log).not.toContain(token);
    expect(log).not.toContain(to);
  });

  it('sends nothing for a transaction that rolled back', async () => {
    const to = address('rolledback');
    await expect(
      t.database.db.transaction(async (tx) => {
        await t.app.mailer.queue(tx, { to, template: 'reset_password', firstName: 'Rolled', path: '/reset-password?token=never' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.app.outbox.flush();
    expect(await rowsTo(to)).toHaveLength(0);
    expect(smtp.to(to)).toHaveLength(0);
  });

  it('survives an SMTP server that refuses, then is down, then recovers: nothing lost, backoff recorded, each message delivered once', async () => {
    const to = [address('outage-a'), address('outage-b'), address('outage-c')];
    smtp.refuse(true);
    for (const [i, addr] of to.entries()) {
      await queue({ to: addr, template: 'reset_password', firstName: `Out${i}`, path: `/reset-password?token=outage${i}` });
    }
    const start = t.clock().getTime();

    // Attempt 1: refused (451). Counted, a short reason, retried in 30 s ± 20%.
    const first = await t.app.outbox.flush();
    expect(first.failed).toBe(3);
    expect(smtp.refusedCount()).toBeGreaterThanOrEqual(3);
    for (const row of await rowsTo(...to)) {
      expect(row.sentAt).toBeNull();
      expect(row.attempts).toBe(1);
      expect(row.lastError).toMatch(/^451 /);
      expect(row.lastError).not.toContain('outage');
      expect(row.lastError).not.toContain('@');
      expect(row.textBody).toContain('/reset-password?token=outage');
      const delay = row.nextAttemptAt.getTime() - start;
      expect(delay).toBeGreaterThanOrEqual(0.8 * BACKOFF_BASE_MS);
      expect(delay).toBeLessThanOrEqual(1.2 * BACKOFF_BASE_MS);
    }
    // Not due yet: nothing is tried before the backoff ends.
    expect((await t.app.outbox.flush()).claimed).toBe(0);

    // Attempt 2: the server is down altogether (connection refused). The delay doubles.
    await smtp.close();
    t.clock.advance(1.2 * BACKOFF_BASE_MS + 1);
    const second = await t.app.outbox.flush();
    expect(second.failed).toBe(3);
    const afterSecond = t.clock().getTime();
    for (const row of await rowsTo(...to)) {
      expect(row.attempts).toBe(2);
      expect(row.lastError).toMatch(/ECONNREFUSED|ECONNRESET|ETIMEDOUT|ESOCKET/);
      const delay = row.nextAttemptAt.getTime() - afterSecond;
      expect(delay).toBeGreaterThanOrEqual(0.8 * 2 * BACKOFF_BASE_MS);
      expect(delay).toBeLessThanOrEqual(1.2 * 2 * BACKOFF_BASE_MS);
    }
    const log = t.logs.join('');
    expect(log).toContain('will retry');
    expect(log).not.toContain('token=outage');

    // The server is back (same address): the next due pass delivers every message, once.
    smtp = await startSmtpCatcher({ port: smtp.port });
    t.clock.advance(2.4 * BACKOFF_BASE_MS + 1);
    const third = await t.app.outbox.flush();
    expect(third.sent).toBe(3);
    for (const [i, addr] of to.entries()) {
      const mail = await smtp.waitFor(addr);
      expect(linkIn(mail.text)).toBe(`${PUBLIC_URL}/reset-password?token=outage${i}`);
      expect(mail.subject).toBe('Reset your password');
    }
    await t.app.outbox.flush();
    for (const addr of to) expect(smtp.to(addr)).toHaveLength(1);
    for (const row of await rowsTo(...to)) {
      expect(row.sentAt).not.toBeNull();
      expect(row.attempts).toBe(3);
      expect(row.textBody).toBeNull();
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts, says so in the row and the log, and drops the bodies`, async () => {
    const to = address('giveup');
    await queue({ to, template: 'verify_email', firstName: 'Never', path: '/verify-email?token=giveup' });
    smtp.refuse(true, { code: 550, message: 'Mailbox unavailable' });
    try {
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        const r = await t.app.outbox.flush();
        expect(r.failed + r.gaveUp).toBe(1);
        t.clock.advance(60 * 60 * 1000 * 1.3);
      }
      expect((await t.app.outbox.flush()).claimed).toBe(0);
    } finally {
      smtp.refuse(false);
    }
    const [row] = await rowsTo(to);
    expect(row!.attempts).toBe(MAX_ATTEMPTS);
    expect(row!.sentAt).toBeNull();
    expect(row!.lastError).toMatch(new RegExp(`^gave up after ${MAX_ATTEMPTS} attempts: 550 `));
    expect(row!.textBody).toBeNull();
    expect(row!.htmlBody).toBeNull();
    // Out of the pending set: no pass scans it again through outbox_pending_idx.
    expect(row!.nextAttemptAt).toEqual(NEVER);
    // Never tried again, even much later.
    t.clock.advance(7 * 24 * 60 * 60 * 1000);
    expect((await t.app.outbox.flush()).claimed).toBe(0);
    expect(smtp.to(to)).toHaveLength(0);
    expect(t.logs.some((l) => l.includes('"level":40') && l.includes('gave up'))).toBe(true);
  });

  it('a crash after commit still sends: the row is there for the next instance; a crash mid-send is retried after the lease', async () => {
    const committed = address('crash-commit');
    const midSend = address('crash-midsend');
    await queue({ to: committed, template: 'set_password', firstName: 'Crash', path: '/set-password?token=crash1' });
    await queue({ to: midSend, template: 'set_password', firstName: 'Crash', path: '/set-password?token=crash2' });

    // An instance claims the second message and dies before sending it. (It claims one
    // message at a time; what it took before that one it gives back, as if never seen.)
    const claimed = [];
    for (;;) {
      const row = await claimNext(t.database.db, { now: fixedTime(t.clock()), leaseMs: LEASE_MS, maxAttempts: MAX_ATTEMPTS });
      if (!row) break;
      claimed.push(row);
      if (row.toAddress === midSend) break;
    }
    expect(claimed.filter((r) => r.toAddress === midSend)).toHaveLength(1);
    expect(claimed.at(-1)!.nextAttemptAt.getTime()).toBe(t.clock().getTime() + LEASE_MS);
    const giveBack = claimed.filter((r) => r.toAddress !== midSend).map((r) => r.id);
    if (giveBack.length > 0) await t.database.db.update(outbox).set({ nextAttemptAt: t.clock() }).where(inArray(outbox.id, giveBack));

    // A fresh instance (a new worker on the same database) sends what was committed.
    const next = createOutboxWorker({ database: t.database, clock: t.clock, log: t.app.log, smtpUrl: smtp.url, mailFrom: 'x@wellhaven.example' });
    await next.flush();
    expect((await smtp.waitFor(committed)).subject).toBe('Set your administrator password');
    expect(smtp.to(midSend)).toHaveLength(0);
    // The lease of the dead instance runs out; then the message goes.
    t.clock.advance(LEASE_MS + 1);
    await next.flush();
    expect(linkIn((await smtp.waitFor(midSend)).text)).toBe(`${PUBLIC_URL}/set-password?token=crash2`);
    await next.stop();
    expect(smtp.to(committed)).toHaveLength(1);
    expect(smtp.to(midSend)).toHaveLength(1);
  });

  it('four workers draining one outbox at once never send a message twice', async () => {
    const to = Array.from({ length: 40 }, (_, i) => address(`race${i}`));
    for (const addr of to) await queue({ to: addr, template: 'mfa_reset', firstName: 'Race', path: '/login' });
    const workers = Array.from({ length: 4 }, () =>
      createOutboxWorker({ database: t.database, clock: t.clock, log: t.app.log, smtpUrl: smtp.url, mailFrom: 'x@wellhaven.example' }),
    );
    const results = await Promise.all(workers.flatMap((w) => [w.flush(), w.runOnce()]));
    await Promise.all(workers.map((w) => w.stop()));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(40);
    for (const addr of to) {
      await smtp.waitFor(addr);
      expect(smtp.to(addr)).toHaveLength(1);
    }
    for (const row of await rowsTo(...to)) {
      expect(row.attempts).toBe(1);
      expect(row.sentAt).not.toBeNull();
    }
  });

  it('a kick sends at once, without waiting for the next poll', async () => {
    const worker = createOutboxWorker({ database: t.database, clock: t.clock, log: t.app.log, smtpUrl: smtp.url, mailFrom: 'x@wellhaven.example', pollMs: 10 * 60 * 1000 });
    const before = address('kick-before');
    const after = address('kick-after');
    await queue({ to: before, template: 'mfa_reset', firstName: 'Kick' });
    worker.start();
    try {
      await smtp.waitFor(before); // the first pass, at start
      await queue({ to: after, template: 'mfa_reset', firstName: 'Kick' });
      worker.kick(); // the next poll is ten minutes away
      await smtp.waitFor(after);
    } finally {
      await worker.stop();
    }
  });

  it('the app kicks the worker after a response whose request queued mail', async () => {
    // Mail queued outside any request earlier in this file asks for one kick; let it go first.
    await t.app.inject({ method: 'GET', url: '/healthz' });
    const kick = vi.spyOn(t.app.outbox, 'kick');
    try {
      await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(kick).not.toHaveBeenCalled();
      const to = address('kick-route');
      const res = await t.app.inject({ method: 'POST', url: '/test/queue-mail', payload: { to } });
      expect(res.statusCode).toBe(200);
      await vi.waitFor(() => expect(kick).toHaveBeenCalledTimes(1));
      await t.app.outbox.flush();
      const mail = await smtp.waitFor(to);
      expect(mail.subject).toBe('Your password was changed');
      expect(mail.text).toContain("If this wasn't you");
    } finally {
      kick.mockRestore();
    }
  });

  it('runs by itself once the app listens, and stops when it closes', async () => {
    const served = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
    try {
      const to = address('served');
      await served.database.db.transaction((tx) => served.app.mailer.queue(tx, { to, template: 'verify_email', firstName: 'Served', path: '/verify-email?token=served' }));
      expect(served.app.outbox.started).toBe(false);
      await served.app.listen({ host: '127.0.0.1', port: 0 });
      expect(served.app.outbox.started).toBe(true);
      expect(linkIn((await smtp.waitFor(to)).text)).toBe(`${PUBLIC_URL}/verify-email?token=served`);
      await served.app.close();
      expect(served.app.outbox.started).toBe(false);
    } finally {
      await served.close();
    }
  });
});


describe('mailerFromConfig', () => {
  it('builds links from PUBLIC_URL and brands with BRAND_NAME and BRAND_PRIMARY_COLOR, or the configuration default colour', async () => {
    const branded = mailerFromConfig(loadConfig({ PUBLIC_URL: 'https://care.example/', BRAND_NAME: 'Acme Care', BRAND_PRIMARY_COLOR: '#1d4ed8' }), t.clock);
    const plain = mailerFromConfig(loadConfig({}), t.clock);
    const a = address('from-config');
    const b = address('from-config-default');
    await t.database.db.transaction(async (tx) => {
      await branded.queue(tx, { to: a, template: 'verify_email', firstName: 'Cfg', path: '/verify-email?token=cfg' });
      await plain.queue(tx, { to: b, template: 'verify_email', firstName: 'Cfg', path: '/verify-email?token=cfg' });
    });
    const [rowA] = await rowsTo(a);
    expect(rowA!.htmlBody).toContain('#1d4ed8');
    expect(rowA!.htmlBody).toContain('Acme Care');
    expect(rowA!.textBody).toContain('https://care.example/verify-email?token=cfg');
    const [rowB] = await rowsTo(b);
    expect(rowB!.htmlBody).toContain(loadConfig({}).BRAND_PRIMARY_COLOR);
    expect(rowB!.textBody).toContain('http://localhost:3000/verify-email?token=cfg');
    await t.app.outbox.flush();
  });
});

describe('without SMTP_URL (npm start)', () => {
  let local: TestApp;
  const printed: string[] = [];
  beforeAll(async () => {
    local = await createTestApp({ env: { PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'trace' } });
  });
  afterAll(async () => {
    await local?.close();
  });
  const queueLocal = (to: string, token: string) =>
    local.database.db.transaction((tx) => local.app.mailer.queue(tx, { to, template: 'reset_password', firstName: 'Local', path: `/reset-password?token=${token}` }));
  const consoleWorker = (isTTY: boolean) =>
    createOutboxWorker({ database: local.database, clock: local.clock, log: local.app.log, mailFrom: 'x@wellhaven.example', isTTY: () => isTTY, print: (line) => printed.push(line) });

  it('on a terminal: prints each message\'s recipient, subject and link once, never to the log', async () => {
    printed.length = 0;
    const worker = consoleWorker(true);
    expect(worker.mode).toBe('console');
    const to = address('console');
    const token = `console_${'y'.repeat(40)}`;
    await queueLocal(to, token);
    const result = await worker.flush();
    expect(result.printed).toBe(1);
    const out = printed.join('\n');
    expect(out).toContain(to);
    expect(out).toContain('Reset your password');
    expect(out).toContain(`http://localhost:3000/reset-password?token=${token}`);
    // Printed once, even across passes; unsent, bodies kept (the link is in the outbox).
    expect((await worker.flush()).printed).toBe(0);
    expect(printed).toHaveLength(1);
    const row = await latestMail(local, to);
    expect(row.sentAt).toBeNull();
    expect(row.token).toBe(token);
    // The pino log never holds the link.
    expect(local.logs.join('')).not.toContain(token);
  });

  it('when stdout is not a terminal (a service manager, a container): recipient and subject, the link withheld', async () => {
    const to = address('console-pipe');
    const token = `piped_${'z'.repeat(40)}`;
    await queueLocal(to, token);
    // The app's own worker decides by process.stdout.isTTY.
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
    try {
      expect(local.app.outbox.mode).toBe('console');
      expect((await local.app.outbox.flush()).printed).toBe(1);
    } finally {
      spy.mockRestore();
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    }
    const out = lines.join('\n');
    expect(out).toContain(to);
    expect(out).toContain('Reset your password');
    expect(out).toMatch(/withheld: this output is not a terminal.*Set SMTP_URL/);
    expect(out).not.toContain(token);
    expect(out).not.toContain('/reset-password');
    expect(local.logs.join('')).not.toContain(token);
  });

  it('a message shown on the console leaves the pending set and is never sent, not even once SMTP_URL is set', async () => {
    printed.length = 0;
    const to = address('console-later');
    await queueLocal(to, 'later_token');
    expect((await consoleWorker(false).flush()).printed).toBe(1);
    const [row] = await local.database.db.select().from(outbox).where(eq(outbox.toAddress, to));
    expect(row!.nextAttemptAt).toEqual(NEVER);
    // The operator sets SMTP_URL and restarts, days later: the stale notice stays unsent.
    const delivered: string[] = [];
    const smtpLater = createOutboxWorker({ database: local.database, clock: local.clock, log: local.app.log, mailFrom: 'x@wellhaven.example', transport: instantTransport(delivered) });
    local.clock.advance(3 * 24 * 60 * 60 * 1000);
    expect((await smtpLater.flush()).claimed).toBe(0);
    expect(delivered).toEqual([]);
    // A message queued from now on is sent as usual.
    const fresh = address('smtp-now');
    await queueLocal(fresh, 'fresh_token');
    expect((await smtpLater.flush()).sent).toBe(1);
    expect(delivered).toEqual([fresh]);
    await smtpLater.stop();
  });

  it('start-up warns a deployment (DATABASE_URL) without SMTP_URL, and only then', () => {
    const warning = mailStartupWarning(loadConfig({ DATABASE_URL: 'postgres://app@db.internal/wellhaven' }));
    expect(warning).toMatch(/SMTP_URL is not set, so this server sends no email/);
    expect(warning).toContain('never sent, not even after SMTP_URL is set later');
    expect(mailStartupWarning(loadConfig({ DATABASE_URL: 'postgres://app@db.internal/wellhaven', SMTP_URL: 'smtps://relay.example:465' }))).toBeUndefined();
    expect(mailStartupWarning(loadConfig({}))).toBeUndefined();
  });
});

type FakeTransport = Pick<Transporter, 'sendMail' | 'close'>;

/** Accepts every message at once, noting its recipient in `delivered`. */
function instantTransport(delivered: string[]): FakeTransport {
  return {
    sendMail: (async (mail: { to: string }) => {
      delivered.push(mail.to);
      return {};
    }) as unknown as FakeTransport['sendMail'],
    close: () => undefined,
  };
}

/**
 * An SMTP server that answers when the test says so: each send waits in `calls` until the test
 * releases it (delivered, noted in `delivered`) or fails it.
 */
function gatedTransport(delivered: string[]) {
  const calls: { to: string; release: () => void; fail: (err: Error) => void }[] = [];
  const state = { closed: 0 };
  const transport: FakeTransport = {
    sendMail: ((mail: { to: string }) =>
      new Promise((resolve, reject) => {
        calls.push({
          to: mail.to,
          release: () => {
            delivered.push(mail.to);
            resolve({});
          },
          fail: reject,
        });
      })) as unknown as FakeTransport['sendMail'],
    close: () => {
      state.closed += 1;
    },
  };
  return { transport, calls, state };
}

describe('leases, one message at a time', () => {
  // A database of its own: these workers claim whatever is due, and each test starts empty.
  let iso: TestApp;
  beforeAll(async () => {
    iso = await createTestApp();
  });
  afterAll(async () => {
    await iso?.close();
  });
  beforeEach(async () => {
    await iso.database.db.delete(outbox);
  });
  const queueIso = (to: string) =>
    iso.database.db.transaction((tx) => iso.app.mailer.queue(tx, { to, template: 'reset_password', firstName: 'Lease', path: `/reset-password?token=lease_${to.split('@')[0]}` }));
  const worker = (transport: FakeTransport, extra: Partial<Parameters<typeof createOutboxWorker>[0]> = {}) =>
    createOutboxWorker({ database: iso.database, clock: iso.clock, log: iso.app.log, mailFrom: 'x@wellhaven.example', transport, random: () => 0.5, ...extra });
  const row = async (to: string) => (await iso.database.db.select().from(outbox).where(eq(outbox.toAddress, to)))[0]!;

  it('a slow SMTP server: each message gets its own lease, so one waiting behind a slow send is not sent by another instance too', async () => {
    const first = address('slow-1');
    const second = address('slow-2');
    await queueIso(first);
    await queueIso(second);
    const delivered: string[] = [];
    const slow = gatedTransport(delivered);
    const a = worker(slow.transport);
    const b = worker(instantTransport(delivered));

    const running = a.runOnce();
    await vi.waitFor(() => expect(slow.calls).toHaveLength(1));
    expect(slow.calls[0]!.to).toBe(first);
    // The first send takes 90 s; only then is the second message claimed (and leased) by A.
    iso.clock.advance(90_000);
    slow.calls[0]!.release();
    await vi.waitFor(() => expect(slow.calls).toHaveLength(2));
    expect((await row(second)).nextAttemptAt.getTime()).toBe(iso.clock().getTime() + LEASE_MS);
    // 150 s after the pass began (a lease taken for the whole batch would have run out at 120 s),
    // another instance finds nothing to send.
    iso.clock.advance(60_000);
    expect((await b.flush()).claimed).toBe(0);
    slow.calls[1]!.release();
    expect((await running).sent).toBe(2);
    expect(delivered.filter((to) => to === second)).toHaveLength(1);
    expect(delivered).toHaveLength(2);
    expect((await row(second)).sentAt).not.toBeNull();
  });

  it('a worker whose lease ran out records nothing: its failure does not move the new holder\'s lease, its late success does not mark the row sent', async () => {
    const delivered: string[] = [];
    const late = gatedTransport(delivered);
    const holder = gatedTransport(delivered);
    const a = worker(late.transport);
    const b = worker(holder.transport);
    const c = worker(instantTransport(delivered));

    // 1. A claims, hangs past its lease; B takes the message over; A's send then fails.
    const to = address('lost-lease-fail');
    await queueIso(to);
    const runA = a.runOnce();
    await vi.waitFor(() => expect(late.calls).toHaveLength(1));
    iso.clock.advance(LEASE_MS + 1);
    const runB = b.runOnce();
    await vi.waitFor(() => expect(holder.calls).toHaveLength(1));
    const leaseOfB = (await row(to)).nextAttemptAt;
    late.calls[0]!.fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' }));
    expect((await runA).failed).toBe(0);
    const afterA = await row(to);
    expect(afterA.nextAttemptAt).toEqual(leaseOfB);
    expect(afterA.attempts).toBe(0);
    expect(afterA.lastError).toBeNull();
    // Had A's failure set a retry 30 s out, a third instance would send now, while B still is.
    iso.clock.advance(BACKOFF_BASE_MS * 1.2 + 1);
    expect((await c.flush()).claimed).toBe(0);
    holder.calls[0]!.release();
    expect((await runB).sent).toBe(1);
    expect(delivered.filter((d) => d === to)).toHaveLength(1);
    expect((await row(to)).sentAt).not.toBeNull();

    // 2. The same, but A's late send succeeds: the row stays B's; the log says what happened.
    const to2 = address('lost-lease-sent');
    await queueIso(to2);
    const runA2 = a.runOnce();
    await vi.waitFor(() => expect(late.calls).toHaveLength(2));
    iso.clock.advance(LEASE_MS + 1);
    const runB2 = b.runOnce();
    await vi.waitFor(() => expect(holder.calls).toHaveLength(2));
    const leaseOfB2 = (await row(to2)).nextAttemptAt;
    late.calls[1]!.release();
    await runA2;
    const afterA2 = await row(to2);
    expect(afterA2.sentAt).toBeNull();
    expect(afterA2.nextAttemptAt).toEqual(leaseOfB2);
    expect(afterA2.textBody).not.toBeNull();
    expect(iso.logs.some((l) => l.includes('mail sent after its lease ran out') && l.includes(`"outboxId":${afterA2.id}`))).toBe(true);
    holder.calls[1]!.release();
    await runB2;
    const done = await row(to2);
    expect(done.sentAt).not.toBeNull();
    expect(done.attempts).toBe(1);
    expect(done.textBody).toBeNull();
  });

  it('a database error after a successful send is not a send failure: logged, the row stays leased, the lease decides', async () => {
    const to = address('db-after-send');
    await queueIso(to);
    const delivered: string[] = [];
    let failNextUpdate = false;
    // The database handle the worker uses: the first update after the send fails, once.
    const db = new Proxy(iso.database.db, {
      get(target, prop) {
        if (prop === 'update' && failNextUpdate) {
          failNextUpdate = false;
          return () => {
            throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const transport: FakeTransport = {
      sendMail: (async (mail: { to: string }) => {
        delivered.push(mail.to);
        failNextUpdate = true;
        return {};
      }) as unknown as FakeTransport['sendMail'],
      close: () => undefined,
    };
    const w = worker(transport, { database: { db } });
    const result = await w.runOnce();
    expect(result).toMatchObject({ claimed: 1, sent: 1, failed: 0 });
    const leased = await row(to);
    expect(leased.attempts).toBe(0);
    expect(leased.lastError).toBeNull();
    expect(leased.sentAt).toBeNull();
    expect(leased.nextAttemptAt.getTime()).toBe(iso.clock().getTime() + LEASE_MS);
    expect(iso.logs.some((l) => l.includes('"level":50') && l.includes('mail sent but not recorded') && l.includes('ECONNRESET'))).toBe(true);
    // Nothing is due until the lease runs out (at least once: then it goes again).
    expect((await w.runOnce()).claimed).toBe(0);
    expect(delivered).toEqual([to]);
  });

  it("with timeSource 'database', leases and retries are timed by the database's now(), not a skewed instance clock", async () => {
    const to = address('db-time');
    await queueIso(to);
    const dbNow = async () => new Date(Number(rowsOf<{ ms: number }>(await iso.database.db.execute(sql`select (extract(epoch from now()) * 1000)::float8 as ms`))[0]!.ms));
    const skewed = () => new Date(Date.now() + 60 * 60 * 1000); // this instance's clock is an hour fast
    const gated = gatedTransport([]);
    const w = worker(gated.transport, { clock: skewed, timeSource: 'database' });
    const run = w.runOnce();
    await vi.waitFor(() => expect(gated.calls).toHaveLength(1));
    const lease = (await row(to)).nextAttemptAt.getTime() - (await dbNow()).getTime();
    expect(lease).toBeGreaterThan(LEASE_MS - 10_000);
    expect(lease).toBeLessThanOrEqual(LEASE_MS);
    gated.calls[0]!.fail(Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' }));
    expect((await run).failed).toBe(1);
    const retry = (await row(to)).nextAttemptAt.getTime() - (await dbNow()).getTime();
    expect(retry).toBeGreaterThan(BACKOFF_BASE_MS - 10_000);
    expect(retry).toBeLessThanOrEqual(BACKOFF_BASE_MS);
  });

  it('stop() ends a flush after the message in hand, waits for it, then closes the transport; nothing runs after it', async () => {
    const to = [address('stop-1'), address('stop-2'), address('stop-3')];
    for (const addr of to) await queueIso(addr);
    const delivered: string[] = [];
    const gated = gatedTransport(delivered);
    const w = worker(gated.transport, { pollMs: 10 * 60 * 1000 });
    w.start();
    await vi.waitFor(() => expect(gated.calls).toHaveLength(1));
    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    expect(w.started).toBe(false);
    // The send in hand is waited for, with the transport still open.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    expect(gated.state.closed).toBe(0);
    gated.calls[0]!.release();
    await stopping;
    expect(gated.state.closed).toBe(1);
    // Only that message went; the others are still due, unclaimed, for the next instance.
    expect(delivered).toEqual([to[0]]);
    expect(gated.calls).toHaveLength(1);
    for (const addr of to.slice(1)) expect((await row(addr)).nextAttemptAt.getTime()).toBeLessThanOrEqual(iso.clock().getTime());
    // A stopped worker runs no more passes: the database or transport may be closed by now.
    expect((await w.flush()).claimed).toBe(0);
    expect((await w.runOnce()).claimed).toBe(0);
    expect(gated.calls).toHaveLength(1);
  });
});
