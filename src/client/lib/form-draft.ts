/**
 * Half-typed forms kept in this tab's session storage, per user, so a member signed out for
 * inactivity finds the form as they left it after signing back in. Session storage: the draft
 * goes with the tab, never reaches another tab or a later browser session, and is keyed by
 * user so someone else signing in here never sees it. Cleared on a successful save and on a
 * sign-out the member chose (form-draft-storage.ts).
 */
import { DRAFT_PREFIX, draftStorage as storage } from './form-draft-storage';

const keyOf = (userId: string, form: string) => `${DRAFT_PREFIX}${userId}.${form}`;

export function readDraft<T extends Record<string, string>>(userId: string, form: string, fields: readonly (keyof T)[]): Partial<T> | undefined {
  try {
    const raw = storage()?.getItem(keyOf(userId, form));
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object') return undefined;
    const draft: Partial<T> = {};
    for (const field of fields) {
      const value = (parsed as Record<string, unknown>)[field as string];
      if (typeof value === 'string') draft[field] = value as T[keyof T];
    }
    return draft;
  } catch {
    return undefined;
  }
}

export function writeDraft(userId: string, form: string, values: Record<string, string>): void {
  try {
    const s = storage();
    if (!s) return;
    if (Object.values(values).every((v) => v === '')) s.removeItem(keyOf(userId, form));
    else s.setItem(keyOf(userId, form), JSON.stringify(values));
  } catch {
    // Quota or privacy mode: the draft is a convenience.
  }
}

export function clearDraft(userId: string, form: string): void {
  try {
    storage()?.removeItem(keyOf(userId, form));
  } catch {
    // As above.
  }
}
