import { ArrowRight, Landmark, type LucideIcon, PiggyBank } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { BackActions } from '../../../components/back-actions';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { buttonVariants } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { t } from '../../../lib/i18n';

const m = t.members.wealth;

function WealthCard({ icon: Icon, title, body, action, to }: { icon: LucideIcon; title: string; body: string; action: string; to: string }) {
  return (
    <Card className="flex flex-col gap-4" aria-label={title}>
      <div className="flex flex-wrap items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-soft text-brand-ink">
          <Icon className="size-6" aria-hidden />
        </span>
        <div className="flex min-w-0 flex-1 basis-40 flex-col gap-1">
          <h2 className="text-lg font-bold text-ink">{title}</h2>
          <p className="text-sm text-muted">{body}</p>
        </div>
      </div>
      <Link to={to} className={buttonVariants({ variant: 'primary' })}>
        {action}
        <ArrowRight aria-hidden />
      </Link>
    </Card>
  );
}

/** /wealth: the Financial Wellness Center and the Financial Guidance System. Home and Go Back go home. */
export function WealthPage() {
  return (
    <PageLayout title={t.members.wealth.title} actions={<BackActions backTo={paths.home} />}>
      <PageIntro title={m.heading}>{m.intro}</PageIntro>
      <WealthCard icon={Landmark} to={paths.financialWellnessCenter} {...m.wellnessCenter} />
      <WealthCard icon={PiggyBank} to={paths.financialGuidanceSystem} {...m.guidance} />
    </PageLayout>
  );
}

export default WealthPage;
