import { useState } from 'react';
import { signIn } from '../../../lib/messages/sign-in';
import { mfa } from '../../../lib/messages/mfa';
import { CodeStep } from '../../../components/mfa/code-step';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../auth-context';

const c = mfa.signIn;

interface SignInCodeStepProps {
  challenge: string;
  /** Signed in: the page goes Home as after a password sign-in. */
  onSignedIn(): void;
  /** The challenge is gone (expired, used, too many wrong codes): back to the password, with why. */
  onRestart(message: string): void;
}

/**
 * The second step of sign-in for an account with two-step sign-in: the shared code step (the
 * code from the authenticator app, or a recovery code with the keyboard for it). A challenge
 * that is gone sends the member back to the password with the reason; anything else is said
 * above the form.
 */
export function SignInCodeStep({ challenge, onSignedIn, onRestart }: SignInCodeStepProps) {
  const { completeMfaSignIn } = useAuth();
  const [generalError, setGeneralError] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-bold text-ink">{c.title}</h2>
        <p className="text-sm text-muted">{c.body}</p>
      </div>
      {generalError && <Alert>{generalError}</Alert>}
      <CodeStep
        onVerify={async (code) => {
          setGeneralError(null);
          await completeMfaSignIn(challenge, code);
          onSignedIn();
        }}
        onError={(err) => {
          if (err instanceof ApiError && err.code === 'unauthenticated') onRestart(err.serverMessage ?? mfa.server.challengeExpired);
          else if (err instanceof ApiError) setGeneralError(err.serverMessage ?? signIn.failedRetry);
          // Not an answer from the server: the network, or storage refusing the session.
          else setGeneralError(err instanceof Error && err.message ? err.message : signIn.failedRetry);
        }}
        back={{ label: c.startOver, onClick: () => onRestart('') }}
      />
    </div>
  );
}
