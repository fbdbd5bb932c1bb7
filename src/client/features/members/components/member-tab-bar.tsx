import { IdCard, ScanHeart, Stethoscope } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { paths } from '#shared/paths';
import { ExternalLink } from '../../../components/external-link';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useConfig } from '../../config/use-config';
import { activeTab } from '../tab-bar-rules';

const m = t.members.tabBar;

const tabClass = (active: boolean) =>
  cn(
    'flex min-h-14 min-w-0 flex-1 flex-col items-center justify-center gap-1 rounded-xl px-2 text-center text-xs font-semibold transition-colors max-[16rem]:px-0.5 max-[16rem]:text-[0.6875rem]',
    active ? 'bg-brand-soft text-brand-ink' : 'text-muted hover:bg-ink/5 hover:text-ink',
  );

/** Spec: Bottom tab bar. Vital Scan opens the external site in a new window. */
export function MemberTabBar() {
  const { pathname } = useLocation();
  const { vitalScanUrl } = useConfig();
  const active = activeTab(pathname);
  const state = (tab: typeof active) => (active === tab ? 'active' : 'inactive');
  return (
    // data-tab-bar sets --tab-bar-height on the page (styles.css) while the tab bar shows.
    <nav
      data-tab-bar
      aria-label={m.label}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-surface/95 backdrop-blur supports-[backdrop-filter]:bg-surface/85"
    >
      <ul className="mx-auto flex max-w-md gap-2 px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] max-[16rem]:gap-0.5 max-[16rem]:px-1">
        <li className="flex min-w-0 flex-1">
          <ExternalLink
            href={vitalScanUrl}
            className={tabClass(active === 'vitalScan')}
            data-state={state('vitalScan')}
            aria-current={active === 'vitalScan' ? 'true' : undefined}
          >
            <ScanHeart className="size-6" aria-hidden />
            {m.vitalScan}
          </ExternalLink>
        </li>
        <li className="flex min-w-0 flex-1">
          <Link
            to={paths.getCare}
            className={tabClass(active === 'getCare')}
            data-state={state('getCare')}
            aria-current={active === 'getCare' ? 'page' : undefined}
          >
            <Stethoscope className="size-6" aria-hidden />
            {m.getCare}
          </Link>
        </li>
        <li className="flex min-w-0 flex-1">
          <Link
            to={paths.idCard}
            className={tabClass(active === 'idCard')}
            data-state={state('idCard')}
            aria-current={active === 'idCard' ? 'page' : undefined}
          >
            <IdCard className="size-6" aria-hidden />
            {m.idCard}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
