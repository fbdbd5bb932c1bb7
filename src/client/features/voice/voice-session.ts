import { voice as text } from '../../lib/messages/voice';
import { recognitionErrorMessage, type RecognitionOutcome } from './matcher';

/** Spec section 9: voice constants. */
export const SESSION_MS = 60_000;
export const CONSENT_BANNER_MS = 4_000;
export const NAVIGATION_DELAY_MS = 500;
/** Errors and notices clear after 3 to 5 s (spec section 9); we take the middle. */
export const MESSAGE_MS = 4_000;
/** Voice is unavailable at or below this battery percentage. */
export const BATTERY_OFF_AT_OR_BELOW = 20;
/** A running session is switched off when the battery falls below this percentage. */
export const BATTERY_AUTO_DISABLE_BELOW = 20;
/** The low-battery warning shows below this percentage. */
export const BATTERY_WARNING_BELOW = 30;
export const AUDIT_LOG_LIMIT = 50;

export type EndReason = 'timeout' | 'user_disabled' | 'low_battery';
export type AuditKind = keyof typeof text.activity.events;

/** One entry of the on-device voice activity log. Never sent to the server. */
export interface AuditEntry {
  id: number;
  at: number;
  kind: AuditKind;
  detail?: string;
}

export type MessageTone = 'error' | 'success';

export interface VoiceMessage {
  tone: MessageTone;
  text: string;
  until: number;
}

export interface VoiceSessionState {
  isSafari: boolean;
  /** Voice is on: the consent-gated session is running. */
  enabled: boolean;
  sessionEndsAt: number | null;
  consentUntil: number | null;
  hidden: boolean;
  /** Whole percent, or null where the Battery Status API is absent. */
  batteryPercent: number | null;
  listening: boolean;
  message: VoiceMessage | null;
  pendingNavigation: { path: string; at: number } | null;
  lastEndReason: EndReason | null;
  log: AuditEntry[];
  nextLogId: number;
}

export type Failure = 'start' | 'init' | 'safari_permission' | 'audio_system' | 'processing';

export type VoiceEvent =
  | { type: 'start_session' }
  /** The kill switch: turns voice off when on (reason user_disabled), on when off. */
  | { type: 'toggle_voice' }
  | { type: 'visibility_changed'; hidden: boolean }
  /** Battery level as the Battery Status API reports it, 0 to 1. */
  | { type: 'battery_changed'; level: number }
  /** The mic button went down (mouse, touch or held key). */
  | { type: 'press' }
  /** The mic button came up. */
  | { type: 'release' }
  /** The recogniser's end event: it stopped by itself (single utterance) or was stopped. */
  | { type: 'recognition_ended' }
  | { type: 'recognition_error'; code: string }
  | { type: 'result'; outcome: RecognitionOutcome }
  | { type: 'failure'; failure: Failure }
  /** A timer fired; due deadlines are handled by every event anyway. */
  | { type: 'tick' };

export type VoiceEffect =
  | { type: 'start_recognition' }
  /** Stop listening and let the recogniser deliver what it heard. */
  | { type: 'stop_recognition' }
  /** Stop listening and discard (voice turned off, tab hidden, battery low). */
  | { type: 'abort_recognition' }
  | { type: 'navigate'; path: string };

export interface Transition {
  state: VoiceSessionState;
  effects: VoiceEffect[];
}

export type Availability = 'available' | 'off' | 'hidden' | 'low_battery';

export function initialVoiceState(options: { isSafari: boolean; hidden?: boolean }): VoiceSessionState {
  return {
    isSafari: options.isSafari,
    enabled: false,
    sessionEndsAt: null,
    consentUntil: null,
    hidden: options.hidden ?? false,
    batteryPercent: null,
    listening: false,
    message: null,
    pendingNavigation: null,
    lastEndReason: null,
    log: [],
    nextLogId: 1,
  };
}

/** Battery level (0..1) to whole percent; rounding keeps 0.29 at 29, not 28.999... */
export function batteryPercentOf(level: number): number {
  if (!Number.isFinite(level)) return 100;
  return Math.round(Math.min(1, Math.max(0, level)) * 100);
}

export function isBatteryTooLow(percent: number | null): boolean {
  return percent !== null && percent <= BATTERY_OFF_AT_OR_BELOW;
}

export function isLowBatteryWarning(percent: number | null): boolean {
  return percent !== null && percent < BATTERY_WARNING_BELOW;
}

/** Whether the mic may listen now, and if not, why (spec section 4). */
export function availability(state: VoiceSessionState): Availability {
  if (!state.enabled) return 'off';
  if (state.hidden) return 'hidden';
  if (isBatteryTooLow(state.batteryPercent)) return 'low_battery';
  return 'available';
}

/** Whether the consent banner shows at `now`. */
export function consentVisible(state: VoiceSessionState, now: number): boolean {
  return state.consentUntil !== null && now < state.consentUntil;
}

/** Whole seconds left in the session, rounded up; null when voice is off. */
export function secondsRemaining(state: VoiceSessionState, now: number): number | null {
  if (state.sessionEndsAt === null) return null;
  return Math.max(0, Math.ceil((state.sessionEndsAt - now) / 1000));
}

/** The earliest moment something is due, for the one timer the runtime keeps. */
export function nextDeadline(state: VoiceSessionState): number | null {
  const due = [state.consentUntil, state.sessionEndsAt, state.message?.until ?? null, state.pendingNavigation?.at ?? null];
  const times = due.filter((t): t is number => t !== null);
  return times.length === 0 ? null : Math.min(...times);
}

function log(state: VoiceSessionState, now: number, kind: AuditKind, detail?: string): VoiceSessionState {
  const entry: AuditEntry = detail === undefined ? { id: state.nextLogId, at: now, kind } : { id: state.nextLogId, at: now, kind, detail };
  const kept = state.log.length >= AUDIT_LOG_LIMIT ? state.log.slice(state.log.length - AUDIT_LOG_LIMIT + 1) : state.log;
  return { ...state, log: [...kept, entry], nextLogId: state.nextLogId + 1 };
}

function show(state: VoiceSessionState, now: number, tone: MessageTone, message: string): VoiceSessionState {
  return { ...state, message: { tone, text: message, until: now + MESSAGE_MS } };
}

const endKinds: Record<EndReason, AuditKind> = {
  timeout: 'session_ended_timeout',
  user_disabled: 'session_ended_user_disabled',
  low_battery: 'session_ended_low_battery',
};

function endSession(state: VoiceSessionState, now: number, reason: EndReason): VoiceSessionState {
  const ended: VoiceSessionState = {
    ...state,
    enabled: false,
    sessionEndsAt: null,
    consentUntil: null,
    lastEndReason: reason,
    // The kill switch stops everything, including a navigation about to start.
    pendingNavigation: reason === 'user_disabled' ? null : state.pendingNavigation,
  };
  return log(ended, now, endKinds[reason]);
}

function startSession(state: VoiceSessionState, now: number): VoiceSessionState {
  if (state.enabled) return state;
  if (state.hidden) return log(state, now, 'start_refused_hidden');
  if (isBatteryTooLow(state.batteryPercent)) return log(state, now, 'start_refused_battery', `${state.batteryPercent}%`);
  const started: VoiceSessionState = {
    ...state,
    enabled: true,
    sessionEndsAt: now + SESSION_MS,
    consentUntil: now + CONSENT_BANNER_MS,
    lastEndReason: null,
    message: null,
  };
  return log(started, now, 'session_started');
}

/** Handles every deadline at or before `now`, in time order. */
function expire(state: VoiceSessionState, now: number, effects: VoiceEffect[]): VoiceSessionState {
  let next = state;
  const due = [
    { at: next.consentUntil, run: (s: VoiceSessionState) => ({ ...s, consentUntil: null }) },
    { at: next.sessionEndsAt, run: (s: VoiceSessionState) => endSession(s, s.sessionEndsAt ?? now, 'timeout') },
    { at: next.message?.until ?? null, run: (s: VoiceSessionState) => ({ ...s, message: null }) },
    {
      at: next.pendingNavigation?.at ?? null,
      run: (s: VoiceSessionState) => {
        if (s.pendingNavigation) effects.push({ type: 'navigate', path: s.pendingNavigation.path });
        return { ...s, pendingNavigation: null };
      },
    },
  ]
    .filter((d): d is { at: number; run: (s: VoiceSessionState) => VoiceSessionState } => d.at !== null && d.at <= now)
    .sort((a, b) => a.at - b.at);
  for (const d of due) next = d.run(next);
  return next;
}

function handle(state: VoiceSessionState, event: VoiceEvent, now: number, effects: VoiceEffect[]): VoiceSessionState {
  switch (event.type) {
    case 'tick':
      return state;
    case 'start_session':
      return startSession(state, now);
    case 'toggle_voice':
      return state.enabled ? endSession(state, now, 'user_disabled') : startSession(state, now);
    case 'visibility_changed': {
      if (event.hidden === state.hidden) return state;
      const next = { ...state, hidden: event.hidden };
      if (!state.enabled) return next;
      return event.hidden ? log(next, now, 'auto_sleep') : log(next, now, 'wake');
    }
    case 'battery_changed': {
      const percent = batteryPercentOf(event.level);
      const before = state.batteryPercent;
      if (percent === before) return state;
      let next: VoiceSessionState = { ...state, batteryPercent: percent };
      if (isLowBatteryWarning(percent) && !isLowBatteryWarning(before)) {
        next = log(next, now, 'low_battery_warning', `${percent}%`);
      }
      if (next.enabled && percent < BATTERY_AUTO_DISABLE_BELOW) next = endSession(next, now, 'low_battery');
      return next;
    }
    case 'press': {
      if (state.listening || availability(state) !== 'available') return state;
      effects.push({ type: 'start_recognition' });
      return log({ ...state, listening: true, message: null }, now, 'listening_started');
    }
    case 'release': {
      if (!state.listening) return state;
      effects.push({ type: 'stop_recognition' });
      return log({ ...state, listening: false }, now, 'listening_stopped');
    }
    case 'recognition_ended': {
      if (!state.listening) return state;
      return log({ ...state, listening: false }, now, 'listening_stopped');
    }
    case 'recognition_error': {
      const message = recognitionErrorMessage(event.code, state.isSafari);
      const next = { ...state, listening: false };
      if (message === null) return next;
      return show(log(next, now, 'error', event.code), now, 'error', message);
    }
    case 'failure': {
      const next = { ...state, listening: false };
      return show(log(next, now, 'error', text.activity.details.failures[event.failure]), now, 'error', failureMessage(event.failure));
    }
    case 'result': {
      // A result that arrives after voice was switched off is dropped.
      if (!state.enabled) return state;
      const { outcome } = event;
      const details = text.activity.details;
      if (outcome.kind === 'matched') {
        const next = log(state, now, 'matched', details.matched(outcome.transcript, outcome.shortcut.name));
        return show({ ...next, pendingNavigation: { path: outcome.shortcut.path, at: now + NAVIGATION_DELAY_MS } }, now, 'success', outcome.message);
      }
      const detail =
        outcome.kind === 'empty'
          ? details.empty
          : outcome.kind === 'low_confidence'
            ? details.lowConfidence(outcome.percent, outcome.transcript)
            : details.noMatch(outcome.transcript);
      return show(log(state, now, 'rejected', detail), now, 'error', outcome.message);
    }
  }
}

export function failureMessage(failure: Failure): string {
  switch (failure) {
    case 'start':
      return text.errors.startFailed;
    case 'init':
      return text.errors.initFailed;
    case 'safari_permission':
      return text.errors.safariPermission;
    case 'audio_system':
      return text.errors.audioSystem;
    case 'processing':
      return text.errors.processing;
  }
}

/**
 * The voice session state machine (spec section 4): a pure function of the state, one
 * event and the time it happened. Deadlines due by `now` are handled first, so a late
 * timer (a throttled background tab) still ends the session at its deadline. Whenever the
 * mic is no longer available while listening, listening is aborted.
 */
export function transition(state: VoiceSessionState, event: VoiceEvent, now: number): Transition {
  const effects: VoiceEffect[] = [];
  let next = expire(state, now, effects);
  next = handle(next, event, now, effects);
  if (next.listening && availability(next) !== 'available') {
    effects.push({ type: 'abort_recognition' });
    next = log({ ...next, listening: false }, now, 'listening_stopped');
  }
  return { state: next, effects };
}
