import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { type ChangePasswordForm as ChangePasswordValues, ChangePasswordFormSchema } from '#shared/schemas/account';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PasswordInput } from '../../../components/ui/password-input';
import { FormField } from '../../../components/form-field';
import { t } from '../../../lib/i18n';
import { applyServerError } from '../../../lib/hook-form-errors';
import { useAuth } from '../../auth/auth-context';
import { useChangePassword } from '../api/change-password';

const c = t.account.changePassword;
const empty: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Security > Change password: the current password, then the new one twice. A refusal lands
 * on its field (which takes focus); the outcome sentence takes focus otherwise.
 */
export function ChangePasswordCard() {
  const { user } = useAuth();
  const change = useChangePassword();
  const [outcome, setOutcome] = useState<{ text: string; ok: boolean } | null>(null);
  const message = useRef<HTMLDivElement>(null);
  const form = useForm<ChangePasswordValues>({
    resolver: zodResolver(ChangePasswordFormSchema),
    defaultValues: empty,
    reValidateMode: 'onSubmit',
  });
  const { isSubmitting } = form.formState;

  useEffect(() => {
    if (outcome) message.current?.focus();
  }, [outcome]);

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setOutcome(null);
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      form.reset(empty);
      setOutcome({ text: c.done, ok: true });
    } catch (err) {
      const general = applyServerError(form, err, ['currentPassword', 'newPassword'], c.failed).message;
      if (general) setOutcome({ text: general, ok: false });
    }
  });

  // Editing a field also clears the last outcome.
  const options = { onChange: () => setOutcome(null) };

  return (
    <Card className="flex flex-col gap-4" aria-labelledby="change-password-title">
      <h2 id="change-password-title" className="text-lg font-bold text-ink">
        {c.title}
      </h2>
      {outcome && (
        <Alert ref={message} tabIndex={-1} variant={outcome.ok ? 'success' : 'danger'}>
          {outcome.text}
        </Alert>
      )}
      <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="change-password-title">
        {/* The account's email for password managers, which file the new password under it. */}
        <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <FormField form={form} name="currentPassword" label={c.current} options={options}>
          <PasswordInput autoComplete="current-password" showLabel={t.account.showPassword} hideLabel={t.account.hidePassword} />
        </FormField>
        <FormField form={form} name="newPassword" label={c.next} hint={c.hint} options={options}>
          <PasswordInput autoComplete="new-password" showLabel={t.account.showPassword} hideLabel={t.account.hidePassword} />
        </FormField>
        <FormField form={form} name="confirmPassword" label={c.confirm} options={options}>
          <PasswordInput autoComplete="new-password" showLabel={t.account.showPassword} hideLabel={t.account.hidePassword} />
        </FormField>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? c.submitting : c.submit}
        </Button>
      </form>
    </Card>
  );
}
