import { type FormEvent, useEffect, useRef, useState } from 'react';
import { AuthCodeField } from '../../../components/mfa/auth-code-field';
import { RecoveryCodes } from '../../../components/mfa/recovery-codes';
import { TotpSetup } from '../../../components/mfa/totp-setup';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import { Skeleton } from '../../../components/ui/skeleton';
import { formErrorOf } from '../../../lib/form-errors';
import { t } from '../../../lib/i18n';
import { useAuth } from '../../auth/auth-context';
import { useConfig } from '../../config/use-config';
import { useConfirmTwoStep, useDisableTwoStep, useStartTwoStepSetup, useTwoStepStatus } from '../api/two-step';
import { format } from '../../../lib/language';

const s = t.mfa.security;
const f = t.mfa.factor;

type View =
  | { name: 'status' }
  | { name: 'password' }
  | { name: 'setup'; secret: string; otpauthUrl: string }
  | { name: 'recovery'; codes: string[] }
  | { name: 'disable' };

interface Errors {
  password?: string | undefined;
  code?: string | undefined;
  general?: string | undefined;
}

/** A refusal's field messages, else its sentence. */
function errorsOf(err: unknown): Errors {
  const { fields, message } = formErrorOf(err, ['password', 'code'], s.failed);
  return message ? { general: message } : fields;
}

/**
 * Security > Two-step sign-in: turn it on (password, then a QR code and setup key to scan,
 * then a code; the recovery codes are shown once) or off (password and a code). Focus goes to
 * what each step starts with; refusals land under their field, which takes focus.
 */
export function TwoStepSignInCard() {
  const { user } = useAuth();
  const { brandName } = useConfig();
  const status = useTwoStepStatus();
  const start = useStartTwoStepSetup();
  const confirm = useConfirmTwoStep();
  const disable = useDisableTwoStep();
  const [view, setView] = useState<View>({ name: 'status' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<string | null>(null);
  /** Turning off: a recovery code is typed on a text keyboard (the numeric keypad has no letters). */
  const [recovery, setRecovery] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const message = useRef<HTMLDivElement>(null);
  const busy = start.isPending || confirm.isPending || disable.isPending;

  useEffect(() => {
    if (view.name === 'password' || view.name === 'disable') passwordInput.current?.focus();
    else if (view.name === 'setup' || view.name === 'recovery') stepHeading.current?.focus();
  }, [view]);
  useEffect(() => {
    if (busy) return;
    if (errors.password) passwordInput.current?.focus();
    else if (errors.code) codeInput.current?.focus();
  }, [errors, busy]);
  useEffect(() => {
    if (outcome) message.current?.focus();
  }, [outcome]);

  const go = (next: View) => {
    setPassword('');
    setCode('');
    setErrors({});
    setOutcome(null);
    setRecovery(false);
    setView(next);
  };
  const backToStatus = (text: string | null) => {
    go({ name: 'status' });
    setOutcome(text);
    if (!text) setTimeout(() => heading.current?.focus(), 0);
  };

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setErrors({ password: t.mfa.validation.passwordRequired });
    start.mutate(
      { password },
      { onSuccess: (offer) => go({ name: 'setup', ...offer }), onError: (err) => setErrors(errorsOf(err)) },
    );
  };
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setErrors({ code: t.mfa.validation.codeRequired });
    confirm.mutate(
      { code: code.trim() },
      {
        onSuccess: ({ recoveryCodes }) => go({ name: 'recovery', codes: recoveryCodes }),
        onError: (err) => {
          setCode('');
          setErrors(errorsOf(err));
        },
      },
    );
  };
  const submitDisable = (event: FormEvent) => {
    event.preventDefault();
    const missing = { password: password ? undefined : t.mfa.validation.passwordRequired, code: code.trim() ? undefined : t.mfa.validation.codeRequired };
    if (missing.password || missing.code) return setErrors(missing);
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: () => backToStatus(s.turnedOff),
        onError: (err) => {
          setCode('');
          setErrors(errorsOf(err));
        },
      },
    );
  };

  const passwordField = (
    <Field label={s.password} hint={view.name === 'password' ? s.passwordHint : undefined} error={errors.password}>
      <PasswordInput
        ref={passwordInput}
        autoComplete="current-password"
        value={password}
        disabled={busy}
        onChange={(e) => {
          setPassword(e.target.value);
          setErrors(({ password: _gone, ...rest }) => rest);
        }}
        showLabel={t.account.showPassword}
        hideLabel={t.account.hidePassword}
      />
    </Field>
  );
  const codeField = (hint?: string, recoveryCode = false) => (
    <AuthCodeField
      inputRef={codeInput}
      value={code}
      hint={hint}
      recovery={recoveryCode}
      onChange={(value) => {
        setCode(value);
        setErrors(({ code: _gone, ...rest }) => rest);
      }}
      error={errors.code}
      disabled={busy}
    />
  );
  const cancel = (
    <Button variant="secondary" className="flex-1" onClick={() => backToStatus(null)} disabled={busy}>
      {s.cancel}
    </Button>
  );
  const data = status.data;

  return (
    <Card className="flex flex-col gap-4" aria-labelledby="two-step-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 ref={heading} id="two-step-title" tabIndex={-1} className="text-lg font-bold text-ink outline-none">
          {s.title}
        </h2>
        {data && <Badge variant={data.enabled ? 'success' : 'neutral'}>{data.enabled ? s.on : s.off}</Badge>}
      </div>
      {outcome && (
        <Alert ref={message} tabIndex={-1} variant="success">
          {outcome}
        </Alert>
      )}
      {errors.general && <Alert>{errors.general}</Alert>}

      {view.name === 'status' && (
        <>
          <p className="text-sm text-muted">{s.intro}</p>
          {status.isPending && <Skeleton className="h-12 w-full" />}
          {status.isError && <Alert>{s.loadFailed}</Alert>}
          {data && !data.enabled && (
            <>
              <p className="text-sm text-ink">{s.statusOff}</p>
              <Button onClick={() => go({ name: 'password' })}>{s.turnOn}</Button>
            </>
          )}
          {data?.enabled && (
            <>
              <p className="text-sm text-ink">
                {data.enabledAt ? s.statusOn(format.date(data.enabledAt)) : s.statusOn('')} {s.recoveryLeft(data.recoveryCodesLeft)}
              </p>
              {data.canDisable ? (
                <Button variant="secondary" onClick={() => go({ name: 'disable' })}>
                  {s.turnOff}
                </Button>
              ) : (
                <p className="text-sm text-muted">{s.adminNote}</p>
              )}
            </>
          )}
        </>
      )}

      {view.name === 'password' && (
        <form className="flex flex-col gap-4" onSubmit={submitPassword} noValidate aria-labelledby="two-step-title">
          <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
          {passwordField}
          <div className="flex gap-3">
            {cancel}
            <Button type="submit" className="flex-1" disabled={busy}>
              {s.continue}
            </Button>
          </div>
        </form>
      )}

      {view.name === 'setup' && (
        <form className="flex flex-col gap-4" onSubmit={submitCode} noValidate aria-labelledby="two-step-title">
          <TotpSetup secret={view.secret} otpauthUrl={view.otpauthUrl} headingRef={stepHeading} />
          {codeField(f.codeHint)}
          <div className="flex gap-3">
            {cancel}
            <Button type="submit" className="flex-1" disabled={busy}>
              {busy ? f.verifying : f.verify}
            </Button>
          </div>
        </form>
      )}

      {view.name === 'recovery' && (
        <>
          <RecoveryCodes codes={view.codes} brandName={brandName} email={user?.email ?? ''} headingRef={stepHeading} />
          <Button onClick={() => backToStatus(s.turnedOn)}>{s.done}</Button>
        </>
      )}

      {view.name === 'disable' && (
        <form className="flex flex-col gap-4" onSubmit={submitDisable} noValidate aria-labelledby="two-step-title">
          <p className="text-sm text-muted">{s.offConfirm}</p>
          <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
          {passwordField}
          <div className="flex flex-col gap-1">
            {codeField(recovery ? f.recoveryHint : f.codeHintWithRecovery, recovery)}
            <Button
              variant="link"
              size="sm"
              className="self-start px-0"
              onClick={() => {
                setRecovery((r) => !r);
                codeInput.current?.focus();
              }}
              disabled={busy}
            >
              {recovery ? f.useApp : f.useRecovery}
            </Button>
          </div>
          <div className="flex gap-3">
            {cancel}
            <Button type="submit" variant="danger" className="flex-1" disabled={busy}>
              {s.turnOff}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
