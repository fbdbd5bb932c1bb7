// Operator CLI: npm run admin -- <command> EMAIL. The commands are functions in
// modules/auth/operator.ts (tested in tests/api/admin-cli.test.ts); this file only wires them.
import path from 'node:path';
import { openDatabase } from '#db/client';
import { loadConfig } from './config';
import { systemClock } from './lib/clock';
import { RedisCounterStore } from './lib/counter-store';
import { publishChangesFrom } from './lib/notify';
import { mailerFromConfig } from './modules/mail/mailer';
import { resetMfaCommand } from './modules/auth/mfa-operator';
import { EXIT, type OperatorContext, type OperatorResult, grantAdmin, revokeAdmin, unlockAccount } from './modules/auth/operator';

interface Command {
  summary: string;
  run(ctx: OperatorContext, email: string): Promise<OperatorResult>;
}

const commands: Record<string, Command> = {
  grant: { summary: 'give the admin role (only to an account with a verified email)', run: grantAdmin },
  revoke: { summary: 'take the admin role away', run: revokeAdmin },
  unlock: { summary: 'clear the sign-in throttling of an account (needs REDIS_URL)', run: unlockAccount },
  'reset-mfa': {
    summary: "remove a lost second factor (authenticator app, recovery codes) and end the admin step-up; mails the owner",
    // The notice goes through the outbox like every mail; a running server's worker sends it.
    run: (ctx, email) => resetMfaCommand(ctx, mailerFromConfig(config, ctx.clock), email),
  },
};

const [name, email, ...extra] = process.argv.slice(2);
// Own keys only: `constructor` or `toString` must be an unknown command, not Object.prototype's.
const command = name && Object.hasOwn(commands, name) ? commands[name] : undefined;
if (!command || !email || extra.length > 0) {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  console.error(
    [
      'Usage: npm run admin -- <command> EMAIL',
      '',
      ...Object.entries(commands).map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`),
    ].join('\n'),
  );
  process.exit(EXIT.usage);
}

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR),
});
// The same Redis (and key prefix) as the servers, so unlock reaches their counters.
const counters = config.REDIS_URL ? new RedisCounterStore(config.REDIS_URL) : undefined;
// Role, factor and session changes reach the running servers' session caches on their channel.
const stopPublishing = publishChangesFrom(database.db, { redisUrl: config.REDIS_URL, databaseUrl: config.DATABASE_URL }, (err) =>
  console.warn(`Could not tell the running servers at once (${err instanceof Error ? err.message : String(err)}); they notice within SESSION_CACHE_TTL_MS.`),
);
let result: OperatorResult;
try {
  await database.migrate();
  result = await command.run({ db: database.db, clock: systemClock, counters }, email);
} finally {
  await stopPublishing();
  await counters?.close();
  await database.close();
}
(result.exitCode === EXIT.ok ? console.log : console.error)(result.lines.join('\n'));
process.exit(result.exitCode);
