import { ApiError } from '../../../lib/api-client';

/** The admin screens' reading of a failed request, by its code (docs/decisions/error-codes.md). */
export const isForbidden = (err: unknown) => err instanceof ApiError && err.code === 'forbidden';
/** Unknown or malformed: the server answers both `not_found` (one id rule, docs/decisions/error-codes.md). */
export const isNotFound = (err: unknown) => err instanceof ApiError && err.code === 'not_found';
/** The server's sentence for an error, else the spec's "status: body" message. */
export const errorMessage = (err: unknown) => (err instanceof ApiError ? (err.serverMessage ?? err.message) : err instanceof Error ? err.message : String(err));
