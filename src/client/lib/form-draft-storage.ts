/**
 * Where half-typed forms are kept (form-draft.ts), and clearing them all, which sign-out needs:
 * apart from reading and writing drafts so that /login's first download holds only this.
 */
export const DRAFT_PREFIX = 'wellhaven.draft.';

export const draftStorage = (): Storage | undefined => {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // Storage blocked: no drafts, never an error.
  }
};

/** Every draft in this tab (a sign-out the member chose). */
export function clearAllDrafts(): void {
  try {
    const s = draftStorage();
    if (!s) return;
    const keys: string[] = [];
    for (let i = 0; i < s.length; i += 1) {
      const key = s.key(i);
      if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
    }
    for (const key of keys) s.removeItem(key);
  } catch {
    // Storage blocked or failing: the drafts are a convenience, the sign-out goes on.
  }
}
