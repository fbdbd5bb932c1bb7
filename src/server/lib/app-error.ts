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

/** The one error type services throw; never carries internals to the client. */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return errorStatus[this.code];
  }
}
