import type { z } from 'zod';

/** The content type of an answer sent as JSON text already written (checkedJson). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * An answer checked against its route's response schema and written as JSON once, then sent
 * as that text as often as it stays true: the route's serializer (a schema check and a
 * `JSON.stringify`, lib/response-serializer.ts) is skipped for it, and as there, only what the
 * schema declares is written. An answer that does not match throws zod's error: at start for a
 * constant answer, or a 500 logged as an unhandled error for a request's. A route sending such
 * text goes through the untyped `app` (the type provider would want the object); its schema
 * still documents the answer.
 */
export function checkedJson<T>(schema: z.ZodType<T>, value: T): string {
  return JSON.stringify(schema.parse(value));
}
