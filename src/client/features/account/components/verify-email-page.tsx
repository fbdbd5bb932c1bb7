import { CircleCheck, CircleX } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ApiError } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { refreshMe } from '../../../lib/me-query';
import { useAuth } from '../../auth/auth-context';
import { useAccountStatus } from '../api/get-account-status';
import { verifyEmail } from '../api/verify-email';
import { useLinkToken } from '../use-link-token';
import { ResendVerification } from './resend-verification';

const v = t.account.verifyPage;

type Outcome = { kind: 'verifying' } | { kind: 'verified' } | { kind: 'failed'; message: string };

/** The way on: Home when signed in, sign-in otherwise. */
function WayOn() {
  const { isAuthenticated } = useAuth();
  return (
    <Button size="lg" asChild>
      <Link to={isAuthenticated ? paths.home : paths.login}>{isAuthenticated ? v.continueHome : v.signIn}</Link>
    </Button>
  );
}

/** A link that did not work: signed in, a new one is a button away; signed out, after signing in. */
function FailedLink({ message }: { message: string }) {
  const { isAuthenticated } = useAuth();
  const status = useAccountStatus({ enabled: isAuthenticated });
  if (isAuthenticated && status.data?.emailVerified) {
    return (
      <>
        <Alert variant="success">{v.alreadyVerified}</Alert>
        <WayOn />
      </>
    );
  }
  return (
    <>
      <Alert>{message}</Alert>
      {isAuthenticated ? (
        <ResendVerification />
      ) : (
        <div className="flex flex-col gap-2">
          <Button size="lg" asChild>
            <Link to={paths.login}>{v.signInToResend}</Link>
          </Button>
          <p className="text-sm text-muted">{v.signInToResendHint}</p>
        </div>
      )}
    </>
  );
}

/**
 * /verify-email?token=...: confirms the address from the emailed link, signed in or not. The
 * token leaves the address bar at once; the answer's heading takes focus.
 */
export function VerifyEmailPage() {
  const token = useLinkToken();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>(() => (token ? { kind: 'verifying' } : { kind: 'failed', message: t.account.validation.tokenMissing }));
  const started = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Once, even when React runs effects twice (a second post would find the link used), and
    // with a plain promise: a mutation's callbacks would be lost with that first observer.
    if (!token || started.current) return;
    started.current = true;
    verifyEmail({ token }).then(
      () => {
        setOutcome({ kind: 'verified' });
        // The app's first session read, sent with this page, may have been answered before
        // the link was used: without a fresh read, Home's banner would stay.
        void refreshMe(queryClient);
      },
      (err: unknown) => setOutcome({ kind: 'failed', message: (err instanceof ApiError && err.serverMessage) || v.retry }),
    );
  }, [token, queryClient]);

  useEffect(() => {
    if (outcome.kind !== 'verifying') heading.current?.focus();
  }, [outcome.kind]);

  return (
    <PageLayout title={v.title}>
      <Card className="flex flex-col gap-5">
        {outcome.kind === 'verifying' && (
          <p role="status" className="py-6 text-center text-muted">
            {v.verifying}
          </p>
        )}
        {outcome.kind === 'verified' && (
          <>
            <div className="flex flex-col items-center gap-3 py-2 text-center">
              <span className="flex size-14 items-center justify-center rounded-full bg-success-soft text-success">
                <CircleCheck className="size-8" aria-hidden />
              </span>
              <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-ink">
                {v.verified}
              </h1>
              <p className="text-muted">{v.verifiedBody}</p>
            </div>
            <WayOn />
          </>
        )}
        {outcome.kind === 'failed' && (
          <>
            <div className="flex items-center gap-3">
              <CircleX className="size-8 shrink-0 text-danger" aria-hidden />
              <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-ink">
                {v.failedTitle}
              </h1>
            </div>
            <FailedLink message={outcome.message} />
          </>
        )}
      </Card>
    </PageLayout>
  );
}

export default VerifyEmailPage;
