import type { Mailer } from '../mail/mailer';
import { resetMfa } from './mfa.service';
import { EXIT, type OperatorContext, type OperatorResult } from './operator';

/**
 * `npm run admin -- reset-mfa EMAIL`, for someone who lost the device with their
 * authenticator app (docs/decisions/admin-mfa.md, README "MFA recovery procedure"): removes
 * the factor, ends every session of the account, forgets its wrong codes (reachable with
 * REDIS_URL), audits (`admin.mfa.reset`) and queues the `mfa_reset` notice to the account's
 * own address, then says what it did.
 */
export async function resetMfaCommand(ctx: OperatorContext, mailer: Pick<Mailer, 'queue'>, email: string): Promise<OperatorResult> {
  const done = await resetMfa(ctx.db, mailer, email, ctx.clock(), ctx.counters);
  if (!done) return { exitCode: EXIT.notFound, lines: [`No account with email ${email}.`] };
  const address = email.trim().toLowerCase();
  const next =
    done.role === 'admin'
      ? 'Their next Admin Access sets up a new authenticator app (a new QR code and ten new recovery codes).'
      : 'They sign in with their password alone, and can turn two-step sign-in on again under Profile > Security.';
  return {
    exitCode: EXIT.ok,
    lines: [
      `Reset the second factor of ${address} (${done.role}):`,
      done.hadFactor ? '- removed the authenticator app secret' : '- there was no confirmed authenticator app',
      ...(done.hadPendingSetup ? ['- cancelled a set-up that was waiting for its first code'] : []),
      `- deleted the recovery codes (${done.recoveryCodesLeft} unused)`,
      `- signed the account out everywhere (${done.sessionsRevoked === 1 ? '1 session' : `${done.sessionsRevoked} sessions`} ended)`,
      done.throttleCleared
        ? '- forgot its wrong authentication codes'
        : ctx.counters
          ? '- could not reach the shared counter store to forget its wrong authentication codes (any wait ends by itself within 15 minutes)'
          : '- its wrong authentication codes are counted in the running server\'s memory (no REDIS_URL), which this command cannot reach; any wait ends by itself within 15 minutes',
      `- queued the "two-step sign-in was reset" notice to ${address}`,
      '- recorded the event admin.mfa.reset',
      next,
    ],
  };
}
