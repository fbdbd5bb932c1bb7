import { type ChangeEvent, type FormEvent, Suspense, lazy, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { signIn as signInMessages } from '../../../lib/messages/sign-in';
import { common } from '../../../lib/messages/common';
import { paths } from '#shared/paths';
import type { SignInRequest } from '#shared/schemas/auth';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { ApiError } from '../../../lib/api-client';
import { storedToken } from '../../../lib/auth-storage';
import { formErrorOf } from '../../../lib/form-errors';
import { prerenderedValue, takePrerenderedInput } from '../../../lib/prerendered-input';
import { useAuth } from '../auth-context';
import { clearIdleSignOut, wasIdleSignOut } from '../idle-notice';
import { loadSignInValidation } from '../load-sign-in-validation';
import type { SignInFields } from '../sign-in-validation';
import { LanguageSwitcher } from '../../../components/language-switcher';

const s = signInMessages;
/** Spec section 9: go to Home about 100 ms after a successful sign-in. */
export const SIGN_IN_REDIRECT_MS = 100;
const fieldNames = ['email', 'password'] as const;
// Only accounts with two-step sign-in need the code step: it stays out of /login's first download.
const SignInCodeStep = lazy(() => import('./sign-in-code-step').then((m) => ({ default: m.SignInCodeStep })));

/**
 * Two fields in plain React state (react-hook-form would be a sixth of this screen's first
 * download): checked on submit with the shared SignInRequestSchema. The check (zod) is
 * fetched when the member first touches the form (focus, or a tap that focuses nothing, as
 * on iOS), not with the screen: a visit that only looks costs no zod.
 */
export function SignInPage() {
  const { signIn, signOut } = useAuth();
  const navigate = useNavigate();
  // A sentence handed over by the previous screen (a password reset), in router state.
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  // After an idle sign-out (auth-provider.tsx): said once, then forgotten.
  const [idleSignOut] = useState(wasIdleSignOut);
  useEffect(() => clearIdleSignOut(), []);
  const [values, setValues] = useState<SignInRequest>({ email: '', password: '' });
  const [errors, setErrors] = useState<SignInFields>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  // Two-step sign-in: the password was right and the same page now asks for the code.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [entryCleared, setEntryCleared] = useState(() => storedToken() === null);
  const submitting = useRef(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const errorSummary = useRef<HTMLDivElement>(null);
  // Where focus goes once the form is enabled again: a field in error, or the error summary.
  const focusNext = useRef<keyof SignInRequest | 'summary' | null>(null);

  const busy = pending || succeeded;
  // The first field in error, or the summary of a refused sign-in, takes focus once the
  // fields are enabled again (not the page body, where a disabled button left it).
  useEffect(() => {
    if (busy || !focusNext.current) return;
    const target = focusNext.current === 'summary' ? errorSummary : focusNext.current === 'email' ? emailInput : passwordInput;
    target.current?.focus();
    focusNext.current = null;
  }, [busy, errors, generalError]);

  /** A message for the whole form, which then takes focus. */
  const showGeneralError = (message: string) => {
    setGeneralError(message);
    focusNext.current = 'summary';
  };

  // Spec: entering /login clears the stored session (and we revoke it on the server).
  useEffect(() => {
    if (!entryCleared) void signOut().then(() => setEntryCleared(true));
  }, [entryCleared, signOut]);

  // Spec section 9: Home about 100 ms after a successful sign-in (not after leaving the screen).
  useEffect(() => {
    if (!succeeded) return undefined;
    const timer = setTimeout(() => void navigate(paths.home, { replace: true }), SIGN_IN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [succeeded, navigate]);

  /** Shows the field messages and moves focus to the first field in error. */
  const showFieldErrors = (fields: SignInFields) => {
    setErrors(fields);
    focusNext.current = fieldNames.find((name) => fields[name]) ?? null;
  };

  /** True when signed in: the form then stays busy until Home shows. */
  const submit = async (entered: SignInRequest): Promise<boolean> => {
    let check;
    try {
      check = (await loadSignInValidation()).validateSignIn(entered);
    } catch {
      // The check could not be fetched (offline): say so and let the member try again.
      showGeneralError(s.failedRetry);
      return false;
    }
    if (!check.ok) {
      showFieldErrors(check.fields);
      return false;
    }
    setGeneralError(null);
    try {
      const result = await signIn(check.data);
      if (result.status === 'mfa_required') {
        setChallenge(result.challenge);
        return false;
      }
      setSucceeded(true);
      return true;
    } catch (err) {
      if (err instanceof ApiError) {
        const { fields, message } = formErrorOf(err, fieldNames, s.failed);
        if (message) showGeneralError(message);
        else showFieldErrors(fields);
      } else {
        showGeneralError(err instanceof Error && err.message ? err.message : s.failedRetry);
      }
      return false;
    }
  };
  const start = (entered: SignInRequest) => {
    // Duplicate submits (double tap, Enter while busy) are ignored.
    if (submitting.current) return;
    submitting.current = true;
    setPending(true);
    void submit(entered).then((signedIn) => {
      submitting.current = signedIn;
      setPending(false);
    });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    start(values);
  };

  // Once on screen, in place of /login's drawn form (lib/prerendered-input.ts), before the first
  // paint: what was typed into it, the field the member was in, and a submit they asked for
  // before this code was here (it went nowhere then) are taken up; then it is forgotten.
  useLayoutEffect(() => {
    const drawn = { email: prerenderedValue('email'), password: prerenderedValue('password') };
    // eslint-disable-next-line react-hooks/set-state-in-effect -- read from the replaced drawn form (outside React) before the first paint
    if (drawn.email || drawn.password) setValues(drawn);
    const { focused, submitted } = takePrerenderedInput();
    if (focused === 'email') emailInput.current?.focus();
    else if (focused === 'password') passwordInput.current?.focus();
    if (submitted) start(drawn);
    // Once, on the first mount (later mounts find nothing drawn): `start` is this render's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Back from the code step to the password (the challenge is gone, or the member chose to). */
  const restart = (message: string) => {
    setChallenge(null);
    setValues((v) => ({ ...v, password: '' }));
    setGeneralError(message || null);
    setErrors({});
    focusNext.current = 'password';
  };

  const fetchCheck = () => void loadSignInValidation().catch(() => undefined);

  const field = (name: keyof SignInRequest) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.target;
      setValues((v) => ({ ...v, [name]: value }));
      // An edited field's message goes; the form is checked again on the next submit.
      setErrors(({ [name]: _edited, ...rest }) => rest);
    },
    disabled: busy,
  });

  return (
    <PageLayout title={s.title}>
      <Card className="flex flex-col gap-5">
        <PageIntro title={s.title}>{s.subtitle}</PageIntro>
        {typeof notice === 'string' && !generalError && <Alert variant="success">{notice}</Alert>}
        {idleSignOut && !generalError && <Alert variant="info">{common.idle.signedOut}</Alert>}
        {generalError && (
          <Alert ref={errorSummary} tabIndex={-1} data-testid="sign-in-error">
            {generalError}
          </Alert>
        )}
        {challenge && (
          <Suspense fallback={null}>
            <SignInCodeStep challenge={challenge} onSignedIn={() => setSucceeded(true)} onRestart={restart} />
          </Suspense>
        )}
        {/* method="dialog": the form in /login's HTML, before this code is here, sends nothing anywhere (a plain submit would put the password in the address). */}
        <form
          method="dialog"
          className="flex flex-col gap-4"
          hidden={challenge !== null}
          onSubmit={onSubmit}
          onFocus={fetchCheck}
          onPointerDown={fetchCheck}
          noValidate
        >
          <Field label={s.email} error={errors.email}>
            <Input ref={emailInput} type="email" autoComplete="email" inputMode="email" {...field('email')} />
          </Field>
          <Field label={s.password} error={errors.password}>
            <Input ref={passwordInput} type="password" autoComplete="current-password" {...field('password')} />
          </Field>
          <Button variant="link" size="sm" className="-mt-2 self-end" asChild>
            <Link to={paths.forgotPassword}>{s.forgotPassword}</Link>
          </Button>
          <Button type="submit" size="lg" disabled={busy}>
            {busy ? s.submitting : s.submit}
          </Button>
        </form>
        <Button variant="link" asChild>
          <Link to={paths.register}>{s.toRegister}</Link>
        </Button>
        <LanguageSwitcher />
      </Card>
    </PageLayout>
  );
}
