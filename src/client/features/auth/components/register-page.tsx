import { zodResolver } from '@hookform/resolvers/zod';
import { type FormEvent, useEffect, useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { type RegisterRequest, RegisterRequestSchema } from '#shared/schemas/auth';
import { paths } from '#shared/paths';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { FormField } from '../../../components/form-field';
import { ApiError } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { applyServerError, useFocusAfterSubmit } from '../../../lib/hook-form-errors';
import { registerRequest } from '../api/register';
import { EmployerCombobox } from './employer-combobox';
import { LanguageSwitcher } from '../../../components/language-switcher';

const r = t.auth.register;
/** Spec section 9: back to sign-in 2 seconds after registering. */
export const REGISTER_REDIRECT_MS = 2000;
const fieldNames = ['firstName', 'lastName', 'email', 'company', 'lhmpId', 'password'] as const;

export function RegisterPage() {
  const navigate = useNavigate();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [succeeded, setSucceeded] = useState(false);
  const form = useForm<RegisterRequest>({
    resolver: zodResolver(RegisterRequestSchema),
    defaultValues: { firstName: '', lastName: '', email: '', company: '', lhmpId: '', password: '' },
    reValidateMode: 'onSubmit',
    // The fields are disabled while the form submits, so focus moves once they are enabled again.
    shouldFocusError: false,
  });
  const { isSubmitting } = form.formState;
  const locked = isSubmitting || succeeded;
  const focusLater = useFocusAfterSubmit(form, locked);

  useEffect(() => {
    if (!succeeded) return undefined;
    const timer = setTimeout(() => void navigate(paths.login), REGISTER_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [succeeded, navigate]);

  const onValid = async (values: RegisterRequest) => {
    setGeneralError(null);
    try {
      await registerRequest(values);
      setSucceeded(true);
    } catch (err) {
      // No answer at all: nothing was sent, so "try again" is the advice.
      setGeneralError(applyServerError(form, err, fieldNames, err instanceof ApiError ? r.failed : r.failedRetry, focusLater).message);
    }
  };
  const onInvalid = (fieldErrors: FieldErrors<RegisterRequest>) => {
    setGeneralError(null);
    // The first field in error, in screen order.
    const first = fieldNames.find((name) => fieldErrors[name]);
    if (first) focusLater(first);
  };
  const onSubmit = (event: FormEvent) => void form.handleSubmit(onValid, onInvalid)(event);

  return (
    <PageLayout title={r.title}>
      <Card className="flex flex-col gap-5">
        <PageIntro title={r.title}>{r.subtitle}</PageIntro>
        {succeeded && <Alert variant="success">{r.success}</Alert>}
        {generalError && <Alert>{generalError}</Alert>}
        <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
          <div className="grid grid-cols-1 gap-4 min-[400px]:grid-cols-2">
            <FormField form={form} name="firstName" label={r.firstName} disabled={locked}>
              <Input autoComplete="given-name" />
            </FormField>
            <FormField form={form} name="lastName" label={r.lastName} disabled={locked}>
              <Input autoComplete="family-name" />
            </FormField>
          </div>
          <FormField form={form} name="email" label={r.email} disabled={locked}>
            <Input type="email" autoComplete="email" inputMode="email" />
          </FormField>
          <FormField form={form} name="company" label={r.company} disabled={locked}>
            <EmployerCombobox
              autoComplete="off"
              onChoose={(name) => {
                form.setValue('company', name);
                form.clearErrors('company');
              }}
            />
          </FormField>
          <FormField form={form} name="lhmpId" label={r.lhmpId} hint={r.lhmpIdHint} disabled={locked}>
            <Input maxLength={7} placeholder={r.lhmpIdPlaceholder} autoCapitalize="characters" autoComplete="off" />
          </FormField>
          <FormField form={form} name="password" label={r.password} hint={r.passwordHint} disabled={locked}>
            <Input type="password" autoComplete="new-password" />
          </FormField>
          <Button type="submit" size="lg" disabled={locked}>
            {isSubmitting ? r.submitting : r.submit}
          </Button>
        </form>
        <Button variant="link" asChild>
          <Link to={paths.login}>{r.toSignIn}</Link>
        </Button>
        <LanguageSwitcher />
      </Card>
    </PageLayout>
  );
}
