import { Home } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { paths } from '#shared/paths';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';

const n = t.admin.nav;

type Section = 'employers' | 'popups';

/** Which admin section a path belongs to; employee records live under Employers. */
export function adminSection(pathname: string): Section | undefined {
  if (pathname.startsWith(paths.adminPopups)) return 'popups';
  if (pathname.startsWith(paths.adminEmployers) || pathname.startsWith('/admin/employees')) return 'employers';
  return undefined;
}

const sections: { id: Section; to: string; label: string }[] = [
  { id: 'employers', to: paths.adminEmployers, label: n.employers },
  { id: 'popups', to: paths.adminPopups, label: n.popups },
];

/** Admin navigation bar (spec section 2): Employers and Popups, the active one badged, and Back to Home. */
export function AdminNav() {
  const current = adminSection(useLocation().pathname);
  const currentLabel = sections.find((s) => s.id === current)?.label;
  return (
    <nav aria-label={n.label} className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-3 shadow-sm">
      <div className="flex items-center justify-between gap-3 max-[16rem]:flex-wrap">
        <p className="text-sm text-muted">
          {n.current} <span className="font-semibold text-ink">{currentLabel}</span>
        </p>
        <Button variant="secondary" size="sm" asChild>
          <Link to={paths.home}>
            <Home aria-hidden />
            {n.backToHome}
          </Link>
        </Button>
      </div>
      <ul className="grid grid-cols-2 gap-2 max-[16rem]:grid-cols-1">
        {sections.map((s) => {
          const active = s.id === current;
          return (
            <li key={s.id}>
              <Link
                to={s.to}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex min-h-12 flex-wrap items-center justify-center gap-1.5 rounded-xl border px-2 text-center text-sm font-semibold',
                  active ? 'border-brand bg-brand-soft text-brand-ink' : 'border-line text-ink hover:bg-canvas',
                )}
              >
                {s.label}
                {active && (
                  <Badge variant="brand" className="bg-surface px-2 text-[11px]">
                    {n.active}
                  </Badge>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
