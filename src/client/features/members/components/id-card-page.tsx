import { paths } from '#shared/paths';
import { Alert } from '../../../components/ui/alert';
import { HipaaNote } from '../../../components/hipaa-note';
import { PageLayout } from '../../../components/page-layout';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useConfig } from '../../config/use-config';
import { useProfile } from '../api/profile-queries';
import { BackActions } from '../../../components/back-actions';

const m = t.members.idCard;

function CardLine({ label, value, loading, className }: { label: string; value: string | undefined; loading: boolean; className?: string }) {
  return (
    <div className={cn('flex flex-col', className)}>
      <dt className="text-xs font-semibold tracking-wide text-white/80 uppercase">{label}</dt>
      <dd className="text-lg font-semibold break-words">{value ?? (loading ? <Skeleton className="mt-1 h-6 w-32 bg-white/30" /> : '—')}</dd>
    </div>
  );
}

/** /id-card: the digital member ID card with name, company and LHMP ID. */
export function IdCardPage() {
  const profile = useProfile();
  const { brandName, brandLogoUrl } = useConfig();
  const p = profile.data;
  return (
    <PageLayout title={m.title} actions={<BackActions backTo={paths.home} home={false} />}>
      <h1 className="text-2xl font-bold text-ink">{m.title}</h1>
      {profile.isError && <Alert>{m.loadFailed}</Alert>}
      <section
        aria-label={m.cardLabel}
        aria-busy={profile.isLoading}
        className="relative flex aspect-[1.586] w-full flex-col justify-between overflow-hidden rounded-3xl bg-brand-strong p-6 text-white shadow-lg"
      >
        <div aria-hidden className="pointer-events-none absolute -top-16 -right-16 size-56 rounded-full bg-white/10" />
        <div aria-hidden className="pointer-events-none absolute -bottom-20 -left-10 size-48 rounded-full bg-white/5" />
        <div className="relative flex items-center gap-3">
          <img src={brandLogoUrl} alt="" className="size-9 rounded-lg bg-white p-1" width={36} height={36} />
          <span className="text-lg font-bold">{brandName}</span>
        </div>
        <dl className="relative grid grid-cols-2 gap-x-4 gap-y-3">
          <CardLine className="col-span-2" label={m.member} value={p ? `${p.firstName} ${p.lastName}` : undefined} loading={profile.isLoading} />
          <CardLine label={m.company} value={p?.company} loading={profile.isLoading} />
          <CardLine label={m.lhmpId} value={p?.lhmpId} loading={profile.isLoading} />
        </dl>
      </section>
      <HipaaNote>{m.hipaa}</HipaaNote>
    </PageLayout>
  );
}

export default IdCardPage;
