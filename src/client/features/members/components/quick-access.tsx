import {
  Brain,
  ClipboardList,
  Compass,
  ExternalLink as ExternalIcon,
  FlaskConical,
  HeartPulse,
  Hospital,
  Landmark,
  type LucideIcon,
  PiggyBank,
  Pill,
  ScanHeart,
  Sparkles,
  Stethoscope,
  Video,
  Wallet,
  X,
} from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { isExternalPath, quickAccessHealthShortcuts, type ServiceShortcut, shortcutsIn, wealthShortcuts } from '#shared/shortcuts';
import { ExternalLink } from '../../../components/external-link';
import { Button } from '../../../components/ui/button';
import { t } from '../../../lib/i18n';
import { language } from '../../../lib/language';
import { useConfig } from '../../config/use-config';

const m = t.members.home;
type Group = 'health' | 'wealth';

/** One icon per shortcut, by name (Vital Scan's path differs between the two lists). */
const icons: Record<string, LucideIcon> = {
  'Virtual Urgent Care': Video,
  'Virtual Primary Care': Stethoscope,
  'In Person Care': Hospital,
  'Quest Select Labs': FlaskConical,
  'Virtual Therapy': Brain,
  'Care Navigator': Compass,
  Prescriptions: Pill,
  SOAR: Sparkles,
  'Vital Scan': ScanHeart,
  'Plan of Care': ClipboardList,
  'Financial Wellness Center': Landmark,
  'Financial Guidance System': PiggyBank,
};

const itemClass =
  'flex min-h-14 items-center gap-3 rounded-xl border border-line bg-surface px-3 py-2 text-sm font-semibold text-ink hover:border-brand/40 hover:bg-brand-soft/60';

function ShortcutItem({ shortcut, icon: Icon, onChoose }: { shortcut: ServiceShortcut; icon: LucideIcon; onChoose: () => void }) {
  const external = isExternalPath(shortcut.path);
  const body = (
    <>
      <Icon className="size-5 shrink-0 text-brand-ink" aria-hidden />
      <span className="min-w-0 flex-1">{shortcut.name}</span>
      {external && <ExternalIcon className="size-4 shrink-0 text-muted" aria-hidden />}
    </>
  );
  // Spec: a shortcut starting with http opens in a new tab; any other navigates in the app.
  return external ? (
    <ExternalLink href={shortcut.path} className={itemClass} onClick={onChoose}>
      {body}
    </ExternalLink>
  ) : (
    <Link to={shortcut.path} className={itemClass} onClick={onChoose}>
      {body}
    </Link>
  );
}

/** Quick Access: Health and Wealth buttons, each toggling an overlay of that group's shortcuts. */
export function QuickAccess() {
  const { vitalScanUrl } = useConfig();
  const [open, setOpen] = useState<Group | null>(null);
  const panelId = useId();
  const titleId = useId();
  const buttons = useRef<Record<Group, HTMLButtonElement | null>>({ health: null, wealth: null });

  /** Closes the overlay of `group`; with `returnFocus` (X, Escape) its button takes focus. */
  const close = useCallback((group: Group, returnFocus: boolean) => {
    if (returnFocus) buttons.current[group]?.focus();
    setOpen(null);
  }, []);

  // Escape closes the open overlay; subscribed while one is open.
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(open, true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);

  // Quick Access shows Vital Scan as the external site (spec section 9).
  const groups: Record<Group, { label: string; title: string; icon: LucideIcon; shortcuts: readonly ServiceShortcut[] }> = {
    health: { label: m.quickHealth, title: m.overlayHealth, icon: HeartPulse, shortcuts: shortcutsIn(language, quickAccessHealthShortcuts(vitalScanUrl), t.members.shortcutNames) },
    wealth: { label: m.quickWealth, title: m.overlayWealth, icon: Wallet, shortcuts: shortcutsIn(language, wealthShortcuts, t.members.shortcutNames) },
  };
  const current = open ? groups[open] : null;

  return (
    <section aria-label={m.quickAccess} className="relative">
      <div className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-3 shadow-sm">
        <h2 className="px-1 text-xs font-semibold tracking-wide text-muted uppercase">{m.quickAccess}</h2>
        <div className="grid grid-cols-2 gap-2 max-[16rem]:grid-cols-1">
          {(Object.keys(groups) as Group[]).map((group) => {
            const { label, icon: Icon } = groups[group];
            const isOpen = open === group;
            return (
              <Button
                key={group}
                ref={(element) => {
                  buttons.current[group] = element;
                }}
                variant={isOpen ? 'primary' : 'secondary'}
                aria-expanded={isOpen}
                aria-controls={isOpen ? panelId : undefined}
                onClick={() => setOpen(isOpen ? null : group)}
              >
                <Icon aria-hidden />
                {label}
              </Button>
            );
          })}
        </div>
      </div>
      {current && (
        <div
          id={panelId}
          role="region"
          aria-labelledby={titleId}
          className="absolute inset-x-0 top-full z-20 mt-2 flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-xl"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id={titleId} className="text-lg font-bold text-ink">
              {current.title}
            </h3>
            <Button variant="ghost" size="icon" className="size-10" aria-label={m.closeOverlay} onClick={() => {
                if (open) close(open, true);
              }}>
              <X aria-hidden />
            </Button>
          </div>
          <ul className="grid grid-cols-2 gap-2 max-[16rem]:grid-cols-1">
            {current.shortcuts.map((shortcut) => (
              <li key={shortcut.id} className="flex flex-col [&>*]:flex-1">
                <ShortcutItem shortcut={shortcut} icon={icons[shortcut.id] ?? Sparkles} onChoose={() => {
                    if (open) close(open, false);
                  }} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
