import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { SubmissionKey } from './submission-key';

const refused = (status: number, code: string) => new ApiError(status, 'refused', { error: 'refused', code } as never);

describe('SubmissionKey', () => {
  it('reuses the key for a retry of the same values after no answer', () => {
    const submission = new SubmissionKey();
    const first = submission.keyFor({ name: 'Acme' });
    submission.settle(new TypeError('Failed to fetch'));
    expect(submission.keyFor({ name: 'Acme' })).toBe(first);
    submission.settle(refused(503, 'unavailable'));
    expect(submission.keyFor({ name: 'Acme' })).toBe(first);
    submission.settle(refused(409, 'idempotency_in_progress'));
    expect(submission.keyFor({ name: 'Acme' })).toBe(first);
  });

  it('starts a new submission after success, a decided 4xx, or changed values', () => {
    const submission = new SubmissionKey();
    const first = submission.keyFor({ name: 'Acme' });
    const changed = submission.keyFor({ name: 'Acme Ltd' });
    expect(changed).not.toBe(first);
    submission.settle(refused(400, 'validation'));
    const afterRefusal = submission.keyFor({ name: 'Acme Ltd' });
    expect(afterRefusal).not.toBe(changed);
    submission.settle();
    expect(submission.keyFor({ name: 'Acme Ltd' })).not.toBe(afterRefusal);
  });
});
