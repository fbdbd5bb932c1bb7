import { ArrowRight, HeartPulse, ShoppingBag, Sun, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '#shared/paths';
import { ExternalLink } from '../../../components/external-link';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { buttonVariants } from '../../../components/ui/button';
import { t } from '../../../lib/i18n';
import { useAuth } from '../../auth/auth-context';
import { useConfig } from '../../config/use-config';
import { ProgramVideosButton } from './program-videos';
import { QuickAccess } from './quick-access';

const m = t.members.home;

/** A card whose body navigates too (spec: "Clicking a card body also navigates"); its buttons keep their own targets. */
function ServiceCard({ to, icon, title, body, children }: { to: string; icon: ReactNode; title: string; body: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <section
      aria-label={title}
      className="flex cursor-pointer flex-col gap-4 rounded-2xl border border-line bg-surface p-5 shadow-sm transition-shadow hover:shadow-md"
      onClick={(event) => {
        // Clicks on the card's own links and buttons are theirs.
        if ((event.target as HTMLElement).closest('a,button')) return;
        void navigate(to);
      }}
    >
      <div className="flex flex-wrap items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand text-white">{icon}</span>
        <div className="flex min-w-0 flex-1 basis-40 flex-col gap-1">
          <h2 className="text-xl font-bold text-ink">{title}</h2>
          <p className="text-sm text-muted">{body}</p>
        </div>
      </div>
      <div className="flex flex-col gap-2">{children}</div>
    </section>
  );
}

/**
 * The daily wellness programme (runtime configuration). A component of its own, so that the
 * configuration's arrival re-renders this link, not the whole of Home.
 */
function WellnessProgramLink() {
  const { wellnessProgramUrl } = useConfig();
  return (
    <ExternalLink href={wellnessProgramUrl} className={buttonVariants({ variant: 'secondary' })}>
      <Sun className="text-brand-ink" aria-hidden />
      {m.healthCard.wellness}
    </ExternalLink>
  );
}

/**
 * /home: Quick Access, the Health and Wealth cards, voice search and the login popup. The
 * voice block, the popup and the verify-email banner belong to their own features; the app
 * layer passes them in.
 */
export function HomePage({ banner, voiceSearch, loginPopup }: { banner?: ReactNode; voiceSearch?: ReactNode; loginPopup?: ReactNode }) {
  const { user } = useAuth();
  return (
    <PageLayout title={m.title} headerExtra={<ProgramVideosButton />}>
      {/* Nameless in /home's HTML, drawn at build for every member (scripts/prerender.mjs). */}
      <PageIntro title={user?.firstName ? m.greetingNamed(user.firstName) : m.greeting}>{m.intro}</PageIntro>
      <QuickAccess />
      {/* After Quick Access: the banner arrives with the account state, and must not move the
          shortcuts (or their overlay) under a finger that is already on its way to them. */}
      {banner}
      <ServiceCard to={paths.health} icon={<HeartPulse className="size-6" aria-hidden />} title={m.healthCard.title} body={m.healthCard.body}>
        <Link to={paths.health} className={buttonVariants({ variant: 'primary' })}>
          {m.healthCard.explore}
          <ArrowRight aria-hidden />
        </Link>
        <WellnessProgramLink />
      </ServiceCard>
      <ServiceCard to={paths.wealth} icon={<Wallet className="size-6" aria-hidden />} title={m.wealthCard.title} body={m.wealthCard.body}>
        <Link to={paths.wealth} className={buttonVariants({ variant: 'primary' })}>
          {m.wealthCard.explore}
          <ArrowRight aria-hidden />
        </Link>
        <Link to={paths.store} className={buttonVariants({ variant: 'secondary' })}>
          <ShoppingBag className="text-brand-ink" aria-hidden />
          {m.wealthCard.store}
        </Link>
      </ServiceCard>
      {voiceSearch}
      <p className="px-1 text-center text-sm text-muted">{m.hint}</p>
      {loginPopup}
    </PageLayout>
  );
}

export default HomePage;
