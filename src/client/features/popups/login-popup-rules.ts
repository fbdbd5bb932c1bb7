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

function describe(err: unknown): { status: number | undefined; text: string } {
  const status = err instanceof ApiError ? err.status : undefined;
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return { status, text };
}

/** Spec section 8, snooze failure: 401, 400 and 404 have their own sentences; otherwise the error's message. */
export function snoozeErrorMessage(err: unknown): string {
  const { status, text } = describe(err);
  if (status === 401 || text.includes('401')) return m.sessionExpired;
  if (status === 400 || text.includes('400')) return m.snoozeLimit;
  if (status === 404 || text.includes('404')) return m.noLongerAvailable;
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  return text || m.snoozeLimit;
}

/** Spec section 8, complete failure: the error's message, or 'Failed to complete popup'. */
export function completeErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage;
  const { text } = describe(err);
  return text || m.completeFailed;
}
