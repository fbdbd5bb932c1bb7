/** The pure parts of the employer multi-select: choosing, and moving through the options. */

/** Adds the employer if it is not chosen, removes it if it is; order of choosing is kept. */
export function toggleId(ids: readonly string[], id: string): string[] {
  return ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
}

/** At most this many options are listed at once; typing narrows the rest. */
export const MAX_OPTIONS = 50;

/**
 * The option the arrow keys move to (WAI-ARIA combobox pattern): Down from none goes to the
 * first, Up from none to the last; both wrap. -1 means none. Home and End stay with the text
 * box (they move the caret), as the pattern says for an editable combobox.
 */
export function moveActive(active: number, count: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count <= 0) return -1;
  if (key === 'ArrowDown') return active < 0 || active >= count - 1 ? 0 : active + 1;
  // The list may have shrunk under the active option: Up then starts from the end.
  return active <= 0 || active > count - 1 ? count - 1 : active - 1;
}

/** A chosen employer's name: from any list seen so far, else a placeholder (the employer is gone). */
export function employerName(names: ReadonlyMap<string, string>, id: string, unknown: string): string {
  return names.get(id) ?? unknown;
}
