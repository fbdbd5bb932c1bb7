import { language } from './language';
import { type QueryKey, queryOptions } from '@tanstack/react-query';
import { ERROR_CODES, type ErrorCode } from '#shared/error-codes';
import type { ErrorBody } from '#shared/errors';
import { common } from './messages/common';
import { clearStoredSession, storedToken } from './auth-storage';
import { markDeviceClearPending } from './device-clear';

/** `ApiError.code` of a write refused on the device because there is no connection (status 0). */
export const OFFLINE_CODE = 'offline' satisfies ErrorCode;

/** A non-OK answer. `message` follows spec section 8: "status: body text". */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: ErrorBody | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server's own sentence, when it sent the standard error body. */
  get serverMessage(): string | undefined {
    return this.body?.error;
  }

  get fields(): Record<string, string> | undefined {
    return this.body?.fields;
  }

  /**
   * The machine-readable reason (`ERROR_CODES`): what the client branches on, never the
   * status text or the message. Undefined only when no standard error body came back.
   */
  get code(): ErrorCode | undefined {
    return this.body?.code;
  }
}


function offlineError(): ApiError {
  return new ApiError(0, `0: ${common.offlineNotSaved}`, { error: common.offlineNotSaved, code: OFFLINE_CODE });
}

/** The browser says it has no network (undefined outside a browser counts as online). */
const deviceOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** The server's own sentence for a failed call, else `fallback` (a network error has none). */
export const serverMessageOr = (err: unknown, fallback: string) => (err instanceof ApiError && err.serverMessage) || fallback;

/** Builds a GET URL from query-key parts: strings become the path, objects the query. */
export function urlFromKey(parts: readonly unknown[]): string {
  const path = parts.filter((p): p is string => typeof p === 'string').join('/');
  const params = new URLSearchParams();
  for (const part of parts) {
    if (part && typeof part === 'object') {
      for (const [key, value] of Object.entries(part as Record<string, unknown>)) {
        if (value === null || value === undefined || value === '') continue;
        params.append(key, String(value));
      }
    }
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * A 401 for a request sent with `usedToken`: the session it carried is gone (idle, revoked or
 * expired). Storage is cleared and the app starts over only when that token is still the stored
 * one: an answer that lands after the token was replaced (the admin step-up hands out a new
 * one and revokes the old; a keep-alive ping sent just before it comes back 401) must not
 * throw the new session away. The one 401 path for every request, fetch or XMLHttpRequest.
 */
export function sessionEnded(usedToken: string): ApiError {
  if (storedToken() === usedToken) {
    // The app starts over; what the session left on the device is cleared as it starts.
    markDeviceClearPending();
    clearStoredSession();
    window.location.assign('/');
  }
  return new ApiError(401, common.tokenExpired, { error: common.tokenExpired, code: 'unauthenticated' });
}

/** Per-call options of a write. */
export interface SendOptions {
  /**
   * Sent as `Idempotency-Key` (create calls): one per form submission, reused for its retries,
   * so a retry after a lost answer gets the first answer instead of a second row.
   */
  idempotencyKey?: string;
}

async function request(method: string, url: string, body?: unknown, options: SendOptions = {}): Promise<Response> {
  const write = method !== 'GET';
  // A write with no connection fails at once, before a request that could hang for many seconds.
  if (write && deviceOffline()) throw offlineError();
  const token = storedToken();
  // The page's language, not the browser's: the server answers its messages in it.
  const headers: Record<string, string> = { 'accept-language': language };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      credentials: 'include',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    // fetch rejects with a TypeError only when no answer came (network down, DNS, connection reset).
    if (write && err instanceof TypeError) throw offlineError();
    throw err;
  }
  if (res.status === 401 && token) throw sessionEnded(token);
  return res;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/**
 * The standard error body (`ErrorBodySchema`), checked structurally so that zod stays out of
 * the first download; api-client.test.ts holds the two to the same answers.
 */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { error, code, fields } = value as Record<string, unknown>;
  if (typeof error !== 'string') return false;
  if (typeof code !== 'string' || !KNOWN_CODES.has(code)) return false;
  if (fields === undefined) return true;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return false;
  return Object.values(fields).every((message) => typeof message === 'string');
}

async function failure(res: Response): Promise<ApiError> {
  const text = await res.text();
  let body: ErrorBody | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isErrorBody(parsed)) body = parsed;
  } catch {
    body = undefined;
  }
  return new ApiError(res.status, `${res.status}: ${text || res.statusText}`, body);
}

/**
 * A write: method, URL and optional JSON body. Resolves to the parsed JSON (or null for 204).
 * Offline (or with no answer at all) it rejects at once with an error of code `offline`, whose sentence a form shows (lib/form-errors).
 */
export async function apiSend<T = unknown>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, options?: SendOptions): Promise<T> {
  const res = await request(method, url, body, options);
  if (!res.ok) throw await failure(res);
  if (res.status === 204) return null as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** A read. `on401: 'returnNull'` answers null instead of failing when signed out. */
export async function apiGet<T = unknown>(url: string, options: { on401?: 'throw' | 'returnNull' } = {}): Promise<T | null> {
  const token = storedToken();
  if (!token && options.on401 === 'returnNull') {
    const res = await fetch(url, { credentials: 'include' });
    if (res.status === 401) return null;
    if (!res.ok) throw await failure(res);
    return res.status === 204 ? null : ((await res.json()) as T);
  }
  const res = await request('GET', url);
  if (!res.ok) throw await failure(res);
  return res.status === 204 ? null : ((await res.json()) as T);
}

/**
 * A read of the URL its key spells (spec section 7: the string parts are the path, an object
 * part the query string), as query options; keys come from lib/query-keys.
 */
export const urlQueryOptions = <T>(queryKey: QueryKey) => queryOptions({ queryKey, queryFn: () => apiGet<T>(urlFromKey(queryKey)) });
