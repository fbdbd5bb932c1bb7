import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { type ForgotPasswordRequest, ForgotPasswordRequestSchema } from '#shared/schemas/account';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { FormField } from '../../../components/form-field';
import { t } from '../../../lib/i18n';
import { applyServerError } from '../../../lib/hook-form-errors';
import { useForgotPassword } from '../api/forgot-password';

const f = t.account.forgot;

/**
 * /forgot-password: asks for a reset link. The answer is the server's neutral sentence, the
 * same whether or not the address has an account; it takes focus in place of the form.
 */
export function ForgotPasswordPage() {
  const request = useForgotPassword();
  const [sent, setSent] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const message = useRef<HTMLDivElement>(null);
  const form = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(ForgotPasswordRequestSchema),
    defaultValues: { email: '' },
    reValidateMode: 'onSubmit',
  });
  const { isSubmitting } = form.formState;

  useEffect(() => {
    if (sent || generalError) message.current?.focus();
  }, [sent, generalError]);

  const onSubmit = form.handleSubmit(async (values) => {
    setGeneralError(null);
    try {
      setSent((await request.mutateAsync(values)).message);
    } catch (err) {
      setGeneralError(applyServerError(form, err, ['email'], f.failed).message);
    }
  });

  return (
    <PageLayout title={f.title}>
      <Card className="flex flex-col gap-5">
        <PageIntro title={f.title}>{f.subtitle}</PageIntro>
        {sent ? (
          <Alert ref={message} tabIndex={-1} variant="success">
            {sent}
          </Alert>
        ) : (
          <>
            {generalError && (
              <Alert ref={message} tabIndex={-1}>
                {generalError}
              </Alert>
            )}
            <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
              <FormField form={form} name="email" label={f.email}>
                <Input type="email" autoComplete="email" inputMode="email" />
              </FormField>
              <Button type="submit" size="lg" disabled={isSubmitting}>
                {isSubmitting ? f.submitting : f.submit}
              </Button>
            </form>
          </>
        )}
        <Button variant="link" asChild>
          <Link to={paths.login}>{f.toSignIn}</Link>
        </Button>
      </Card>
    </PageLayout>
  );
}

export default ForgotPasswordPage;
