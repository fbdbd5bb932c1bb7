/** A search term as an ILIKE substring pattern in which `%`, `_` and `\` are literal characters
 * (backslash is PostgreSQL's default LIKE escape). */
export function substringPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Ids in paths are UUIDs; anything else cannot exist, so services answer 404 without a query. */
export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
