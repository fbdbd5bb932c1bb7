import { ApiError } from './api-client';

export interface FormError<N extends string> {
  /** The messages for the form's own fields, in the order of `names` (screen order). */
  fields: Partial<Record<N, string>>;
  /** The first of `names` in error, to take focus; null when none is. */
  firstField: N | null;
  /** The form's own message; null when the field messages say it all. */
  message: string | null;
}

/**
 * What a failed request means for a form; the one rule every form follows:
 * - a refusal naming some of the form's fields: their messages, each under its field, and no
 *   form message (a message says it once);
 * - any other refusal: the server's sentence as the form's message (a rule such as the family
 *   limit, "You're offline...", a rate limit), or `fallback` when it sent none;
 * - an internal error (500): `fallback`, the form's own "... Please try again." The server's
 *   "Internal server error" tells a member nothing they can act on (the details are in the
 *   server log under the request id; docs/decisions/error-codes.md);
 * - no answer from the server at all: `fallback`.
 * Branch on codes, never on text (docs/decisions/error-codes.md).
 */
export function formErrorOf<N extends string>(err: unknown, names: readonly N[], fallback: string): FormError<N> {
  if (!(err instanceof ApiError)) return { fields: {}, firstField: null, message: fallback };
  const fields: Partial<Record<N, string>> = {};
  for (const name of names) {
    const message = err.fields?.[name];
    if (message) fields[name] = message;
  }
  const firstField = names.find((name) => fields[name]) ?? null;
  if (firstField) return { fields, firstField, message: null };
  return { fields, firstField, message: err.code === 'internal' ? fallback : (err.serverMessage ?? fallback) };
}
