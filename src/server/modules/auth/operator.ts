import type { Db } from '#db/client';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { recordEvent } from '../audit/audit.repository';
import { setAdminRole } from './admin-bootstrap';
import { findAccountForOperator } from './operator.repository';
import { accountThrottleKeys, createThrottle } from './throttle';

/**
 * The operator CLI's commands (`npm run admin -- <command> EMAIL`, src/server/admin-cli.ts),
 * as functions of their dependencies so they are tested on a real database.
 */
export interface OperatorContext {
  db: Db;
  clock: Clock;
  /** The shared counter store (REDIS_URL), or undefined when the counters live in the server's memory. */
  counters: CounterStore | undefined;
}

export interface OperatorResult {
  /** 0 done; 1 no such account; 65 refused (EX_DATAERR); 69 cannot reach what it needs (EX_UNAVAILABLE). */
  exitCode: number;
  lines: string[];
}

export const EXIT = { ok: 0, notFound: 1, usage: 64, refused: 65, unavailable: 69 } as const;

type Account = NonNullable<Awaited<ReturnType<typeof findAccountForOperator>>>;

const when = (d: Date | null) => (d ? d.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : 'never');

/** What the operator sees before acting on an account. */
function accountSummary(account: Account): string[] {
  return [
    `Account:        ${account.firstName} ${account.lastName} <${account.email}>`,
    `Employer:       ${account.company}`,
    `Created:        ${when(account.createdAt)}`,
    `Email verified: ${account.emailVerifiedAt ? when(account.emailVerifiedAt) : 'not verified'}`,
    `Role:           ${account.role}`,
  ];
}

async function find(ctx: OperatorContext, email: string): Promise<Account | OperatorResult> {
  const account = await findAccountForOperator(ctx.db, email.trim().toLowerCase());
  return account ?? { exitCode: EXIT.notFound, lines: [`No account with email ${email}.`] };
}

const isResult = (x: Account | OperatorResult): x is OperatorResult => 'exitCode' in x;

/**
 * Gives the admin role, only to an account whose owner proved the address: otherwise whoever
 * registered a future administrator's email first would become one.
 */
export async function grantAdmin(ctx: OperatorContext, email: string): Promise<OperatorResult> {
  const account = await find(ctx, email);
  if (isResult(account)) return account;
  const lines = accountSummary(account);
  if (!account.emailVerifiedAt) {
    return {
      exitCode: EXIT.refused,
      lines: [
        ...lines,
        `Refused: ${account.email} has not verified its email address, so nobody has shown they own it.`,
        'Ask the person to follow the link in their verification email (Home offers "Resend email"), then grant again.',
      ],
    };
  }
  if (account.role === 'admin') return { exitCode: EXIT.ok, lines: [...lines, `${account.email} already has the admin role; nothing changed.`] };
  await setAdminRole(ctx.db, account.email, true, ctx.clock());
  return { exitCode: EXIT.ok, lines: [...lines, `Granted the admin role to ${account.email}.`] };
}

export async function revokeAdmin(ctx: OperatorContext, email: string): Promise<OperatorResult> {
  const account = await find(ctx, email);
  if (isResult(account)) return account;
  const lines = accountSummary(account);
  if (account.role !== 'admin') return { exitCode: EXIT.ok, lines: [...lines, `${account.email} does not have the admin role; nothing changed.`] };
  await setAdminRole(ctx.db, account.email, false, ctx.clock());
  return { exitCode: EXIT.ok, lines: [...lines, `Revoked the admin role from ${account.email}.`] };
}

/**
 * Clears the account's sign-in, step-up and second-factor throttling. It lives in the counter
 * store: with REDIS_URL this command reaches it; without, it is in the running server's memory,
 * which no other process can reach (the wait ends by itself, a restart clears it).
 */
export async function unlockAccount(ctx: OperatorContext, email: string): Promise<OperatorResult> {
  const account = await find(ctx, email);
  if (isResult(account)) return account;
  const lines = accountSummary(account);
  if (!ctx.counters) {
    return {
      exitCode: EXIT.unavailable,
      lines: [
        ...lines,
        'Not unlocked: without REDIS_URL, sign-in throttling is kept in the memory of the running server, which this command cannot reach.',
        'The wait ends by itself (15 minutes at most) once the wrong attempts stop, and restarting the server clears it.',
      ],
    };
  }
  const throttle = createThrottle(ctx.counters);
  const keys = accountThrottleKeys(account);
  const states = await Promise.all(keys.map((k) => throttle.state(k)));
  const failures = states.reduce((n, s) => n + s.failures, 0);
  const waitMs = Math.max(...states.map((s) => s.waitMs));
  for (const key of keys) await throttle.clear(key);
  await recordEvent(ctx.db, {
    type: 'account.unlocked',
    companyId: account.companyId,
    payload: { userId: account.id, via: 'cli', failures },
    at: ctx.clock(),
  });
  return {
    exitCode: EXIT.ok,
    lines: [
      ...lines,
      failures > 0
        ? `Unlocked ${account.email}: forgot ${failures} failed attempt(s)${waitMs > 0 ? ` and a wait of ${Math.ceil(waitMs / 1000)} s` : ''}.`
        : `Unlocked ${account.email}: it had no failed attempts on record.`,
    ],
  };
}
