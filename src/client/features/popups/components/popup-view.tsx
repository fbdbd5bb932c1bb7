import { AlertTriangle, ArrowRight, Clock, ExternalLink, ScanHeart, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { paths } from '#shared/paths';
import type { MemberPopup, PopupTheme } from '#shared/schemas/popups';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { type PopupAction, isLastReminder, showsSnooze } from '../login-popup-rules';

const m = t.popups.member;

/** Each theme's panel and main button; the member's popup and the admin's preview share them. */
export const popupThemes: Record<PopupTheme, { panel: string; action: string }> = {
  green: {
    panel: 'border-t-8 border-emerald-600 bg-emerald-50 dark:bg-emerald-950',
    action: 'bg-emerald-700 text-white hover:bg-emerald-800 active:bg-emerald-800',
  },
  purple: {
    panel: 'border-t-8 border-violet-600 bg-violet-50 dark:bg-violet-950',
    action: 'bg-violet-700 text-white hover:bg-violet-800 active:bg-violet-800',
  },
  white: {
    panel: 'border border-line bg-surface',
    action: '',
  },
};

/** The title: the Last Reminder badge above it when it is one. */
export function PopupTitle({ popup }: { popup: MemberPopup }) {
  return (
    <span className="flex flex-col items-start gap-2">
      {isLastReminder(popup) && (
        <Badge variant="danger" className="text-sm">
          {m.lastReminderBadge}
        </Badge>
      )}
      <span className="break-words">{popup.title}</span>
    </span>
  );
}

export function PopupMessage({ popup }: { popup: MemberPopup }) {
  return <span className="block text-base break-words whitespace-pre-line text-ink">{popup.message}</span>;
}

const isVitalScan = (action: PopupAction, vitalScanUrl: string) =>
  (action.kind === 'site' && action.url === vitalScanUrl) || (action.kind === 'screen' && action.to === paths.vitalScan);

interface PopupBodyProps {
  popup: MemberPopup;
  action: PopupAction;
  vitalScanUrl: string;
  onAction?: () => void;
  onSnooze?: () => void;
}

/**
 * Below the title and message: the final-reminder warning, the snooze count, the action
 * button (its label; a website says it opens a new tab) and Snooze when allowed (spec
 * section 4). Without a destination (configuration not loaded) there is nothing to take.
 */
export function PopupBody({ popup, action, vitalScanUrl, onAction, onSnooze }: PopupBodyProps) {
  const theme = popupThemes[popup.theme];
  return (
    <>
      {isLastReminder(popup) && (
        <p className="flex items-start gap-2 rounded-xl border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {m.lastReminderWarning}
        </p>
      )}
      {popup.snoozeCount > 0 && (
        <p className="flex items-center gap-2 text-sm text-muted">
          <Clock className="size-4" aria-hidden />
          {m.snoozedTimes(popup.snoozeCount)}
        </p>
      )}
      <div className="flex flex-col gap-3">
        <Button size="lg" className={cn('py-2 whitespace-normal', theme.action)} onClick={onAction} disabled={action.kind === 'none'}>
          {isVitalScan(action, vitalScanUrl) && <ScanHeart aria-hidden />}
          <span className="break-words">{popup.actionLabel}</span>
          {action.kind === 'site' && (
            <>
              <ExternalLink aria-hidden />
              <span className="sr-only">{m.opensInNewTab}</span>
            </>
          )}
          {action.kind === 'screen' && !isVitalScan(action, vitalScanUrl) && <ArrowRight aria-hidden />}
        </Button>
        {showsSnooze(popup) && (
          <Button size="lg" variant="secondary" onClick={onSnooze}>
            {m.snooze}
          </Button>
        )}
      </div>
    </>
  );
}

/**
 * The popup's box outside a dialog, laid out as DialogContent lays it out (title and corner X,
 * then the body), for the admin's preview. It is a picture: `inert`, so none of it can be
 * focused or pressed, and assistive technology reads the form instead.
 */
export function PopupPanel({ popup, children }: { popup: MemberPopup; children: ReactNode }) {
  return (
    <div className={cn('flex w-full flex-col overflow-hidden rounded-2xl bg-surface shadow-xl', popupThemes[popup.theme].panel)} data-theme={popup.theme}>
      <div className="flex shrink-0 items-start justify-between gap-4 px-6 pt-6 pb-2 max-[16rem]:gap-1 max-[16rem]:px-4">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="text-xl font-bold text-ink max-[16rem]:text-lg">
            <PopupTitle popup={popup} />
          </div>
          <div className="text-sm text-muted">
            <PopupMessage popup={popup} />
          </div>
        </div>
        <span className="-mt-2 -mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-full text-muted">
          <X className="size-5" aria-hidden />
        </span>
      </div>
      <div className="flex min-h-0 flex-col gap-4 px-6 pt-2 pb-6 max-[16rem]:px-4">{children}</div>
    </div>
  );
}
