import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useResendVerification } from '../api/resend-verification';

const b = t.account.banner;

/**
 * "Resend email" and what came of it, said in a polite live region that is always in the
 * page (so the change is announced; `live={false}` when the caller is that region already);
 * disabled while the request is on its way.
 */
export function ResendVerification({ className, live = true }: { className?: string; live?: boolean }) {
  const resend = useResendVerification();
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Button
        variant="secondary"
        size="sm"
        className="self-start"
        disabled={resend.isPending}
        onClick={() => {
          setOutcome(null);
          resend.mutate(undefined, {
            onSuccess: (result) => setOutcome({ text: result.status === 'sent' ? b.sent : b.alreadyVerified, tone: 'ok' }),
            // A 429 says to wait; its sentence is the server's.
            onError: (err) => setOutcome({ text: (err instanceof ApiError && err.serverMessage) || b.failed, tone: 'error' }),
          });
        }}
      >
        {resend.isPending ? b.sending : b.resend}
      </Button>
      <p role={live ? 'status' : undefined} className={cn('text-sm font-medium empty:hidden', outcome?.tone === 'error' ? 'text-danger' : 'text-success')}>
        {outcome?.text}
      </p>
    </div>
  );
}
