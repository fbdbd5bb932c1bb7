import { LogOut, MonitorSmartphone } from 'lucide-react';
import { type RefObject, useRef, useState } from 'react';
import type { AccountSession } from '#shared/schemas/account';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { t } from '../../../lib/i18n';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import { format } from '../../../lib/language';

const d = t.account.devices;

const deviceName = (s: AccountSession) => s.device ?? t.account.device.unknown;

/** What a confirmation is about: one other device, or all of them. */
type Pending = { kind: 'one'; session: AccountSession } | { kind: 'others' };

/**
 * Confirms a sign-out in the app's own dialog. Cancel returns focus to the button that opened
 * it; once the device is gone (its button with it), focus goes to the list's heading.
 */
function ConfirmSignOut({ pending, onClose, heading }: { pending: Pending | null; onClose: () => void; heading: RefObject<HTMLHeadingElement | null> }) {
  const revokeOne = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const done = useRef(false);
  const busy = revokeOne.isPending || revokeOthers.isPending;
  const finish = (title: string, variant: 'success' | 'destructive') => {
    done.current = variant === 'success';
    toast({ title, variant });
    onClose();
  };
  const confirm = () => {
    if (pending?.kind === 'one') {
      revokeOne.mutate(pending.session.id, { onSuccess: () => finish(d.signedOut, 'success'), onError: () => finish(d.failed, 'destructive') });
    } else if (pending?.kind === 'others') {
      revokeOthers.mutate(undefined, { onSuccess: ({ revoked }) => finish(d.signedOutOthers(revoked), 'success'), onError: () => finish(d.failed, 'destructive') });
    }
  };
  return (
    <Dialog open={pending !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent
        title={pending?.kind === 'others' ? d.confirmOthersTitle : d.confirmTitle}
        description={pending?.kind === 'one' ? d.confirmBody(deviceName(pending.session)) : d.confirmOthersBody}
        hideClose
        onCloseAutoFocus={(event) => {
          if (!done.current) return;
          done.current = false;
          event.preventDefault();
          heading.current?.focus();
        }}
      >
        <div className="flex gap-3">
          <DialogClose asChild>
            <Button variant="secondary" className="flex-1" disabled={busy}>
              {d.cancel}
            </Button>
          </DialogClose>
          <Button variant="danger" className="flex-1" disabled={busy} onClick={confirm}>
            {busy ? d.signingOut : d.confirm}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function SessionItem({ session, onSignOut }: { session: AccountSession; onSignOut: () => void }) {
  const name = deviceName(session);
  const started = format.dateTime(session.createdAt);
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-line p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <MonitorSmartphone className="mt-0.5 size-5 shrink-0 text-brand-ink max-[16rem]:hidden" aria-hidden />
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="font-semibold break-words text-ink">{name}</p>
            <p className="text-sm text-muted">{d.started(started)}</p>
            <p className="text-sm text-muted">{d.lastActive(format.dateTime(session.lastSeenAt))}</p>
          </div>
        </div>
        {session.current && (
          <Badge variant="success" className="shrink-0 whitespace-nowrap">
            {d.thisDevice}
          </Badge>
        )}
      </div>
      {!session.current && (
        <Button variant="ghost" size="sm" className="text-danger hover:bg-danger-soft" aria-label={d.signOutLabel(name, started)} onClick={onSignOut}>
          <LogOut aria-hidden />
          {d.signOut}
        </Button>
      )}
    </li>
  );
}

/** Security > Signed-in devices: every live session of the member, this one first and marked. */
export function SignedInDevicesCard() {
  const sessions = useSessions();
  const [pending, setPending] = useState<Pending | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = sessions.data ?? [];
  const others = list.filter((s) => !s.current);

  return (
    <Card className="flex flex-col gap-4" aria-labelledby="devices-title">
      <div className="flex flex-col gap-1">
        <h2 ref={heading} id="devices-title" tabIndex={-1} className="text-lg font-bold text-ink">
          {d.title}
        </h2>
        <p className="text-sm text-muted">{d.intro}</p>
      </div>
      {sessions.isLoading && (
        <div className="flex flex-col gap-3" role="status" aria-label={t.common.loading}>
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      )}
      {sessions.isError && (
        <div className="flex flex-col gap-3">
          <Alert>{d.loadFailed}</Alert>
          <Button variant="secondary" onClick={() => void sessions.refetch()}>
            {d.retry}
          </Button>
        </div>
      )}
      {list.length > 0 && (
        <ul className="flex flex-col gap-3" aria-label={d.title}>
          {list.map((session) => (
            <SessionItem key={session.id} session={session} onSignOut={() => setPending({ kind: 'one', session })} />
          ))}
        </ul>
      )}
      {sessions.isSuccess &&
        (others.length > 0 ? (
          <Button variant="secondary" onClick={() => setPending({ kind: 'others' })}>
            <LogOut aria-hidden />
            {d.signOutOthers}
          </Button>
        ) : (
          <p className="text-sm text-muted">{d.onlyThis}</p>
        ))}
      <ConfirmSignOut pending={pending} onClose={() => setPending(null)} heading={heading} />
    </Card>
  );
}
