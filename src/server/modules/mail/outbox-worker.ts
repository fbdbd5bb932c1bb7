import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#db/client';
import { messages } from '#shared/messages/index';
import { type Clock, systemClock } from '../../lib/clock';
import * as repo from './outbox.repository';

/** First retry after 30 s, doubling, never more than an hour apart. */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_CAP_MS = 60 * 60 * 1000;
/** 30 attempts span about a day (the longest link, email verification, lives 24 h). */
export const MAX_ATTEMPTS = 30;
/**
 * A claimed message is another instance's to retry if this one has not finished it within
 * this. Each message has its own lease, taken right before it is sent (see claimNext).
 */
export const LEASE_MS = 2 * 60 * 1000;
/** How often the worker looks for due mail when nothing kicks it. */
export const POLL_MS = 2000;
/** At most this many messages per pass (each claimed, sent and recorded on its own). */
const BATCH = 20;

/**
 * Delay before the next attempt after `attempts` failures: 30 s doubling per failure, with
 * ±20% jitter (instances retrying after one outage spread out), always within 30 s .. 1 h.
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const exponential = BACKOFF_BASE_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20);
  const jittered = Math.min(exponential, BACKOFF_CAP_MS) * (0.8 + 0.4 * random());
  return Math.round(Math.min(BACKOFF_CAP_MS, Math.max(BACKOFF_BASE_MS, jittered)));
}

/**
 * What is stored and logged about a failure: the SMTP code and the first line of the reason,
 * without any address-like or link-like text, and short. Never the body or the link.
 */
export function shortError(err: unknown): string {
  const e = err as { responseCode?: unknown; code?: unknown; message?: unknown };
  const code = typeof e?.responseCode === 'number' ? String(e.responseCode) : typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const cleaned = (message.split('\n')[0] ?? '')
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
    .replace(/\S+@\S+/g, '<address>')
    .replace(/[A-Za-z0-9_-]{32,}/g, '<redacted>')
    .trim();
  return `${code ? `${code} ` : ''}${cleaned}`.slice(0, 200);
}

export interface RunResult {
  /** Messages this run took from the outbox. */
  claimed: number;
  sent: number;
  failed: number;
  gaveUp: number;
  /** Without SMTP: messages shown on the console (their links only on a terminal). */
  printed: number;
}

export interface OutboxWorker {
  /** `smtp` with SMTP_URL; `console` without: messages are shown once and never sent. */
  readonly mode: 'smtp' | 'console';
  /** Starts polling (every `pollMs`) with a first run at once. The app starts it when it listens. */
  start(): void;
  /**
   * Stops polling and any flush, waits for the polling loop and any run in progress (at most
   * the message being sent), then closes the SMTP connection. After it, runs do nothing until
   * `start()`.
   */
  stop(): Promise<void>;
  /** Whether it is polling (between start and stop). */
  readonly started: boolean;
  /** Mail was queued: run now rather than at the next poll (no-op unless started). */
  kick(): void;
  /** One pass: claims, one at a time, up to a batch of due messages and sends (or prints) each. */
  runOnce(): Promise<RunResult>;
  /** Runs until nothing is due (or the worker is stopped); for tests and shutdown-free scripts. */
  flush(): Promise<RunResult>;
}

export interface OutboxWorkerDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  log: FastifyBaseLogger;
  smtpUrl?: string | undefined;
  mailFrom: string;
  pollMs?: number;
  random?: () => number;
  /** Where console mode prints; console.log by default (stdout, never the log: links are secrets). */
  print?: (line: string) => void;
  /**
   * Whether what `print` writes reaches a person at a terminal: only then does console mode
   * show links. `process.stdout.isTTY` by default; a service manager or a container keeps
   * stdout with the logs, and a link there is a bearer secret in the logs.
   */
  isTTY?: () => boolean;
  /**
   * Where due times, leases and retry times come from. `database` (PostgreSQL's `now()`, so
   * instances with skewed clocks still agree on every lease) is the default with the system
   * clock; `clock` (the injected clock, so tests move time instead of sleeping) otherwise.
   */
  timeSource?: 'database' | 'clock';
  /** A nodemailer transport to use instead of one built from smtpUrl (tests). */
  transport?: Pick<Transporter, 'sendMail' | 'close'>;
}

const empty = (): RunResult => ({ claimed: 0, sent: 0, failed: 0, gaveUp: 0, printed: 0 });

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { database, clock, log } = deps;
  const pollMs = deps.pollMs ?? POLL_MS;
  const random = deps.random ?? Math.random;
  const print = deps.print ?? ((line: string) => console.log(line));
  const isTTY = deps.isTTY ?? (() => process.stdout.isTTY === true);
  const timeSource = deps.timeSource ?? (clock === systemClock ? 'database' : 'clock');
  const now = (): repo.SqlTime => (timeSource === 'database' ? repo.databaseNow() : repo.fixedTime(clock()));
  const mode: OutboxWorker['mode'] = deps.smtpUrl || deps.transport ? 'smtp' : 'console';
  let transport = deps.transport;
  const getTransport = () => {
    // smtps:// connects with TLS; smtp:// upgrades with STARTTLS when the server offers it.
    transport ??= nodemailer.createTransport({
      url: deps.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as Parameters<typeof nodemailer.createTransport>[0]);
    return transport;
  };

  let chain: Promise<unknown> = Promise.resolve();
  let started = false;
  /** Set by stop(): flushes end, passes end after the message in hand, runs do nothing. */
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  /** The polling loop while it runs; stop() waits for it. */
  let running: Promise<void> | undefined;
  let kickedWhileRunning = false;

  async function sendOne(row: repo.OutboxRow, result: RunResult) {
    // The lease this worker took: every write below is conditioned on it still being there.
    const lease = row.nextAttemptAt;
    const attempts = row.attempts + 1;
    const context = { outboxId: row.id, template: row.template, attempts };
    let failure: unknown;
    try {
      if (row.textBody === null) throw new Error('message has no body');
      await getTransport().sendMail({
        from: deps.mailFrom,
        to: row.toAddress,
        subject: row.subject,
        text: row.textBody,
        ...(row.htmlBody ? { html: row.htmlBody } : {}),
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (err) {
      failure = err ?? new Error('send failed');
    }

    if (failure === undefined) {
      // Delivered. Recording it is not part of the attempt: a database error here is not a
      // send failure. The row stays leased, and when the lease runs out it is sent again
      // (at least once: a duplicate is better than a lost link).
      result.sent += 1;
      try {
        if (await repo.markSent(database.db, row.id, { lease, now: now() })) log.info(context, 'mail sent');
        else log.warn(context, 'mail sent after its lease ran out; another instance holds it and may send it again');
      } catch (err) {
        log.error({ ...context, error: shortError(err) }, 'mail sent but not recorded; it stays leased and is sent again when the lease runs out');
      }
      return;
    }

    const error = shortError(failure);
    if (attempts >= MAX_ATTEMPTS) {
      if (await repo.markGivenUp(database.db, row.id, { lease, error: `gave up after ${attempts} attempts: ${error}`.slice(0, 240) })) {
        result.gaveUp += 1;
        log.warn({ ...context, error }, 'mail not delivered: gave up');
      } else {
        log.warn({ ...context, error }, 'mail delivery failed after its lease ran out; left to the instance that holds it');
      }
      return;
    }
    const delayMs = backoffMs(attempts, random);
    if (await repo.markFailed(database.db, row.id, { lease, error, retryAt: repo.later(now(), delayMs) })) {
      result.failed += 1;
      log.warn({ ...context, retryInMs: delayMs, error }, 'mail delivery failed; will retry');
    } else {
      log.warn({ ...context, error }, 'mail delivery failed after its lease ran out; left to the instance that holds it');
    }
  }

  function printOne(row: repo.OutboxRow) {
    const c = messages.mail.console;
    // Only a person at a terminal sees the link; anywhere else stdout may be kept with the logs.
    const link = /https?:\/\/[^\s<>"')]+/.exec(row.textBody ?? '')?.[0];
    const shown = link === undefined ? c.noLink : isTTY() ? link : c.withheld;
    print(['', c.heading, `  ${c.to.padEnd(9)}${row.toAddress}`, `  ${c.subject.padEnd(9)}${row.subject}`, `  ${c.link.padEnd(9)}${shown}`, ''].join('\n'));
  }

  async function pass(): Promise<RunResult> {
    const result = empty();
    if (stopping) return result;
    if (mode === 'console') {
      const rows = await repo.claimUnprinted(database.db, { now: now(), limit: BATCH });
      result.claimed = rows.length;
      for (const row of rows) printOne(row);
      result.printed = rows.length;
      return result;
    }
    // One message per claim: each lease covers one send, not a batch behind a slow server.
    while (result.claimed < BATCH && !stopping) {
      const row = await repo.claimNext(database.db, { now: now(), leaseMs: LEASE_MS, maxAttempts: MAX_ATTEMPTS });
      if (!row) break;
      result.claimed += 1;
      await sendOne(row, result);
    }
    return result;
  }

  /** Runs are serialized within an instance; instances are kept apart by the claim. */
  function runOnce(): Promise<RunResult> {
    const run = chain.then(pass, pass);
    chain = run.catch(() => undefined);
    return run;
  }

  async function flush(): Promise<RunResult> {
    const total = empty();
    while (!stopping) {
      const r = await runOnce();
      for (const key of Object.keys(total) as (keyof RunResult)[]) total[key] += r[key];
      if (r.claimed === 0) break;
    }
    return total;
  }

  function schedule(ms: number) {
    if (!started) return;
    clearTimeout(timer);
    timer = setTimeout(loop, ms);
    timer.unref();
  }

  function loop() {
    if (!started) return;
    if (running) {
      kickedWhileRunning = true;
      return;
    }
    clearTimeout(timer);
    running = (async () => {
      try {
        do {
          kickedWhileRunning = false;
          await flush();
        } while (kickedWhileRunning && started);
      } catch (err) {
        // The database may be down; the next poll tries again.
        log.warn({ error: shortError(err) }, 'outbox worker pass failed');
      }
    })().finally(() => {
      running = undefined;
      schedule(pollMs);
    });
  }

  return {
    mode,
    get started() {
      return started;
    },
    start() {
      if (started) return;
      started = true;
      stopping = false;
      schedule(0);
    },
    async stop() {
      started = false;
      stopping = true;
      clearTimeout(timer);
      await running;
      await chain;
      transport?.close();
      transport = deps.transport;
    },
    kick() {
      if (!started) return;
      if (running) kickedWhileRunning = true;
      else schedule(0);
    },
    runOnce,
    flush,
  };
}
