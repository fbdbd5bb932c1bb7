import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '#db/client';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { ensureAdmin } from './modules/auth/admin-bootstrap';
import { DEMO_ADMIN_EMAIL, DEMO_MEMBER_EMAIL, DEMO_PASSWORD, seedDemoData } from './seed/demo-data';

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
    const loaded = config.DEMO_DATA ? await seedDemoData(database.db) : false;
    if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
      const outcome = await ensureAdmin(database.db, {
        email: config.ADMIN_EMAIL,
        password: config.ADMIN_PASSWORD,
        companyName: config.ADMIN_COMPANY,
      });
      console.log(`Administrator ${config.ADMIN_EMAIL} ${outcome}.`);
    }
    return loaded;
  });

  const app = await buildApp({ config, database });
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
  if (config.DEMO_DATA) {
    console.log(seeded ? 'Demo data loaded. Demo sign-ins:' : 'Demo data present. Demo sign-ins:');
    console.log(`  member: ${DEMO_MEMBER_EMAIL} / ${DEMO_PASSWORD}`);
    console.log(
      seeded
        ? `  admin:  ${DEMO_ADMIN_EMAIL} / ${seeded.adminPassword} (shown once; then Admin Access in the menu with the same credentials)\n`
        : `  admin:  ${DEMO_ADMIN_EMAIL} (password shown when the demo data was created; ADMIN_EMAIL and ADMIN_PASSWORD reset it)\n`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
