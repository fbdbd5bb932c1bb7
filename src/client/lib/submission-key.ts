import { ApiError } from './api-client';

/**
 * The `Idempotency-Key` of one form submission (docs/decisions/idempotency-keys.md): the same
 * values sent again after no answer (offline, a timeout, a 5xx) reuse the key, so the server
 * answers the retry with the first answer instead of creating a second record; an answer from
 * the server, or changed values, start a new submission.
 */
export class SubmissionKey {
  private current: { key: string; values: string } | null = null;

  /** The key for sending `values` now. */
  keyFor(values: unknown): string {
    const sent = JSON.stringify(values);
    if (this.current?.values !== sent) this.current = { key: crypto.randomUUID(), values: sent };
    return this.current.key;
  }

  /** After the call: success, or a 4xx the server decided (not "still in progress"), settles the submission. */
  settle(error?: unknown): void {
    if (error === undefined || (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.code !== 'idempotency_in_progress')) {
      this.current = null;
    }
  }
}
