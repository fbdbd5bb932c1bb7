import { z } from 'zod';
import { ERROR_CODES } from './error-codes';

/** The codes live in error-codes.ts (no zod there: the client's first screen reads them). */
export { ERROR_CODES, type ErrorCode } from './error-codes';
export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** The one error body every API failure answers with: `code` always, `fields` for field-level problems. */
export const ErrorBodySchema = z.object({
  error: z.string(),
  code: ErrorCodeSchema,
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Error responses every route may give; spread into a route's `response` schema. */
export const errorResponses = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  429: ErrorBodySchema,
  500: ErrorBodySchema,
  503: ErrorBodySchema,
} as const;

/** Turns zod issues into the `fields` map: first message per top-level field. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}
