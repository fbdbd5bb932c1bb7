import { useNavigate } from 'react-router';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { t } from '../../../lib/i18n';
import { useAuth } from '../../auth/auth-context';
import { useConfig } from '../../config/use-config';
import { useCompletePopup } from '../api/complete-popup';
import { useSnoozePopup } from '../api/snooze-popup';
import { completeErrorMessage, isLastReminder, parseLoginPopup, popupAction, snoozeErrorMessage } from '../login-popup-rules';
import { PopupBody, PopupMessage, PopupTitle, popupThemes } from './popup-view';

const m = t.popups.member;

/**
 * The reminder delivered at sign-in, on Home (spec sections 4 and 8). Its button (label and
 * destination set by the admin; Take Vital Scan to the vital-scan site by default) closes it,
 * goes to an app screen or opens a website in a new tab, and completes in the background;
 * Snooze closes it and snoozes; X and a click outside only close it. A last reminder cannot be
 * snoozed nor dismissed with Escape or outside click; its X still works.
 */
export function LoginPopup() {
  const { loginPopup, clearLoginPopup } = useAuth();
  const { vitalScanUrl } = useConfig();
  const navigate = useNavigate();
  const complete = useCompletePopup();
  const snooze = useSnoozePopup();
  const popup = parseLoginPopup(loginPopup);
  if (!popup) return null;

  const last = isLastReminder(popup);
  const action = popupAction(popup.actionTarget, vitalScanUrl);
  const keepOpen = (event: Event) => {
    if (last) event.preventDefault();
  };

  function act() {
    if (!popup) return;
    clearLoginPopup();
    if (action.kind === 'site') window.open(action.url, '_blank', 'noopener,noreferrer');
    else if (action.kind === 'screen') void navigate(action.to);
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
        className={popupThemes[popup.theme].panel}
        title={<PopupTitle popup={popup} />}
        description={<PopupMessage popup={popup} />}
        onEscapeKeyDown={keepOpen}
        onInteractOutside={keepOpen}
      >
        <PopupBody popup={popup} action={action} vitalScanUrl={vitalScanUrl} onAction={act} onSnooze={snoozeNow} />
      </DialogContent>
    </Dialog>
  );
}
