import type { Language } from '#shared/i18n/languages';
import type { DbOrTx } from '#db/client';
import { paths } from '#shared/paths';
import { newToken, sha256Hex } from '../../lib/crypto';
import type { Mailer, MailTemplate } from '../mail/mailer';
import { issueToken } from './links.repository';

/** The emailed single-use links (docs/decisions/account-links-and-devices.md). */
export type LinkPurpose = 'verify_email' | 'reset_password' | 'set_password';

const HOUR = 60 * 60 * 1000;

/** How long each kind of link works (once): verification 24 h, reset 1 h, an administrator's set-password link 24 h. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  verify_email: 24 * HOUR,
  reset_password: HOUR,
  set_password: 24 * HOUR,
};

/** The email each link travels in, and the page it opens (set-password links use the reset page). */
const LINK_MAIL: Record<LinkPurpose, { template: MailTemplate; path: string }> = {
  verify_email: { template: 'verify_email', path: paths.verifyEmail },
  reset_password: { template: 'reset_password', path: paths.resetPassword },
  set_password: { template: 'set_password', path: paths.resetPassword },
};

/** Links that set a password: the member's reset and the bootstrap administrator's set-password link. */
export const PASSWORD_LINK_PURPOSES: LinkPurpose[] = ['reset_password', 'set_password'];

/**
 * Issues a single-use link and queues its email, in the caller's transaction (a rolled-back
 * change sends nothing). Older unused links of the same purpose stop working ("expired or
 * replaced by a newer one"); only the token's SHA-256 is stored. `user` is the account, or
 * only an address (forgot password), looked up in the same statement that stores the token,
 * so an address without an account costs the same work and gets no email. Returns the
 * account the link went to, or undefined when no account has that address.
 */
export async function issueLink(
  tx: DbOrTx,
  mailer: Pick<Mailer, 'queue'>,
  user: { id: string } | { email: string },
  purpose: LinkPurpose,
  now: Date,
  language?: Language,
) {
  const token = newToken();
  const owner = await issueToken(tx, { user, purpose, tokenHash: sha256Hex(token), expiresAt: new Date(now.getTime() + LINK_TTL_MS[purpose]), now });
  if (owner) {
    const mail = LINK_MAIL[purpose];
    await mailer.queue(tx, { to: owner.email, template: mail.template, firstName: owner.firstName, path: `${mail.path}?token=${token}`, language: owner.language ?? language });
  }
  return owner;
}
