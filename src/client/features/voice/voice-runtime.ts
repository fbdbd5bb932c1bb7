import { nextDeadline, transition, type VoiceEffect, type VoiceEvent, type VoiceSessionState } from './voice-session';

export interface VoiceRuntime {
  getState(): VoiceSessionState;
  dispatch(event: VoiceEvent): void;
  subscribe(listener: () => void): () => void;
  /** Where effects go (the recogniser and the router); replaced when the voice block mounts. */
  setEffectHandler(handler: ((effect: VoiceEffect) => void) | null): void;
  dispose(): void;
}

export interface RuntimeOptions {
  initial: VoiceSessionState;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/**
 * Runs the pure state machine: one timer armed for the next deadline, listeners notified
 * after every change, effects handed to whoever drives the recogniser and the router.
 */
export function createVoiceRuntime(options: RuntimeOptions): VoiceRuntime {
  const now = options.now ?? (() => Date.now());
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let state = options.initial;
  let timer: unknown = null;
  let effectHandler: ((effect: VoiceEffect) => void) | null = null;
  const listeners = new Set<() => void>();
  let disposed = false;

  const arm = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
    const deadline = nextDeadline(state);
    if (deadline === null) return;
    timer = setTimer(() => {
      timer = null;
      dispatch({ type: 'tick' });
    }, Math.max(0, deadline - now()));
  };

  const dispatch = (event: VoiceEvent) => {
    if (disposed) return;
    const result = transition(state, event, now());
    const changed = result.state !== state;
    state = result.state;
    arm();
    if (changed) for (const listener of listeners) listener();
    for (const effect of result.effects) effectHandler?.(effect);
  };

  return {
    getState: () => state,
    dispatch,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setEffectHandler(handler) {
      effectHandler = handler;
    },
    dispose() {
      disposed = true;
      if (timer !== null) clearTimer(timer);
      timer = null;
      listeners.clear();
      effectHandler = null;
    },
  };
}
