import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '#shared/paths';
import { healthShortcuts, wealthShortcuts } from '#shared/shortcuts';
import { interpretResult } from './matcher';
import { createVoiceRuntime } from './voice-runtime';
import { CONSENT_BANNER_MS, MESSAGE_MS, SESSION_MS, initialVoiceState, type VoiceEffect } from './voice-session';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe('voice runtime with fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => {
    const runtime = createVoiceRuntime({ initial: initialVoiceState({ isSafari: false }) });
    const effects: VoiceEffect[] = [];
    runtime.setEffectHandler((e) => effects.push(e));
    const notified = vi.fn();
    runtime.subscribe(notified);
    return { runtime, effects, notified };
  };

  it('hides the consent banner after 4 s and ends the session after 60 s by itself', () => {
    const { runtime, notified } = setup();
    runtime.dispatch({ type: 'start_session' });
    expect(notified).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CONSENT_BANNER_MS - 1);
    expect(runtime.getState().consentUntil).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(runtime.getState().consentUntil).toBeNull();
    vi.advanceTimersByTime(SESSION_MS - CONSENT_BANNER_MS - 1);
    expect(runtime.getState().enabled).toBe(true);
    vi.advanceTimersByTime(1);
    expect(runtime.getState()).toMatchObject({ enabled: false, lastEndReason: 'timeout' });
    expect(runtime.getState().log.at(-1)).toMatchObject({ kind: 'session_ended_timeout', at: T0 + SESSION_MS });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('navigates 500 ms after a match through the effect handler', () => {
    const { runtime, effects } = setup();
    runtime.dispatch({ type: 'start_session' });
    runtime.dispatch({ type: 'press' });
    vi.advanceTimersByTime(1_000);
    runtime.dispatch({ type: 'release' });
    const outcome = interpretResult(
      { transcript: 'virtual therapy', confidence: 0.92 },
      { isSafari: false, healthList: healthShortcuts, wealthList: wealthShortcuts },
    );
    runtime.dispatch({ type: 'result', outcome });
    vi.advanceTimersByTime(499);
    expect(effects.map((e) => e.type)).toEqual(['start_recognition', 'stop_recognition']);
    vi.advanceTimersByTime(1);
    expect(effects.at(-1)).toEqual({ type: 'navigate', path: paths.virtualTherapy });
  });

  it('clears an error after the display time', () => {
    const { runtime } = setup();
    runtime.dispatch({ type: 'start_session' });
    vi.advanceTimersByTime(10_000);
    runtime.dispatch({ type: 'recognition_error', code: 'no-speech' });
    vi.advanceTimersByTime(MESSAGE_MS - 1);
    expect(runtime.getState().message).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(runtime.getState().message).toBeNull();
  });

  it('the kill switch disarms every timer', () => {
    const { runtime } = setup();
    runtime.dispatch({ type: 'toggle_voice' });
    expect(vi.getTimerCount()).toBe(1);
    runtime.dispatch({ type: 'toggle_voice' });
    expect(vi.getTimerCount()).toBe(0);
    expect(runtime.getState().lastEndReason).toBe('user_disabled');
  });

  it('does not notify listeners when nothing changed', () => {
    const { runtime, notified } = setup();
    runtime.dispatch({ type: 'release' });
    runtime.dispatch({ type: 'tick' });
    expect(notified).not.toHaveBeenCalled();
  });

  it('unsubscribe and dispose stop notifications and timers', () => {
    const { runtime, notified, effects } = setup();
    const other = vi.fn();
    const unsubscribe = runtime.subscribe(other);
    runtime.dispatch({ type: 'start_session' });
    unsubscribe();
    runtime.dispatch({ type: 'press' });
    expect(other).toHaveBeenCalledTimes(1);
    expect(notified).toHaveBeenCalledTimes(2);
    runtime.dispose();
    expect(vi.getTimerCount()).toBe(0);
    const before = runtime.getState();
    runtime.dispatch({ type: 'release' });
    expect(runtime.getState()).toBe(before);
    expect(vi.getTimerCount()).toBe(0);
    expect(effects.map((e) => e.type)).toEqual(['start_recognition']);
  });

  it('accepts an injected clock and timer', () => {
    let now = 5_000;
    const timers: { run: () => void; ms: number }[] = [];
    const runtime = createVoiceRuntime({
      initial: initialVoiceState({ isSafari: false }),
      now: () => now,
      setTimer: (run, ms) => timers.push({ run, ms }),
      clearTimer: () => undefined,
    });
    runtime.dispatch({ type: 'start_session' });
    expect(timers.at(-1)?.ms).toBe(CONSENT_BANNER_MS);
    now += SESSION_MS;
    timers.at(-1)?.run();
    expect(runtime.getState().lastEndReason).toBe('timeout');
  });
});
