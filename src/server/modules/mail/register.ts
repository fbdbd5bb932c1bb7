import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '#db/client';
import type { Config } from '../../config';
import type { Clock } from '../../lib/clock';
import { asArray, readsOnly } from '../../lib/as-array';
import { type Mailer, mailerFromConfig } from './mailer';
import { createOutboxWorker, type OutboxWorker } from './outbox-worker';

declare module 'fastify' {
  interface FastifyInstance {
    /** Queues mail in the caller's transaction (the services get the same one). */
    mailer: Mailer;
    /**
     * Sends the outbox. Started when the app listens, stopped when it closes; tests (which
     * inject without listening) drive it with `flush()` / `runOnce()`.
     */
    outbox: OutboxWorker;
  }
}

/**
 * Mail for the app: the mailer the services queue with, and the outbox worker that sends.
 * The worker polls every 2 s and is kicked after every response whose request queued mail
 * (its transaction has committed by then), so a message leaves within moments. Only requests
 * that change something queue mail, so only routes of those methods carry the kick: a read
 * (GET, HEAD) pays for no hook. Mail queued by a route without it would still leave at the
 * next poll.
 */
export function registerMail(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL' | 'BRAND_NAME' | 'BRAND_PRIMARY_COLOR'>; database: Pick<Database, 'db'>; clock: Clock },
): Mailer {
  const { config } = deps;
  const worker = createOutboxWorker({
    database: deps.database,
    clock: deps.clock,
    log: app.log.child({ module: 'outbox' }),
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
  });
  let queued = false;
  const mailer = mailerFromConfig(config, deps.clock, {
    onQueued: () => {
      queued = true;
    },
  });
  app.decorate('mailer', mailer);
  app.decorate('outbox', worker);
  // A callback hook, not an async one: no promise per request on the hot path.
  const kick = (_request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (queued) {
      queued = false;
      worker.kick();
    }
    done();
  };
  app.addHook('onRoute', (route) => {
    if (!readsOnly(route)) route.onResponse = [...asArray(route.onResponse), kick];
  });
  app.addHook('onListen', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
  return mailer;
}

/**
 * What start-up says about mail, or undefined when there is nothing to say. A deployment
 * (DATABASE_URL) without SMTP_URL sends no mail at all: members wait for verification and
 * reset links that never come. The server still starts (benchmarks and fault scripts run
 * that way), but says so plainly.
 */
export function mailStartupWarning(config: Pick<Config, 'DATABASE_URL' | 'SMTP_URL'>): string | undefined {
  if (!config.DATABASE_URL || config.SMTP_URL) return undefined;
  return [
    'WARNING: SMTP_URL is not set, so this server sends no email.',
    '  Verification, password reset and set-password messages are only noted on this console (links',
    '  only when it is a terminal) and are never sent, not even after SMTP_URL is set later.',
    '  Set SMTP_URL (smtp:// or smtps://), MAIL_FROM and PUBLIC_URL to deliver mail.',
  ].join('\n');
}
