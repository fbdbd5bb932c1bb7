import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '#shared/errors';
import { ApiError } from '../../lib/api-client';
import fc from 'fast-check';
import { POPUP_INTERNAL_TARGETS } from '#shared/schemas/popups';
import { completeErrorMessage, isLastReminder, parseLoginPopup, popupAction, showsSnooze, snoozeErrorMessage } from './login-popup-rules';

const popup = {
  id: '6f1c2a40-7f3a-4c55-9d1e-2b8f0a1c3d4e',
  title: 'Time for your Vital Scan',
  message: 'It takes 30 seconds.',
  theme: 'purple' as const,
  canSnooze: true,
  snoozeCount: 0,
  maxSnoozes: 2,
  isLastReminder: false,
  actionLabel: 'Book your flu shot',
  actionTarget: '/health/get-care/prescriptions',
};

const apiError = (status: number, error?: string, code: ErrorCode = codeOf(status)) =>
  new ApiError(status, `${status}: ${error ? JSON.stringify({ error, code }) : ''}`, error ? { error, code } : undefined);
function codeOf(status: number): ErrorCode {
  return status === 401 ? 'unauthenticated' : status === 404 ? 'not_found' : status === 400 ? 'validation' : 'internal';
}

describe('parseLoginPopup', () => {
  it('accepts the member popup shape and nothing else', () => {
    expect(parseLoginPopup(popup)).toEqual(popup);
    expect(parseLoginPopup(null)).toBeNull();
    expect(parseLoginPopup({ ...popup, theme: 'red' })).toBeNull();
    expect(parseLoginPopup({ id: popup.id })).toBeNull();
    expect(parseLoginPopup([popup])).toBeNull();
    expect(parseLoginPopup({ ...popup, actionLabel: 7 })).toBeNull();
  });

  it('a popup from a server without actions still shows: Take Vital Scan, to the vital-scan site', () => {
    const { actionLabel: _label, actionTarget: _target, ...old } = popup;
    expect(parseLoginPopup(old)).toEqual({ ...old, actionLabel: 'Take Vital Scan', actionTarget: '' });
  });
});

describe('popupAction: where the button goes', () => {
  const vitalScan = 'https://vitalscan.example.test/start';

  it('every app screen a popup may name is navigated to in the app', () => {
    for (const path of POPUP_INTERNAL_TARGETS) expect(popupAction(path, vitalScan)).toEqual({ kind: 'screen', to: path });
  });

  it('an https address opens as a website; an empty target is the vital-scan site', () => {
    expect(popupAction('https://wellness.example.test/daily', vitalScan)).toEqual({ kind: 'site', url: 'https://wellness.example.test/daily' });
    expect(popupAction('', vitalScan)).toEqual({ kind: 'site', url: vitalScan });
    expect(popupAction('  ', vitalScan)).toEqual({ kind: 'site', url: vitalScan });
    // Configuration not loaded yet: nowhere to go, so the button waits.
    expect(popupAction('', '')).toEqual({ kind: 'none' });
  });

  it.each(['javascript:alert(1)', 'http://example.test/', '//evil.example/x', '/\\evil.example', 'data:text/html,hi', 'https://', 'HTTPS://exa mple.test', '/health?x=<b>', 'mailto:a@b.c'])(
    'refuses %j: no script, no plain http, no other host through a path',
    (target) => {
      expect(popupAction(target, '')).toEqual({ kind: 'none' });
    },
  );

  it('whatever the target, the answer is an app path, an https URL or nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (target) => {
        const action = popupAction(target, '');
        if (action.kind === 'screen') expect(action.to).toMatch(/^\/(?!\/)[A-Za-z0-9/_-]*$/);
        if (action.kind === 'site') expect(new URL(action.url).protocol).toBe('https:');
      }),
    );
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
    expect(snoozeErrorMessage(apiError(401, 'Authentication required'))).toBe('Session expired. Please try again.');
    expect(snoozeErrorMessage(new ApiError(401, 'Token expired - redirecting to login', { error: 'Token expired', code: 'unauthenticated' }))).toBe('Session expired. Please try again.');
    expect(snoozeErrorMessage(apiError(400, 'Maximum snoozes reached for this popup', 'snooze_limit_reached'))).toBe('Unable to snooze - maximum snoozes may have been reached.');
    expect(snoozeErrorMessage(apiError(404, 'Popup not found'))).toBe('Popup no longer available.');
    // The code decides, not the status or the text: another 400 keeps its own sentence.
    expect(snoozeErrorMessage(apiError(400, 'Text contains characters that are not allowed'))).toBe('Text contains characters that are not allowed');
    expect(snoozeErrorMessage(new Error('400 404 401'))).toBe('400 404 401');
    expect(snoozeErrorMessage(apiError(500, 'Internal server error'))).toBe('Internal server error');
    expect(snoozeErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  it('complete: the message, or the fallback', () => {
    expect(completeErrorMessage(apiError(404, 'Popup not found'))).toBe('Popup not found');
    expect(completeErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(completeErrorMessage(undefined)).toBe('Failed to complete popup');
  });
});
