import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { completeErrorMessage, isLastReminder, parseLoginPopup, showsSnooze, snoozeErrorMessage } from './login-popup-rules';

const popup = {
  id: '6f1c2a40-7f3a-4c55-9d1e-2b8f0a1c3d4e',
  title: 'Time for your Vital Scan',
  message: 'It takes 30 seconds.',
  theme: 'purple' as const,
  canSnooze: true,
  snoozeCount: 0,
  maxSnoozes: 2,
  isLastReminder: false,
};

const apiError = (status: number, error?: string) =>
  new ApiError(status, `${status}: ${error ? JSON.stringify({ error }) : ''}`, error ? { error } : undefined);

describe('parseLoginPopup', () => {
  it('accepts the member popup shape and nothing else', () => {
    expect(parseLoginPopup(popup)).toEqual(popup);
    expect(parseLoginPopup(null)).toBeNull();
    expect(parseLoginPopup({ ...popup, theme: 'red' })).toBeNull();
    expect(parseLoginPopup({ id: popup.id })).toBeNull();
  });
});

describe('last reminder and Snooze', () => {
  it.each([
    [{ snoozeCount: 0, maxSnoozes: 2, canSnooze: true, isLastReminder: false }, false, true],
    [{ snoozeCount: 1, maxSnoozes: 2, canSnooze: true, isLastReminder: false }, false, true],
    [{ snoozeCount: 2, maxSnoozes: 2, canSnooze: false, isLastReminder: true }, true, false],
    // Either signal alone makes it the last reminder.
    [{ snoozeCount: 0, maxSnoozes: 2, canSnooze: true, isLastReminder: true }, true, false],
    [{ snoozeCount: 2, maxSnoozes: 2, canSnooze: true, isLastReminder: false }, true, false],
    [{ snoozeCount: 0, maxSnoozes: 0, canSnooze: false, isLastReminder: true }, true, false],
    // canSnooze false hides Snooze even below the limit.
    [{ snoozeCount: 0, maxSnoozes: 2, canSnooze: false, isLastReminder: false }, false, false],
  ])('%j: last %s, Snooze %s', (state, last, snooze) => {
    const p = { ...popup, ...state };
    expect(isLastReminder(p)).toBe(last);
    expect(showsSnooze(p)).toBe(snooze);
  });
});

describe('error messages (spec section 8)', () => {
  it('snooze: 401, 400 and 404 have their own sentences; otherwise the message', () => {
    expect(snoozeErrorMessage(apiError(401))).toBe('Session expired. Please try again.');
    expect(snoozeErrorMessage(new ApiError(401, 'Token expired - redirecting to login', undefined))).toBe('Session expired. Please try again.');
    expect(snoozeErrorMessage(apiError(400, 'Maximum snoozes reached for this popup'))).toBe('Unable to snooze - maximum snoozes may have been reached.');
    expect(snoozeErrorMessage(apiError(404, 'Popup not found'))).toBe('Popup no longer available.');
    expect(snoozeErrorMessage(apiError(500, 'Internal server error'))).toBe('Internal server error');
    expect(snoozeErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  it('complete: the message, or the fallback', () => {
    expect(completeErrorMessage(apiError(404, 'Popup not found'))).toBe('Popup not found');
    expect(completeErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(completeErrorMessage(undefined)).toBe('Failed to complete popup');
  });
});
