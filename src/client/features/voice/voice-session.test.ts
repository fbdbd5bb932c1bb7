import { describe, expect, it } from 'vitest';
import { voice as text } from '../../lib/messages/voice';
import { paths } from '#shared/paths';
import { healthShortcuts, wealthShortcuts } from '#shared/shortcuts';
import { interpretResult } from './matcher';
import {
  AUDIT_LOG_LIMIT,
  BATTERY_AUTO_DISABLE_BELOW,
  BATTERY_OFF_AT_OR_BELOW,
  BATTERY_WARNING_BELOW,
  CONSENT_BANNER_MS,
  MESSAGE_MS,
  NAVIGATION_DELAY_MS,
  SESSION_MS,
  availability,
  batteryPercentOf,
  consentVisible,
  failureMessage,
  initialVoiceState,
  isBatteryTooLow,
  isLowBatteryWarning,
  nextDeadline,
  secondsRemaining,
  transition,
  type VoiceEffect,
  type VoiceEvent,
  type VoiceSessionState,
} from './voice-session';

const T0 = 1_700_000_000_000;

/** Applies events in order; returns the final state and every effect produced. */
function run(events: [VoiceEvent, number][], from: VoiceSessionState = initialVoiceState({ isSafari: false })) {
  let state = from;
  const effects: VoiceEffect[] = [];
  for (const [event, at] of events) {
    const result = transition(state, event, at);
    state = result.state;
    effects.push(...result.effects);
  }
  return { state, effects };
}

const started = (at = T0, from?: VoiceSessionState) => run([[{ type: 'start_session' }, at]], from).state;
const battery = (percent: number): VoiceEvent => ({ type: 'battery_changed', level: percent / 100 });
const kinds = (state: VoiceSessionState) => state.log.map((e) => e.kind);
const options = { isSafari: false, healthList: healthShortcuts, wealthList: wealthShortcuts };
const heard = (transcript: string, confidence = 0.9): VoiceEvent => ({
  type: 'result',
  outcome: interpretResult({ transcript, confidence }, options),
});

describe('constants (spec section 9)', () => {
  it('session 60 s, consent 4 s, navigation 0.5 s, errors within 3-5 s, log 50', () => {
    expect(SESSION_MS).toBe(60_000);
    expect(CONSENT_BANNER_MS).toBe(4_000);
    expect(NAVIGATION_DELAY_MS).toBe(500);
    expect(MESSAGE_MS).toBeGreaterThanOrEqual(3_000);
    expect(MESSAGE_MS).toBeLessThanOrEqual(5_000);
    expect(AUDIT_LOG_LIMIT).toBe(50);
  });

  it('battery: off at 20% or below, auto-disable below 20%, warning below 30%', () => {
    expect(BATTERY_OFF_AT_OR_BELOW).toBe(20);
    expect(BATTERY_AUTO_DISABLE_BELOW).toBe(20);
    expect(BATTERY_WARNING_BELOW).toBe(30);
  });
});

describe('initial state', () => {
  it('is off, not listening, with an empty log', () => {
    const state = initialVoiceState({ isSafari: true });
    expect(state).toMatchObject({ isSafari: true, enabled: false, listening: false, hidden: false, batteryPercent: null, log: [] });
    expect(availability(state)).toBe('off');
    expect(nextDeadline(state)).toBeNull();
    expect(secondsRemaining(state, T0)).toBeNull();
  });

  it('can start hidden', () => {
    expect(initialVoiceState({ isSafari: false, hidden: true }).hidden).toBe(true);
  });
});

describe('starting a session (consent-gated)', () => {
  it('turns voice on, shows the consent banner and arms the 60 s timeout', () => {
    const state = started();
    expect(state).toMatchObject({ enabled: true, sessionEndsAt: T0 + SESSION_MS, consentUntil: T0 + CONSENT_BANNER_MS });
    expect(availability(state)).toBe('available');
    expect(state.log).toEqual([{ id: 1, at: T0, kind: 'session_started' }]);
    expect(secondsRemaining(state, T0)).toBe(60);
    expect(nextDeadline(state)).toBe(T0 + CONSENT_BANNER_MS);
  });

  it('starting again while on changes nothing (the session is not extended)', () => {
    const state = started();
    expect(transition(state, { type: 'start_session' }, T0 + 1_000).state).toBe(state);
  });

  it('clears a message left from before', () => {
    const before = run([[{ type: 'failure', failure: 'init' }, T0]]).state;
    expect(before.message).not.toBeNull();
    expect(started(T0 + 1, before).message).toBeNull();
  });

  it('is refused while the tab is hidden', () => {
    const state = started(T0, initialVoiceState({ isSafari: false, hidden: true }));
    expect(state.enabled).toBe(false);
    expect(kinds(state)).toEqual(['start_refused_hidden']);
  });

  it.each([
    [19, false],
    [20, false],
    [21, true],
    [100, true],
  ])('at battery %s percent the start succeeds: %s', (percent, ok) => {
    const state = run([
      [battery(percent), T0],
      [{ type: 'start_session' }, T0 + 1],
    ]).state;
    expect(state.enabled).toBe(ok);
    if (!ok) expect(state.log.at(-1)).toMatchObject({ kind: 'start_refused_battery', detail: `${percent}%` });
  });

  it('without the Battery Status API (level unknown) the start succeeds', () => {
    expect(started().enabled).toBe(true);
  });
});

describe('consent banner (about 4 s)', () => {
  it('shows until 4 s have passed', () => {
    const state = started();
    expect(consentVisible(state, T0)).toBe(true);
    expect(consentVisible(state, T0 + CONSENT_BANNER_MS - 1)).toBe(true);
    expect(consentVisible(state, T0 + CONSENT_BANNER_MS)).toBe(false);
  });

  it('the timer clears it at 4 s, not before', () => {
    const state = started();
    expect(transition(state, { type: 'tick' }, T0 + CONSENT_BANNER_MS - 1).state.consentUntil).toBe(T0 + CONSENT_BANNER_MS);
    const after = transition(state, { type: 'tick' }, T0 + CONSENT_BANNER_MS).state;
    expect(after.consentUntil).toBeNull();
    expect(after.enabled).toBe(true);
    expect(nextDeadline(after)).toBe(T0 + SESSION_MS);
  });

  it('is not shown when voice is off', () => {
    expect(consentVisible(initialVoiceState({ isSafari: false }), T0)).toBe(false);
  });
});

describe('session timeout (60 s, reason timeout)', () => {
  it('is still on 1 ms before 60 s', () => {
    const state = transition(started(), { type: 'tick' }, T0 + SESSION_MS - 1).state;
    expect(state.enabled).toBe(true);
    expect(secondsRemaining(state, T0 + SESSION_MS - 1)).toBe(1);
  });

  it('ends at exactly 60 s with reason timeout', () => {
    const state = transition(started(), { type: 'tick' }, T0 + SESSION_MS).state;
    expect(state).toMatchObject({ enabled: false, sessionEndsAt: null, consentUntil: null, lastEndReason: 'timeout' });
    expect(state.log.at(-1)).toEqual({ id: 2, at: T0 + SESSION_MS, kind: 'session_ended_timeout' });
    expect(availability(state)).toBe('off');
  });

  it('a late timer (throttled background tab) logs the end at the deadline, not when it fired', () => {
    const state = transition(started(), { type: 'tick' }, T0 + SESSION_MS + 30_000).state;
    expect(state.log.at(-1)).toMatchObject({ at: T0 + SESSION_MS, kind: 'session_ended_timeout' });
  });

  it('any event after the deadline sees the session ended first: a press does not listen', () => {
    const { state, effects } = run([[{ type: 'press' }, T0 + SESSION_MS]], started());
    expect(state.listening).toBe(false);
    expect(effects).toEqual([]);
  });

  it('ending while listening aborts the recogniser', () => {
    const { state, effects } = run(
      [
        [{ type: 'press' }, T0 + 59_000],
        [{ type: 'tick' }, T0 + SESSION_MS],
      ],
      started(),
    );
    expect(effects).toEqual([{ type: 'start_recognition' }, { type: 'abort_recognition' }]);
    expect(state.listening).toBe(false);
    expect(kinds(state)).toEqual(['session_started', 'listening_started', 'session_ended_timeout', 'listening_stopped']);
  });

  it('a new session after a timeout gets fresh timers', () => {
    const ended = transition(started(), { type: 'tick' }, T0 + SESSION_MS).state;
    const again = transition(ended, { type: 'start_session' }, T0 + 70_000).state;
    expect(again).toMatchObject({ enabled: true, sessionEndsAt: T0 + 70_000 + SESSION_MS, lastEndReason: null });
  });

  it('secondsRemaining rounds up and never goes below 0', () => {
    const state = started();
    expect(secondsRemaining(state, T0 + 1)).toBe(60);
    expect(secondsRemaining(state, T0 + 1_000)).toBe(59);
    expect(secondsRemaining(state, T0 + 59_001)).toBe(1);
    expect(secondsRemaining(state, T0 + 70_000)).toBe(0);
  });
});

describe('kill switch (reason user_disabled)', () => {
  it('turns voice on when off, like Start Voice Session', () => {
    const state = run([[{ type: 'toggle_voice' }, T0]]).state;
    expect(state).toMatchObject({ enabled: true, sessionEndsAt: T0 + SESSION_MS, consentUntil: T0 + CONSENT_BANNER_MS });
  });

  it('turns voice off when on, with reason user_disabled', () => {
    const state = run([[{ type: 'toggle_voice' }, T0 + 5_000]], started()).state;
    expect(state).toMatchObject({ enabled: false, lastEndReason: 'user_disabled', sessionEndsAt: null });
    expect(state.log.at(-1)).toMatchObject({ kind: 'session_ended_user_disabled', at: T0 + 5_000 });
    expect(nextDeadline(state)).toBeNull();
  });

  it('stops listening at once', () => {
    const { state, effects } = run(
      [
        [{ type: 'press' }, T0 + 1_000],
        [{ type: 'toggle_voice' }, T0 + 2_000],
      ],
      started(),
    );
    expect(effects.at(-1)).toEqual({ type: 'abort_recognition' });
    expect(state.listening).toBe(false);
  });

  it('cancels a navigation that was about to start', () => {
    const { state, effects } = run(
      [
        [heard('prescriptions'), T0 + 1_000],
        [{ type: 'toggle_voice' }, T0 + 1_200],
        [{ type: 'tick' }, T0 + 2_000],
      ],
      started(),
    );
    expect(state.pendingNavigation).toBeNull();
    expect(effects.filter((e) => e.type === 'navigate')).toEqual([]);
  });

  it('on, off, on again starts a fresh session', () => {
    const state = run(
      [
        [{ type: 'toggle_voice' }, T0],
        [{ type: 'toggle_voice' }, T0 + 1_000],
        [{ type: 'toggle_voice' }, T0 + 2_000],
      ],
    ).state;
    expect(state.sessionEndsAt).toBe(T0 + 2_000 + SESSION_MS);
    expect(kinds(state)).toEqual(['session_started', 'session_ended_user_disabled', 'session_started']);
  });
});

describe('battery', () => {
  it.each([
    [0.2, 20],
    [0.29, 29],
    [0.3, 30],
    [0.19, 19],
    [0.21, 21],
    [1, 100],
    [0, 0],
    [1.2, 100],
    [-0.1, 0],
    [Number.NaN, 100],
  ])('level %s is %s percent', (level, percent) => {
    expect(batteryPercentOf(level)).toBe(percent);
  });

  it.each([
    [null, false],
    [19, true],
    [20, true],
    [21, false],
  ])('too low at %s: %s', (percent, low) => {
    expect(isBatteryTooLow(percent)).toBe(low);
  });

  it.each([
    [null, false],
    [28, true],
    [29, true],
    [30, false],
    [31, false],
  ])('warning at %s: %s', (percent, warn) => {
    expect(isLowBatteryWarning(percent)).toBe(warn);
  });

  it.each([
    [21, 'available'],
    [20, 'low_battery'],
    [19, 'off'],
  ])('during a session, battery %s percent leaves voice %s', (percent, expected) => {
    const state = run([[battery(percent), T0 + 1_000]], started()).state;
    expect(availability(state)).toBe(expected);
  });

  it('falling below 20% while on auto-disables with reason low_battery', () => {
    const state = run(
      [
        [battery(25), T0 + 1_000],
        [battery(20), T0 + 2_000],
        [battery(19), T0 + 3_000],
      ],
      started(),
    ).state;
    expect(state).toMatchObject({ enabled: false, lastEndReason: 'low_battery' });
    expect(state.log.at(-1)).toMatchObject({ kind: 'session_ended_low_battery', at: T0 + 3_000 });
  });

  it('at exactly 20% while on: unavailable (no listening) but still on', () => {
    const { state, effects } = run(
      [
        [battery(20), T0 + 1_000],
        [{ type: 'press' }, T0 + 2_000],
      ],
      started(),
    );
    expect(state.enabled).toBe(true);
    expect(state.listening).toBe(false);
    expect(effects).toEqual([]);
  });

  it('recovering above 20% makes voice available again within the same session', () => {
    const state = run(
      [
        [battery(20), T0 + 1_000],
        [battery(21), T0 + 2_000],
      ],
      started(),
    ).state;
    expect(availability(state)).toBe('available');
  });

  it('dropping to 20% while listening aborts listening', () => {
    const { state, effects } = run(
      [
        [{ type: 'press' }, T0 + 1_000],
        [battery(20), T0 + 2_000],
      ],
      started(),
    );
    expect(effects).toEqual([{ type: 'start_recognition' }, { type: 'abort_recognition' }]);
    expect(state.listening).toBe(false);
  });

  it('a low battery while off does not log a session end', () => {
    const state = run([[battery(10), T0]]).state;
    expect(kinds(state)).toEqual(['low_battery_warning']);
    expect(state.lastEndReason).toBeNull();
  });

  it('logs the low-battery warning when the level first goes below 30%, once', () => {
    const state = run([
      [battery(31), T0],
      [battery(30), T0 + 1],
      [battery(29), T0 + 2],
      [battery(28), T0 + 3],
      [battery(25), T0 + 4],
    ]).state;
    expect(state.log).toEqual([{ id: 1, at: T0 + 2, kind: 'low_battery_warning', detail: '29%' }]);
  });

  it('logs the warning again after the battery went back to 30% or more', () => {
    const state = run([
      [battery(29), T0],
      [battery(30), T0 + 1],
      [battery(29), T0 + 2],
    ]).state;
    expect(kinds(state)).toEqual(['low_battery_warning', 'low_battery_warning']);
  });

  it('the first reading already below 30% logs the warning', () => {
    expect(kinds(run([[battery(29), T0]]).state)).toEqual(['low_battery_warning']);
  });

  it('a reading of the same percentage changes nothing (the same state, so no one re-renders)', () => {
    const before = run([[battery(64), T0]]).state;
    expect(transition(before, battery(64.4), T0 + 1).state).toBe(before);
    expect(transition(before, battery(63), T0 + 2).state.batteryPercent).toBe(63);
  });
});

describe('hidden tab', () => {
  it('hidden during a session: unavailable and logged as auto-sleep; visible again: logged as wake', () => {
    const hidden = run([[{ type: 'visibility_changed', hidden: true }, T0 + 1_000]], started()).state;
    expect(availability(hidden)).toBe('hidden');
    expect(hidden.log.at(-1)).toMatchObject({ kind: 'auto_sleep', at: T0 + 1_000 });
    expect(hidden.enabled).toBe(true);
    const visible = run([[{ type: 'visibility_changed', hidden: false }, T0 + 2_000]], hidden).state;
    expect(availability(visible)).toBe('available');
    expect(visible.log.at(-1)).toMatchObject({ kind: 'wake', at: T0 + 2_000 });
  });

  it('hidden while listening aborts the recogniser', () => {
    const { state, effects } = run(
      [
        [{ type: 'press' }, T0 + 1_000],
        [{ type: 'visibility_changed', hidden: true }, T0 + 2_000],
      ],
      started(),
    );
    expect(effects).toEqual([{ type: 'start_recognition' }, { type: 'abort_recognition' }]);
    expect(kinds(state)).toEqual(['session_started', 'listening_started', 'auto_sleep', 'listening_stopped']);
  });

  it('the session timer keeps running while hidden', () => {
    const state = run(
      [
        [{ type: 'visibility_changed', hidden: true }, T0 + 1_000],
        [{ type: 'tick' }, T0 + SESSION_MS],
      ],
      started(),
    ).state;
    expect(state.lastEndReason).toBe('timeout');
  });

  it('hiding while off is not logged', () => {
    const state = run([[{ type: 'visibility_changed', hidden: true }, T0]]).state;
    expect(state.hidden).toBe(true);
    expect(state.log).toEqual([]);
  });

  it('a repeated visibility report changes nothing', () => {
    const state = started();
    expect(transition(state, { type: 'visibility_changed', hidden: false }, T0 + 1).state).toBe(state);
  });
});

describe('push-to-talk', () => {
  it('press listens, release stops and lets the recogniser deliver', () => {
    const { state, effects } = run(
      [
        [{ type: 'press' }, T0 + 1_000],
        [{ type: 'release' }, T0 + 3_000],
      ],
      started(),
    );
    expect(effects).toEqual([{ type: 'start_recognition' }, { type: 'stop_recognition' }]);
    expect(state.listening).toBe(false);
    expect(kinds(state)).toEqual(['session_started', 'listening_started', 'listening_stopped']);
  });

  it('press while off does nothing', () => {
    const { state, effects } = run([[{ type: 'press' }, T0]]);
    expect(state.listening).toBe(false);
    expect(effects).toEqual([]);
  });

  it('press while hidden does nothing', () => {
    const { effects } = run(
      [
        [{ type: 'visibility_changed', hidden: true }, T0 + 1],
        [{ type: 'press' }, T0 + 2],
      ],
      started(),
    );
    expect(effects).toEqual([]);
  });

  it('a second press while listening (key repeat) is ignored', () => {
    const first = run([[{ type: 'press' }, T0 + 1]], started()).state;
    expect(transition(first, { type: 'press' }, T0 + 2)).toEqual({ state: first, effects: [] });
  });

  it('release without a press is ignored', () => {
    const state = started();
    expect(transition(state, { type: 'release' }, T0 + 1)).toEqual({ state, effects: [] });
  });

  it('the recogniser ending by itself (single utterance) stops listening without an effect', () => {
    const { state, effects } = run(
      [
        [{ type: 'press' }, T0 + 1],
        [{ type: 'recognition_ended' }, T0 + 2],
      ],
      started(),
    );
    expect(state.listening).toBe(false);
    expect(effects).toEqual([{ type: 'start_recognition' }]);
    expect(kinds(state).at(-1)).toBe('listening_stopped');
  });

  it('the recogniser ending when not listening is ignored', () => {
    const state = started();
    expect(transition(state, { type: 'recognition_ended' }, T0 + 1).state).toBe(state);
  });

  it('pressing clears the previous message', () => {
    const state = run(
      [
        [heard('weather'), T0 + 1],
        [{ type: 'press' }, T0 + 2],
      ],
      started(),
    ).state;
    expect(state.message).toBeNull();
  });
});

describe('results', () => {
  it('a match shows "Opening ..." and navigates 0.5 s later, not before', () => {
    const afterMatch = run([[heard('prescriptions'), T0 + 1_000]], started()).state;
    expect(afterMatch.message).toEqual({ tone: 'success', text: 'Opening Prescriptions...', until: T0 + 1_000 + MESSAGE_MS });
    expect(afterMatch.pendingNavigation).toEqual({ path: paths.prescriptions, at: T0 + 1_500 });
    expect(afterMatch.log.at(-1)).toMatchObject({ kind: 'matched', detail: '"prescriptions" -> Prescriptions' });
    expect(nextDeadline(afterMatch)).toBe(T0 + 1_500);
    expect(transition(afterMatch, { type: 'tick' }, T0 + 1_499).effects).toEqual([]);
    const fired = transition(afterMatch, { type: 'tick' }, T0 + 1_500);
    expect(fired.effects).toEqual([{ type: 'navigate', path: paths.prescriptions }]);
    expect(fired.state.pendingNavigation).toBeNull();
  });

  it('navigation navigates once', () => {
    const { effects } = run(
      [
        [heard('soar'), T0 + 1_000],
        [{ type: 'tick' }, T0 + 1_500],
        [{ type: 'tick' }, T0 + 1_600],
      ],
      started(),
    );
    expect(effects).toEqual([{ type: 'navigate', path: paths.soar }]);
  });

  it('a session that times out between a match and its navigation still navigates', () => {
    const { state, effects } = run([[{ type: 'tick' }, T0 + SESSION_MS + 300]], run([[heard('soar'), T0 + SESSION_MS - 200]], started()).state);
    expect(state.lastEndReason).toBe('timeout');
    expect(effects).toEqual([{ type: 'navigate', path: paths.soar }]);
  });

  it.each([
    ['', 0.9, 'No speech detected. Please speak clearly.', 'empty transcript'],
    ['prescriptions', 0.5, 'Low confidence (50%). Please speak clearly and try again.', 'low confidence 50%: "prescriptions"'],
    ['weather', 0.9, '"weather" - No matching service found. Try: Virtual Care, Prescriptions, SOAR, etc.', 'no match: "weather"'],
  ])('"%s" at %s shows %s', (transcript, confidence, message, detail) => {
    const state = run([[heard(transcript, confidence), T0 + 1_000]], started()).state;
    expect(state.message).toEqual({ tone: 'error', text: message, until: T0 + 1_000 + MESSAGE_MS });
    expect(state.pendingNavigation).toBeNull();
    expect(state.log.at(-1)).toMatchObject({ kind: 'rejected', detail });
  });

  it('a result arriving after voice was turned off is dropped', () => {
    const off = run([[{ type: 'toggle_voice' }, T0 + 1]], started()).state;
    expect(transition(off, heard('prescriptions'), T0 + 2).state).toBe(off);
  });
});

describe('errors and their display time', () => {
  it.each([
    ['no-speech', text.errors.noSpeech],
    ['audio-capture', text.errors.audioCapture],
    ['not-allowed', text.errors.notAllowed],
    ['network', text.errors.network],
    ['service-not-allowed', text.errors.failed],
    ['language-not-supported', text.errors.failed],
  ])('recognition error %s shows its message and stops listening', (code, message) => {
    const state = run(
      [
        [{ type: 'press' }, T0 + 1_000],
        [{ type: 'recognition_error', code }, T0 + 2_000],
      ],
      started(),
    ).state;
    expect(state.listening).toBe(false);
    expect(state.message).toEqual({ tone: 'error', text: message, until: T0 + 2_000 + MESSAGE_MS });
    expect(state.log.at(-1)).toMatchObject({ kind: 'error', detail: code });
  });

  it('Safari gets the Safari text for other errors', () => {
    const state = run([[{ type: 'recognition_error', code: 'service-not-allowed' }, T0 + 1]], started(T0, initialVoiceState({ isSafari: true }))).state;
    expect(state.message?.text).toBe('Voice recognition may work better in Chrome browser.');
  });

  it('aborted shows nothing and is not logged', () => {
    const state = run(
      [
        [{ type: 'press' }, T0 + 1],
        [{ type: 'recognition_error', code: 'aborted' }, T0 + 2],
      ],
      started(),
    ).state;
    expect(state.message).toBeNull();
    expect(state.listening).toBe(false);
    expect(kinds(state)).toEqual(['session_started', 'listening_started']);
  });

  it.each([
    ['start', 'Failed to start voice recognition. Please try again.'],
    ['init', 'Voice features unavailable on this browser.'],
    ['safari_permission', 'Microphone permission required. Please allow access and try again.'],
    ['audio_system', 'Audio system unavailable'],
    ['processing', 'Error processing speech. Please try again.'],
  ] as const)('failure %s shows %s', (failure, message) => {
    expect(failureMessage(failure)).toBe(message);
    const state = run([[{ type: 'failure', failure }, T0 + 1]], started()).state;
    expect(state.message?.text).toBe(message);
    expect(state.log.at(-1)).toMatchObject({ kind: 'error', detail: text.activity.details.failures[failure] });
  });

  it('a message is still shown 1 ms before it expires and cleared when it does', () => {
    const shown = run([[{ type: 'recognition_error', code: 'network' }, T0 + 1_000]], started()).state;
    expect(transition(shown, { type: 'tick' }, T0 + 1_000 + MESSAGE_MS - 1).state.message).not.toBeNull();
    expect(transition(shown, { type: 'tick' }, T0 + 1_000 + MESSAGE_MS).state.message).toBeNull();
  });

  it('a newer message replaces the older one and restarts the clock', () => {
    const state = run(
      [
        [{ type: 'recognition_error', code: 'network' }, T0 + 1_000],
        [{ type: 'recognition_error', code: 'no-speech' }, T0 + 3_000],
        [{ type: 'tick' }, T0 + 1_000 + MESSAGE_MS],
      ],
      started(),
    ).state;
    expect(state.message).toEqual({ tone: 'error', text: text.errors.noSpeech, until: T0 + 3_000 + MESSAGE_MS });
  });
});

describe('nextDeadline', () => {
  it('is the earliest of consent, session, message and navigation', () => {
    const base = started();
    expect(nextDeadline(base)).toBe(T0 + CONSENT_BANNER_MS);
    const withNav = run([[heard('soar'), T0 + 100]], base).state;
    expect(nextDeadline(withNav)).toBe(T0 + 600);
    const onlyMessage = { ...initialVoiceState({ isSafari: false }), message: { tone: 'error' as const, text: 'x', until: T0 + 9 } };
    expect(nextDeadline(onlyMessage)).toBe(T0 + 9);
  });
});

describe('audit log', () => {
  it('keeps at most the last 50 events, oldest dropped first', () => {
    const events: [VoiceEvent, number][] = [];
    for (let i = 0; i < 30; i++) events.push([{ type: 'toggle_voice' }, T0 + i]);
    const state = run(events).state;
    expect(state.log).toHaveLength(30);
    const more = run(
      Array.from({ length: 30 }, (_, i): [VoiceEvent, number] => [{ type: 'toggle_voice' }, T0 + 100 + i]),
      state,
    ).state;
    expect(more.log).toHaveLength(AUDIT_LOG_LIMIT);
    expect(more.log[0]?.id).toBe(11);
    expect(more.log.at(-1)?.id).toBe(60);
    expect(more.log.map((e) => e.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 11));
  });

  it('holds exactly 50 at the limit and 50 one past it', () => {
    const fifty = run(Array.from({ length: 50 }, (_, i): [VoiceEvent, number] => [{ type: 'toggle_voice' }, T0 + i])).state;
    expect(fifty.log).toHaveLength(50);
    expect(fifty.log[0]?.id).toBe(1);
    const fiftyOne = run([[{ type: 'toggle_voice' }, T0 + 50]], fifty).state;
    expect(fiftyOne.log).toHaveLength(50);
    expect(fiftyOne.log[0]?.id).toBe(2);
  });

  it('every entry kind has a label in the Voice activity panel', () => {
    const labels = text.activity.events as Record<string, string>;
    const all = run(
      [
        [battery(29), T0],
        [{ type: 'start_session' }, T0 + 1],
        [{ type: 'press' }, T0 + 2],
        [{ type: 'release' }, T0 + 3],
        [heard('soar'), T0 + 4],
        [heard('weather'), T0 + 5],
        [{ type: 'recognition_error', code: 'network' }, T0 + 6],
        [{ type: 'visibility_changed', hidden: true }, T0 + 7],
        [{ type: 'visibility_changed', hidden: false }, T0 + 8],
        [{ type: 'toggle_voice' }, T0 + 9],
      ],
    ).state;
    for (const entry of all.log) expect(labels[entry.kind]).toEqual(expect.any(String));
  });
});
