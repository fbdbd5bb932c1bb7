import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '#shared/paths';
import { CodeStep } from '../../../components/mfa/code-step';
import { RecoveryCodes } from '../../../components/mfa/recovery-codes';
import { TotpSetup } from '../../../components/mfa/totp-setup';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { PasswordInput } from '../../../components/ui/password-input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, serverMessageOr } from '../../../lib/api-client';
import { storeAdminAccess } from '../../../lib/auth-storage';
import { t } from '../../../lib/i18n';
import { useAuth } from '../../auth/auth-context';
import { useConfig } from '../../config/use-config';
import { adminAccessRequest, resetAdminQueries } from '../api/request-admin-access';

const a = t.auth.adminAccess;
const x = t.mfa.adminAccess;

/** Where the dialog is: the credentials, the code (after scanning a QR on first set-up), the recovery codes once. */
type Step =
  | { name: 'credentials' }
  | { name: 'code'; setup?: { secret: string; otpauthUrl: string } }
  | { name: 'recovery'; recoveryCodes: string[] };

/**
 * Admin Access (spec section 2, with the second factor of docs/decisions/admin-mfa.md): email
 * and password; then, for an admin without a factor, a QR code and its setup key to scan;
 * then the authentication code. The server answers a NEW elevated token (the old one is
 * revoked), which replaces the stored one together with `admin_access` and the admin email.
 * On first set-up the recovery codes are shown once before the dashboard.
 */
export function AdminAccessDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { replaceToken } = useAuth();
  const { brandName } = useConfig();
  const [step, setStep] = useState<Step>({ name: 'credentials' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const startedOver = useRef(false);
  const adminEmail = email.trim().toLowerCase();

  // Each step puts focus where it starts: the QR's instructions, the code field (CodeStep), the recovery codes' heading.
  useEffect(() => {
    if (step.name === 'credentials') {
      if (startedOver.current) emailInput.current?.focus();
      startedOver.current = false;
      return;
    }
    if (step.name === 'recovery' || step.setup) stepHeading.current?.focus();
  }, [step]);

  const reset = () => {
    setStep({ name: 'credentials' });
    setPassword('');
  };

  const changeOpen = (next: boolean) => {
    if (!next) reset();
    onOpenChange(next);
  };

  const finish = () => {
    toast({ title: a.grantedTitle, description: a.grantedBody, variant: 'success' });
    changeOpen(false);
    void navigate(paths.adminEmployers);
  };

  async function submitCredentials(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      toast({ title: a.missingTitle, description: a.missingBody, variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const answer = await adminAccessRequest({ email: email.trim(), password });
      if (answer.status === 'mfa_setup') setStep({ name: 'code', setup: { secret: answer.secret, otpauthUrl: answer.otpauthUrl } });
      else if (answer.status === 'mfa_required') setStep({ name: 'code' });
    } catch (err) {
      toast({ title: a.failedTitle, description: serverMessageOr(err, a.invalid), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  /** The code step's Verify: throws a refused code back to CodeStep, which puts it under the field. */
  async function verifyCode(code: string) {
    const answer = await adminAccessRequest({ email: email.trim(), password, code });
    if (answer.status !== 'granted') throw new Error(a.invalid);
    // The session that asked is revoked: from here on only the new token works.
    replaceToken(answer.token);
    storeAdminAccess(adminEmail);
    void resetAdminQueries(queryClient);
    setPassword('');
    if (answer.recoveryCodes?.length) setStep({ name: 'recovery', recoveryCodes: answer.recoveryCodes });
    else finish();
  }

  const codeFailed = (err: unknown) => {
    // Not the server's answer (storage refused the new token): say what happened.
    const description = err instanceof ApiError ? serverMessageOr(err, a.invalid) : err instanceof Error && err.message ? err.message : a.invalid;
    toast({ title: a.failedTitle, description, variant: 'destructive' });
  };

  // The recovery codes must be seen: no closing by Escape, outside click or the corner button there.
  const mustAnswer = step.name === 'recovery';
  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent
        title={a.title}
        description={step.name === 'credentials' ? a.description : step.name === 'code' && !step.setup ? x.requiredBody : undefined}
        hideClose={mustAnswer}
        // The dialog opens on its first question, the email, not on the corner close button.
        onOpenAutoFocus={(event) => {
          if (step.name !== 'credentials') return;
          event.preventDefault();
          emailInput.current?.focus();
        }}
        onEscapeKeyDown={(event) => mustAnswer && event.preventDefault()}
        onPointerDownOutside={(event) => mustAnswer && event.preventDefault()}
        onInteractOutside={(event) => mustAnswer && event.preventDefault()}
      >
        {step.name === 'credentials' && (
          <form className="flex flex-col gap-4" onSubmit={(event) => void submitCredentials(event)} noValidate>
            <Field label={a.email}>
              <Input ref={emailInput} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} disabled={busy} />
            </Field>
            <Field label={a.password}>
              <PasswordInput
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                disabled={busy}
                showLabel={a.showPassword}
                hideLabel={a.hidePassword}
              />
            </Field>
            <div className="flex gap-3">
              <Button variant="secondary" className="flex-1" onClick={() => changeOpen(false)} disabled={busy}>
                {a.cancel}
              </Button>
              <Button type="submit" className="flex-1" disabled={busy}>
                {busy ? a.submitting : a.submit}
              </Button>
            </div>
          </form>
        )}

        {step.name === 'code' && (
          <CodeStep
            onVerify={verifyCode}
            onError={codeFailed}
            // A first set-up has no recovery codes yet; the QR's heading takes focus then.
            allowRecovery={!step.setup}
            autoFocus={!step.setup}
            back={{
              label: x.startOver,
              onClick: () => {
                startedOver.current = true;
                reset();
              },
            }}
          >
            {step.setup && <TotpSetup secret={step.setup.secret} otpauthUrl={step.setup.otpauthUrl} headingRef={stepHeading} />}
          </CodeStep>
        )}

        {step.name === 'recovery' && (
          <>
            <RecoveryCodes codes={step.recoveryCodes} brandName={brandName} email={adminEmail} headingRef={stepHeading} />
            <Button onClick={finish}>{x.continueToDashboard}</Button>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
