import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { paths } from '#shared/paths';
import { type ResetPasswordForm, ResetPasswordFormSchema } from '#shared/schemas/account';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PasswordInput } from '../../../components/ui/password-input';
import { FormField } from '../../../components/form-field';
import { t } from '../../../lib/i18n';
import { applyServerError } from '../../../lib/hook-form-errors';
import { useResetPassword } from '../api/reset-password';
import { useLinkToken } from '../use-link-token';

const r = t.account.reset;

/** What the sign-in screen shows after a reset (router state, never the URL). */
export interface SignInNotice {
  notice: string;
}

/**
 * /reset-password?token=...: a new password, typed twice, for the link's account (a reset or
 * the bootstrap administrator's set-password link). The policy's refusal lands on the field;
 * a link that no longer works says so with the way to a new one. Success goes to sign-in.
 */
export function ResetPasswordPage() {
  const token = useLinkToken();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [linkError, setLinkError] = useState<string | null>(token ? null : t.account.validation.tokenMissing);
  const message = useRef<HTMLDivElement>(null);
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(ResetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
    reValidateMode: 'onSubmit',
  });
  const { isSubmitting } = form.formState;

  useEffect(() => {
    if (linkError && token) message.current?.focus();
  }, [linkError, token]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (!token) return;
    setLinkError(null);
    try {
      await reset.mutateAsync({ token, password: values.password });
      const state: SignInNotice = { notice: r.done };
      await navigate(paths.login, { replace: true, state });
    } catch (err) {
      // A field message (the password policy) goes under the field; the rest is about the link.
      setLinkError(applyServerError(form, err, ['password'], r.failed).message);
    }
  });

  return (
    <PageLayout title={r.title}>
      <Card className="flex flex-col gap-5">
        <PageIntro title={r.title}>{r.subtitle}</PageIntro>
        {linkError && (
          <div className="flex flex-col gap-3">
            <Alert ref={message} tabIndex={-1}>
              {linkError}
            </Alert>
            <Button variant="secondary" asChild>
              <Link to={paths.forgotPassword}>{r.newLink}</Link>
            </Button>
          </div>
        )}
        {token && (
          <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
            <FormField form={form} name="password" label={r.password} hint={r.hint}>
              <PasswordInput autoComplete="new-password" showLabel={t.account.showPassword} hideLabel={t.account.hidePassword} />
            </FormField>
            <FormField form={form} name="confirmPassword" label={r.confirm}>
              <PasswordInput autoComplete="new-password" showLabel={t.account.showPassword} hideLabel={t.account.hidePassword} />
            </FormField>
            <Button type="submit" size="lg" disabled={isSubmitting}>
              {isSubmitting ? r.submitting : r.submit}
            </Button>
          </form>
        )}
      </Card>
    </PageLayout>
  );
}

export default ResetPasswordPage;
