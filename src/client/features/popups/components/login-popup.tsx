import { AlertTriangle, Clock, ScanHeart } from 'lucide-react';
import type { PopupTheme } from '#shared/schemas/popups';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useAuth } from '../../auth/auth-context';
import { useConfig } from '../../config/use-config';
import { useCompletePopup, useSnoozePopup } from '../api/member-popups';
import { completeErrorMessage, isLastReminder, parseLoginPopup, showsSnooze, snoozeErrorMessage } from '../login-popup-rules';

const m = t.popups.member;

const themes: Record<PopupTheme, { panel: string; action: string }> = {
  green: {
    panel: 'border-t-8 border-emerald-600 bg-emerald-50',
    action: 'bg-emerald-700 text-white hover:bg-emerald-800 active:bg-emerald-800',
  },
  purple: {
    panel: 'border-t-8 border-violet-600 bg-violet-50',
    action: 'bg-violet-700 text-white hover:bg-violet-800 active:bg-violet-800',
  },
  white: {
    panel: 'border border-line bg-white',
    action: '',
  },
};

/**
 * The reminder delivered at sign-in, on Home (spec sections 4 and 8). Take Vital Scan
 * closes it, opens the vital-scan site and completes in the background; Snooze closes it and
 * snoozes; X and a click outside only close it. A last reminder cannot be snoozed nor
 * dismissed with Escape or outside click; its X still works.
 */
export function LoginPopup() {
  const { loginPopup, clearLoginPopup } = useAuth();
  const { vitalScanUrl } = useConfig();
  const complete = useCompletePopup();
  const snooze = useSnoozePopup();
  const popup = parseLoginPopup(loginPopup);
  if (!popup) return null;

  const last = isLastReminder(popup);
  const theme = themes[popup.theme];
  const keepOpen = (event: Event) => {
    if (last) event.preventDefault();
  };

  function takeVitalScan() {
    if (!popup) return;
    clearLoginPopup();
    window.open(vitalScanUrl, '_blank', 'noopener,noreferrer');
    complete.mutateAsync(popup.id).then(
      () => toast({ title: m.completedTitle, description: m.completedBody, variant: 'success' }),
      (err: unknown) => toast({ title: m.errorTitle, description: completeErrorMessage(err), variant: 'destructive' }),
    );
  }

  function snoozeNow() {
    if (!popup) return;
    clearLoginPopup();
    snooze.mutateAsync(popup.id).then(
      () => toast({ title: m.snoozedTitle, description: m.snoozedBody }),
      (err: unknown) => toast({ title: m.errorTitle, description: snoozeErrorMessage(err), variant: 'destructive' }),
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) clearLoginPopup();
      }}
    >
      <DialogContent
        data-testid="login-popup"
        data-theme={popup.theme}
        className={theme.panel}
        title={
          <span className="flex flex-col items-start gap-2">
            {last && (
              <Badge variant="danger" className="text-sm">
                {m.lastReminderBadge}
              </Badge>
            )}
            <span>{popup.title}</span>
          </span>
        }
        description={<span className="block text-base whitespace-pre-line text-ink">{popup.message}</span>}
        onEscapeKeyDown={keepOpen}
        onInteractOutside={keepOpen}
      >
        {last && (
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
          {/* Without the vital-scan address (configuration not loaded) there is nothing to take. */}
          <Button size="lg" className={cn(theme.action)} onClick={takeVitalScan} disabled={!vitalScanUrl}>
            <ScanHeart aria-hidden />
            {m.takeVitalScan}
          </Button>
          {showsSnooze(popup) && (
            <Button size="lg" variant="secondary" onClick={snoozeNow}>
              {m.snooze}
            </Button>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
