/**
 * Each English sentence of a catalogue mapped to its translation: the English text is the
 * message's id, as gettext and Lingui use the source string. It translates text that was fixed
 * in English before the reader's language was known, such as a shared zod schema's messages
 * (defined once for client and server) or an error answer the server is about to send.
 * Functions (sentences with values in them) are not in the map; they are called per language.
 */
export function translationsBySource(source: unknown, translation: unknown, into = new Map<string, string>()): Map<string, string> {
  if (typeof source === 'string' && typeof translation === 'string') {
    if (!into.has(source)) into.set(source, translation);
  } else if (source && translation && typeof source === 'object' && typeof translation === 'object') {
    for (const [key, value] of Object.entries(source)) translationsBySource(value, (translation as Record<string, unknown>)[key], into);
  }
  return into;
}
