import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { formErrorOf } from './form-errors';

const refusal = (status: number, body: { error: string; code: string; fields?: Record<string, string> }) =>
  new ApiError(status, `${status}: ${JSON.stringify(body)}`, body as ConstructorParameters<typeof ApiError>[2]);

describe('formErrorOf', () => {
  const names = ['firstName', 'lastName', 'dob'] as const;

  it('puts the messages for the form’s own fields under them, first in screen order, and no form message', () => {
    const err = refusal(400, { error: 'Enter a date', code: 'validation', fields: { dob: 'Enter a date', lastName: 'Required', other: 'Not on this form' } });
    expect(formErrorOf(err, names, 'Could not save')).toEqual({ fields: { lastName: 'Required', dob: 'Enter a date' }, firstField: 'lastName', message: null });
  });

  it("gives any other refusal's sentence as the form message: a rule, offline, a field this form does not have", () => {
    expect(formErrorOf(refusal(409, { error: 'You can add up to 20 family members.', code: 'conflict' }), names, 'Could not save').message).toBe('You can add up to 20 family members.');
    expect(formErrorOf(refusal(400, { error: 'Bad', code: 'validation', fields: { other: 'Bad' } }), names, 'Could not save')).toEqual({ fields: {}, firstField: null, message: 'Bad' });
  });

  it("falls back on an internal error, whose sentence a member cannot act on, and when the server sent none or did not answer", () => {
    expect(formErrorOf(refusal(500, { error: 'Internal server error', code: 'internal' }), names, 'Could not save').message).toBe('Could not save');
    expect(formErrorOf(new ApiError(502, '502: Bad Gateway', undefined), names, 'Could not save').message).toBe('Could not save');
    expect(formErrorOf(new TypeError('Failed to fetch'), names, 'Could not save')).toEqual({ fields: {}, firstField: null, message: 'Could not save' });
  });
});
