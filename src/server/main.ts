import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { batchedStdout } from './lib/batched-log';
import { openDatabase } from '#db/client';
import { buildApp, loggerOptions } from './app';
import { ConfigError, loadConfig } from './config';
import { ensureAdmin } from './modules/auth/admin-bootstrap';
import { systemClock } from './lib/clock';
import { publishChangesFrom } from './lib/notify';
import { mailerFromConfig } from './modules/mail/mailer';
import { cardKeyWarning, loadOrCreateCardSigningKey } from './modules/cards/signing-key';
import { mailStartupWarning } from './modules/mail/register';
import { demoAdminAccessMode, demoSignInLines, seedDemoData } from './seed/demo-data';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }

  // eslint-disable-next-line security/detect-non-literal-fs-filename -- DATA_DIR from configuration, not a request
  if (!config.DATABASE_URL) mkdirSync(path.resolve(config.DATA_DIR), { recursive: true });
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR),
    poolMax: config.DB_POOL_MAX,
    onPoolError: (err) => console.warn(`database connection lost: ${err.message}`),
  });
  // Instances starting together take turns: migrations, demo data and the bootstrap admin race otherwise.
  const seeded = await database.exclusive(async () => {
    await database.migrate();
    // The demo admin's one-time password is shown only to a person at a terminal; anywhere else
    // (a service manager, a container, a pipe into a log) it gets a set-password link instead,
    // and when no mail can go out (no SMTP_URL) neither: start-up says how to set one.
    const access = demoAdminAccessMode({ terminal: process.stdout.isTTY === true, smtp: Boolean(config.SMTP_URL) });
    const loaded = config.DEMO_DATA
      ? await seedDemoData(database.db, {
          mailer: access === 'link' ? mailerFromConfig(config, systemClock) : undefined,
          withholdAdminPassword: access === 'withheld',
        })
      : null;
    if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
      // A re-password ends the account's sessions: instances already running hear it on their channel.
      const stopPublishing = publishChangesFrom(database.db, { redisUrl: config.REDIS_URL, databaseUrl: config.DATABASE_URL });
      const outcome = await ensureAdmin(database.db, {
        email: config.ADMIN_EMAIL,
        password: config.ADMIN_PASSWORD,
        companyName: config.ADMIN_COMPANY,
        brandName: config.BRAND_NAME,
      }).finally(stopPublishing);
      console.log(`Administrator ${config.ADMIN_EMAIL} ${outcome}.`);
    }
    return loaded;
  });

  // Log lines are batched and written asynchronously, not one write(2) per line: under load
  // the writes were a third of the server's CPU. A line waits at most a second; the exit
  // writes what is held (docs/decisions/buffered-logging.md).
  const logStream = batchedStdout();
  // ID cards are signed with CARD_SIGNING_KEY, else a key generated once into DATA_DIR.
  const cardKey = config.CARD_SIGNING_KEY ? undefined : loadOrCreateCardSigningKey(path.resolve(config.DATA_DIR));
  if (cardKey && config.DATABASE_URL) console.warn(cardKeyWarning(path.resolve(config.DATA_DIR)));
  const app = await buildApp({ config, database, logger: loggerOptions(config, logStream), ...(cardKey ? { cardSigningKey: cardKey.key } : {}) });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ host: config.HOST, port: config.PORT });
  const storage = database.kind === 'postgres' ? 'PostgreSQL' : `embedded PostgreSQL in ${path.resolve(config.DATA_DIR)}`;
  console.log(`\n${config.BRAND_NAME} is running at ${address.replace('127.0.0.1', 'localhost')} (${storage})`);
  const mailWarning = mailStartupWarning(config);
  if (mailWarning) console.warn(mailWarning);
  if (config.DEMO_DATA) console.log(demoSignInLines({ seeded, embedded: !config.DATABASE_URL, smtp: Boolean(config.SMTP_URL) }).join('\n'));
}

main().catch((err: unknown) => {
  // A refused ADMIN_PASSWORD is a configuration error: its reason, without a stack trace.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(err instanceof ConfigError ? 78 : 1);
});
