// No zod here: the client reads these codes on its first screen (lib/api-client.ts), and zod
// is not part of that download (docs/decisions/initial-js-budget.md). errors.ts re-exports them.

/**
 * Every machine-readable reason an error body can carry (docs/decisions/error-codes.md).
 * Clients branch on these, never on the status text or the message (which is for people).
 */
export const ERROR_CODES = [
  /** The input broke a rule; `fields` says which. */
  'validation',
  /** The request itself could not be read: malformed JSON, an undecodable URL. */
  'bad_request',
  'unauthenticated',
  'forbidden',
  /** Nothing there, or not yours to see; also any malformed id in a path. */
  'not_found',
  /** The body stopped arriving or took too long. */
  'request_timeout',
  'conflict',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'rate_limited',
  /** A popup snoozed as many times as its occurrence allows. */
  'snooze_limit_reached',
  'idempotency_key_invalid',
  'idempotency_key_reused',
  'idempotency_in_progress',
  /** The client went away before the answer (logged as 499; nobody reads it). */
  'client_closed',
  'internal',
  /** The database or the counter store is out of reach; `retry-after` says when to try again. */
  'unavailable',
  /** Client only: a write refused on the device because there is no connection (status 0). */
  'offline',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
