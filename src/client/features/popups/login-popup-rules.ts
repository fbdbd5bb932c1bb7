import { type MemberPopup, MemberPopupSchema } from '#shared/schemas/popups';
import { ApiError } from '../../lib/api-client';
import { t } from '../../lib/i18n';

const m = t.popups.member;

/** The popup delivered at sign-in, if it is one (the session keeps it as raw JSON). */
export function parseLoginPopup(raw: unknown): MemberPopup | null {
  const parsed = MemberPopupSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
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
