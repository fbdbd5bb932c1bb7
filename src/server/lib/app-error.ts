import type { ErrorCode } from '#shared/errors';

/** Error codes a service may throw; the error handler maps each to one HTTP status. */
export const errorStatus = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  /** A request body that stopped arriving or took too long (the roster upload). */
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  /** A popup's snoozes used up: a refused input, as before the codes (spec section 8). */
  snooze_limit_reached: 400,
  unavailable: 503,
} as const satisfies Partial<Record<ErrorCode, number>>;

export type AppErrorCode = keyof typeof errorStatus;

/**
 * The one error type services throw; never carries internals to the client.
 *
 * An AppError is an expected outcome (a refusal, a row that is not there, a limit reached), not
 * a fault, and the error handler answers it without logging it: no stack trace is captured for
 * it. Capturing one through Fastify's hooks was most of what a refusal cost (a 401 from the
 * member guard: 13 µs of 72 µs, docs/decisions/request-path-costs.md), which is what a flood of
 * bad tokens or rate-limited sign-ins spends. `stack` is then the name and message alone.
 */
export class AppError extends Error {
  // Declared, not initialised: the constructor sets them once `super` has returned.
  declare readonly code: AppErrorCode;
  declare readonly fields?: Record<string, string>;
  declare readonly headers?: Record<string, string>;

  constructor(code: AppErrorCode, message: string, fields?: Record<string, string>, headers?: Record<string, string>) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
    this.headers = headers;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}
