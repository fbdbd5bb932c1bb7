/**
 * A person's name as the roster match compares it: accents stripped (NFD, combining marks
 * removed), lower case, typographic apostrophes as a plain one (phones type ’ for '), outer
 * spaces trimmed and inner runs of space collapsed. "  José  O’Brien " and "jose o'brien"
 * have the same key. The roster import stores it, registration computes it: one function.
 */
export function nameMatchKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019\u02bc\u0060\u00b4]/g, "'")
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}
