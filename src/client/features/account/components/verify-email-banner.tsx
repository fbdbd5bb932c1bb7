import { MailWarning } from 'lucide-react';
import { useContext } from 'react';
import { DRAWN_BANNER_ATTRIBUTE, DRAWN_EMAIL_ATTRIBUTE } from '../../../lib/drawn-banner';
import { Drawing } from '../../../lib/drawing';
import { t } from '../../../lib/i18n';
import { useAuth } from '../../auth/auth-context';
import { useAccountStatus } from '../api/get-account-status';
import { ResendVerification } from './resend-verification';

const b = t.account.banner;

/**
 * Home's banner for a member whose address is not verified yet: a status region in the page
 * (not a dialog) with "Resend email", whose outcome is announced as part of it. Shows nothing
 * until the account state is known.
 *
 * Drawn into /home's HTML (`Drawing`) for every member: hidden, with an empty slot where the
 * address goes, for the page's script to fill and show (lib/drawn-banner.ts).
 */
export function VerifyEmailBanner() {
  const drawing = useContext(Drawing);
  const { user } = useAuth();
  const status = useAccountStatus();
  if (!drawing && status.data?.emailVerified !== false) return null;
  const drawn = drawing ? { hidden: true, [DRAWN_BANNER_ATTRIBUTE]: '' } : {};
  return (
    <section {...drawn} role="status" aria-atomic="false" aria-labelledby="verify-banner-title" className="flex flex-col gap-3 rounded-2xl border border-warning/30 bg-warning-soft p-4 text-warning">
      <div className="flex items-start gap-3">
        <MailWarning className="mt-0.5 size-5 shrink-0" aria-hidden />
        <div className="flex min-w-0 flex-col gap-1">
          <h2 id="verify-banner-title" className="font-bold">
            {b.title}
          </h2>
          <p className="text-sm break-words">{drawing ? <DrawnBody /> : user ? b.body(user.email) : b.bodyNoEmail}</p>
        </div>
      </div>
      <ResendVerification className="pl-8" live={false} />
    </section>
  );
}

/** The banner's sentence with an empty slot for the address, which the page's script fills. */
function DrawnBody() {
  const [before, after] = b.body('\u0000').split('\u0000');
  return (
    <>
      {before}
      <span {...{ [DRAWN_EMAIL_ATTRIBUTE]: '' }} />
      {after}
    </>
  );
}
