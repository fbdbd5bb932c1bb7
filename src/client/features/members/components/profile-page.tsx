import { ChevronRight, Pencil, ShieldCheck, Trash2, UserPlus, Users } from 'lucide-react';
import { type RefObject, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { type FamilyMember, MAX_FAMILY_MEMBERS } from '#shared/schemas/family';
import { OfflineNote } from '../../../components/offline-note';
import { BackActions } from '../../../components/back-actions';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useFamilyMembers } from '../api/get-family-members';
import { useProfile } from '../api/get-profile';
import { useRemoveFamilyMember } from '../api/remove-family-member';
import { formatDob } from '../format-dob';

const m = t.members.profile;

function DetailRow({ label, value, loading }: { label: string; value: string | undefined; loading: boolean }) {
  return (
    <div className="flex min-h-12 flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="min-w-0 text-right font-semibold break-words text-ink">
        {loading ? <Skeleton className="h-5 w-32" /> : (value ?? '—')}
      </dd>
    </div>
  );
}

/**
 * Confirms a removal. Cancel returns focus to the member's Remove button; once the member is
 * gone (and the button with them), focus goes to the Family Members heading.
 */
function RemoveDialog({ member, onClose, heading }: { member: FamilyMember | null; onClose: () => void; heading: RefObject<HTMLHeadingElement | null> }) {
  const remove = useRemoveFamilyMember();
  const removed = useRef(false);
  const name = member ? `${member.firstName} ${member.lastName}` : '';
  return (
    <Dialog open={member !== null} onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      <DialogContent
        title={m.confirmTitle}
        description={m.confirmBody(name)}
        hideClose
        onCloseAutoFocus={(event) => {
          if (!removed.current) return;
          removed.current = false;
          event.preventDefault();
          heading.current?.focus();
        }}
      >
        <div className="flex gap-3">
          <DialogClose asChild>
            <Button variant="secondary" className="flex-1" disabled={remove.isPending}>
              {m.confirmCancel}
            </Button>
          </DialogClose>
          <Button
            variant="danger"
            className="flex-1"
            disabled={remove.isPending}
            onClick={() => {
              if (!member) return;
              remove.mutate(member.id, {
                onSuccess: () => {
                  removed.current = true;
                  toast({ title: m.removed, variant: 'success' });
                  onClose();
                },
                onError: () => {
                  toast({ title: m.removeFailed, variant: 'destructive' });
                  onClose();
                },
              });
            }}
          >
            {remove.isPending ? m.removing : m.confirmRemove}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function FamilyList() {
  const family = useFamilyMembers();
  const [removing, setRemoving] = useState<FamilyMember | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const members = family.data ?? [];
  const full = members.length >= MAX_FAMILY_MEMBERS;

  return (
    <Card className="flex flex-col gap-4" aria-labelledby="family-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 ref={heading} id="family-title" tabIndex={-1} className="text-lg font-bold text-ink">
            {m.familyTitle}
          </h2>
          {family.isSuccess && members.length > 0 && <Badge variant="brand">{members.length}</Badge>}
        </div>
        {full ? (
          <Button size="sm" disabled aria-label={m.addLabel}>
            <UserPlus aria-hidden />
            {m.add}
          </Button>
        ) : (
          <Link to={paths.addFamily} className={buttonVariants({ size: 'sm' })} aria-label={m.addLabel}>
            <UserPlus aria-hidden />
            {m.add}
          </Link>
        )}
      </div>
      {full && <Alert variant="info">{m.limitNote}</Alert>}
      {family.isLoading && (
        <div className="flex flex-col gap-3" role="status" aria-label={t.common.loading}>
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      )}
      {family.isError && <Alert>{m.familyLoadFailed}</Alert>}
      {family.isSuccess && members.length === 0 && (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-line px-4 py-8 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-brand-soft text-brand-ink">
            <Users className="size-6" aria-hidden />
          </span>
          <p className="text-muted">{m.empty}</p>
          {/* A long label wraps inside the dashed box at 390 px instead of running out of it. */}
          <Link to={paths.addFamily} className={cn(buttonVariants({ variant: 'primary' }), 'max-w-full py-2 text-center whitespace-normal')} data-testid="add-first-family">
            <UserPlus aria-hidden />
            {m.addFirst}
          </Link>
        </div>
      )}
      {members.length > 0 && (
        <ul className="flex flex-col gap-3" aria-label={m.familyTitle}>
          {members.map((member) => {
            const name = `${member.firstName} ${member.lastName}`;
            return (
              <li key={member.id} className="flex flex-col gap-3 rounded-2xl border border-line p-4 max-[16rem]:p-3">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="flex min-w-0 flex-col gap-0.5">
                    <p className="font-semibold break-words text-ink">{name}</p>
                    <p className="text-sm text-muted">{m.born(formatDob(member.dob))}</p>
                  </div>
                  <Badge variant="brand">{t.members.familyForm.relationships[member.relationship]}</Badge>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Link to={paths.editFamily(member.id)} className={cn(buttonVariants({ variant: 'secondary', size: 'sm' }), 'flex-1')} aria-label={m.editLabel(name)}>
                    <Pencil aria-hidden />
                    {m.edit}
                  </Link>
                  <Button variant="ghost" size="sm" className="flex-1 text-danger hover:bg-danger-soft" aria-label={m.removeLabel(name)} onClick={() => setRemoving(member)}>
                    <Trash2 aria-hidden />
                    {m.remove}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <RemoveDialog member={removing} onClose={() => setRemoving(null)} heading={heading} />
    </Card>
  );
}

/** /profile: the member's own details from the server and their family members. */
export function ProfilePage() {
  const profile = useProfile();
  const p = profile.data;
  return (
    <PageLayout title={m.title} actions={<BackActions backTo={paths.home} home={false} />}>
      <h1 className="text-2xl font-bold text-ink">{m.title}</h1>
      <OfflineNote updatedAt={p ? profile.dataUpdatedAt : undefined} />
      <Card className="flex flex-col gap-2" aria-labelledby="details-title">
        <h2 id="details-title" className="text-lg font-bold text-ink">
          {m.details}
        </h2>
        {profile.isError ? (
          <div className="flex flex-col gap-3">
            <Alert>{m.loadFailed}</Alert>
            <Button variant="secondary" onClick={() => void profile.refetch()}>
              {m.retry}
            </Button>
          </div>
        ) : (
          <dl className="flex flex-col divide-y divide-line" aria-busy={profile.isLoading}>
            <DetailRow label={m.firstName} value={p?.firstName} loading={profile.isLoading} />
            <DetailRow label={m.lastName} value={p?.lastName} loading={profile.isLoading} />
            <DetailRow label={m.company} value={p?.company} loading={profile.isLoading} />
            <DetailRow label={m.lhmpId} value={p?.lhmpId} loading={profile.isLoading} />
          </dl>
        )}
      </Card>
      <Link
        to={paths.security}
        className="flex min-h-16 items-center gap-4 rounded-2xl border border-line bg-surface p-5 shadow-sm transition-shadow hover:shadow-md max-[16rem]:gap-2 max-[16rem]:p-3"
      >
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand-ink max-[16rem]:hidden">
          <ShieldCheck className="size-5" aria-hidden />
        </span>
        <span className="flex min-w-0 flex-1 flex-col wrap-break-word">
          <span className="text-lg font-bold text-ink">{t.account.security.entry}</span>
          <span className="text-sm text-muted">{t.account.security.entryBody}</span>
        </span>
        <ChevronRight className="size-5 shrink-0 text-muted" aria-hidden />
      </Link>
      <FamilyList />
    </PageLayout>
  );
}

export default ProfilePage;
