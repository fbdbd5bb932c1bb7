import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '#shared/paths';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { PasswordInput } from '../../../components/ui/password-input';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { storeAdminAccess } from '../../../lib/auth-storage';
import { t } from '../../../lib/i18n';
import { adminAccessRequest, resetAdminQueries } from '../api/admin-queries';

const a = t.auth.adminAccess;

/**
 * Admin Access (spec section 2): the server checks the credentials and elevates the session;
 * the browser only remembers that it succeeded.
 */
export function AdminAccessDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      toast({ title: a.missingTitle, description: a.missingBody, variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const { adminEmail } = await adminAccessRequest({ email: email.trim(), password });
      storeAdminAccess(adminEmail);
      void resetAdminQueries(queryClient);
      toast({ title: a.grantedTitle, description: a.grantedBody, variant: 'success' });
      setPassword('');
      onOpenChange(false);
      void navigate(paths.adminEmployers);
    } catch (err) {
      toast({ title: a.failedTitle, description: serverMessageOr(err, a.invalid), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={a.title} description={a.description}>
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <Field label={a.email}>
            <Input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} disabled={busy} />
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
            <Button variant="secondary" className="flex-1" onClick={() => onOpenChange(false)} disabled={busy}>
              {a.cancel}
            </Button>
            <Button type="submit" className="flex-1" disabled={busy}>
              {busy ? a.submitting : a.submit}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
