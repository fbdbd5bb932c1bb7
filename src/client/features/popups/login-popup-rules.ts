import { DEFAULT_ACTION_LABEL, type MemberPopup, MemberPopupSchema } from '#shared/schemas/popups';
import { ApiError } from '../../lib/api-client';
import { t } from '../../lib/i18n';

const m = t.popups.member;

/**
 * The popup delivered at sign-in, if it is one (the session keeps it as raw JSON). A server
 * from before popup actions sends no actionLabel or actionTarget: that popup is still shown,
 * with the default label and the vital-scan site (an empty target), as it was then.
 */
export function parseLoginPopup(raw: unknown): MemberPopup | null {
  const withDefaults =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? { actionLabel: DEFAULT_ACTION_LABEL, actionTarget: '', ...raw } : raw;
  const parsed = MemberPopupSchema.safeParse(withDefaults);
  return parsed.success ? parsed.data : null;
}

/** Where a popup's button goes: a screen of this app, a website in a new tab, or nowhere yet. */
export type PopupAction = { kind: 'screen'; to: string } | { kind: 'site'; url: string } | { kind: 'none' };

/** An app path: one leading slash, then plain path characters (no `//host`, no backslash, no scheme). */
const APP_PATH = /^\/(?!\/)[A-Za-z0-9/_-]*$/;

/**
 * The popup's destination. An empty target is the configured vital-scan site (unknown until
 * the configuration has loaded). Only https addresses leave the app; anything else that is
 * not an app path goes nowhere, so a bad value can never run script or leave over http.
 */
export function popupAction(target: string, vitalScanUrl: string): PopupAction {
  const destination = target.trim() || vitalScanUrl.trim();
  if (APP_PATH.test(destination)) return { kind: 'screen', to: destination };
  if (/^https:\/\/\S+$/i.test(destination) && isUrl(destination)) return { kind: 'site', url: destination };
  return { kind: 'none' };
}

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** Spec section 4: the last reminder when the server says so or the snoozes are used up. */
export function isLastReminder(p: MemberPopup): boolean {
  return p.isLastReminder || p.snoozeCount >= p.maxSnoozes;
}

/** Snooze shows only when canSnooze is set, snoozeCount is below maxSnoozes, and it is not the last reminder. */
export function showsSnooze(p: MemberPopup): boolean {
  return p.canSnooze && p.snoozeCount < p.maxSnoozes && !isLastReminder(p);
}

/** The error's own text (a network error's message, or a thrown string). */
const errorText = (err: unknown): string => (err instanceof Error ? err.message : typeof err === 'string' ? err : '');

/**
 * Spec section 8, snooze failure: a session gone, the snooze limit and a popup gone have
 * their own sentences, told apart by the error's `code`; otherwise the error's message.
 */
export function snoozeErrorMessage(err: unknown): string {
  const code = err instanceof ApiError ? err.code : undefined;
  if (code === 'unauthenticated') return m.sessionExpired;
  if (code === 'snooze_limit_reached') return m.snoozeLimit;
  if (code === 'not_found') return m.noLongerAvailable;
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return errorText(err) || m.snoozeLimit;
}

/** Spec section 8, complete failure: the error's message, or 'Failed to complete popup'. */
export function completeErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return errorText(err) || m.completeFailed;
}
