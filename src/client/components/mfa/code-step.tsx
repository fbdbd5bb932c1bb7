import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { mfa } from '../../lib/messages/mfa';
import { ApiError } from '../../lib/api-client';
import { Button } from '../ui/button';
import { AuthCodeField } from './auth-code-field';

const f = mfa.factor;

interface CodeStepProps {
  /**
   * Sends the code. Resolve when it was accepted (the step then stays disabled while the parent
   * moves on); throw otherwise. A refusal of the code itself, an ApiError with `fields.code`
   * (sign-in, Admin Access and Security all answer so), lands under the field; anything else
   * goes to `onError`.
   */
  onVerify(code: string): Promise<unknown>;
  /** Any failure other than a refused code (the challenge expired, the network, ...). */
  onError(err: unknown): void;
  /**
   * Offer "Use a recovery code" (which only changes the keyboard: the server tells a recovery
   * code from an app code by its shape). Off at a first set-up: there are no recovery codes yet.
   */
  allowRecovery?: boolean;
  /** Focus the field on arrival; off when something above it takes focus first (the QR's heading). */
  autoFocus?: boolean;
  /** The way back ("Start over", "Back to sign in"), beside Verify. */
  back?: { label: string; onClick(): void };
  disabled?: boolean;
  /** Shown above the field (a set-up's QR code and key). */
  children?: ReactNode;
}

/**
 * The code step of every second-factor screen (the Admin Access dialog and two-step sign-in):
 * "Authentication code", a toggle to a recovery code (a text keyboard instead of the numeric
 * keypad: recovery codes have letters) and "Verify". An empty field is refused here; a refused
 * code empties the field and puts its message under it; the field takes focus on arrival, on
 * switching keyboards and after a refusal once it is enabled again (its message is read with it).
 */
export function CodeStep({ onVerify, onError, allowRecovery = true, autoFocus = true, back, disabled = false, children }: CodeStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [recovery, setRecovery] = useState(false);
  const [pending, setPending] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const busy = disabled || pending || accepted;
  const wantsFocus = useRef(autoFocus);

  useEffect(() => {
    if (busy || !wantsFocus.current) return;
    input.current?.focus();
  }, [busy, recovery, error]);

  const toggleRecovery = () => {
    wantsFocus.current = true;
    setRecovery((r) => !r);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    wantsFocus.current = true;
    const typed = code.trim();
    if (!typed) {
      setError(mfa.validation.codeRequired);
      input.current?.focus();
      return;
    }
    setPending(true);
    try {
      await onVerify(typed);
      setAccepted(true);
    } catch (err) {
      if (err instanceof ApiError && err.fields?.code) {
        setCode('');
        setError(err.fields.code);
      } else {
        onError(err);
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)} noValidate>
      {children}
      <div className="flex flex-col gap-1">
        <AuthCodeField
          inputRef={input}
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(undefined);
          }}
          error={error}
          hint={recovery ? f.recoveryHint : allowRecovery ? f.codeHintWithRecovery : f.codeHint}
          recovery={recovery}
          disabled={busy}
        />
        {allowRecovery && (
          <Button variant="link" size="sm" className="self-start px-0" onClick={toggleRecovery} disabled={busy}>
            {recovery ? f.useApp : f.useRecovery}
          </Button>
        )}
      </div>
      <div className="flex gap-3">
        {back && (
          <Button variant="secondary" className="flex-1" onClick={back.onClick} disabled={busy}>
            {back.label}
          </Button>
        )}
        <Button type="submit" className="flex-1" disabled={busy}>
          {pending || accepted ? f.verifying : f.verify}
        </Button>
      </div>
    </form>
  );
}
