import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { healthShortcuts, shortcutsIn, wealthShortcuts } from '#shared/shortcuts';
import { language } from '../../lib/language';
import { members } from '../../lib/messages/members';
import { useAuth } from '../auth/auth-context';
import { detectVoiceSupport, readNavigatorFacts, type VoiceSupport } from './browser-support';
import { interpretResult } from './matcher';
import { createRecognitionDriver, recognitionConstructorOf } from './recognition-driver';
import { createVoiceRuntime, type VoiceRuntime } from './voice-runtime';
import { initialVoiceState } from './voice-session';

/** The services as this page's language names and hears them. */
const healthList = shortcutsIn(language, healthShortcuts, members.shortcutNames);
const wealthList = shortcutsIn(language, wealthShortcuts, members.shortcutNames);

interface BatteryLike {
  level: number;
  addEventListener(type: 'levelchange', listener: () => void): void;
  removeEventListener(type: 'levelchange', listener: () => void): void;
}

type VoiceWindow = Window & {
  SpeechRecognition?: unknown;
  webkitSpeechRecognition?: unknown;
  navigator: Navigator & { getBattery?: () => Promise<BatteryLike>; userAgentData?: { mobile?: boolean } };
};

const voiceWindow = () => window as VoiceWindow;

/** Reads browser support once per page load. */
export function useVoiceSupport(): VoiceSupport {
  return useMemo(() => detectVoiceSupport(readNavigatorFacts(voiceWindow())), []);
}

/**
 * Tab visibility and the Battery Status API (where present) feed the session for its whole life.
 * Bound once the voice block has committed, never while React renders: an answer landing in the
 * middle of a time-sliced render (the battery's first reading) would change the state the render
 * read, and React would then render the whole pending tree again in one blocking task to stay
 * consistent. The visibility is read again here, in case it changed since the session began.
 */
function bindEnvironment(runtime: VoiceRuntime): () => void {
  const win = voiceWindow();
  let disposed = false;
  const onVisibility = () => runtime.dispatch({ type: 'visibility_changed', hidden: document.visibilityState === 'hidden' });
  document.addEventListener('visibilitychange', onVisibility);
  onVisibility();
  let battery: BatteryLike | null = null;
  const onLevel = () => {
    if (battery) runtime.dispatch({ type: 'battery_changed', level: battery.level });
  };
  win.navigator
    .getBattery?.()
    .then((manager) => {
      if (disposed) return;
      battery = manager;
      onLevel();
      manager.addEventListener('levelchange', onLevel);
    })
    .catch(() => undefined);
  return () => {
    disposed = true;
    document.removeEventListener('visibilitychange', onVisibility);
    battery?.removeEventListener('levelchange', onLevel);
  };
}

/**
 * One voice session per signed-in session, kept outside React so that the session timer
 * and the activity log survive leaving Home and coming back. A new sign-in (new token)
 * starts from an empty log: the log is in memory only and never sent to the server.
 */
let active: { key: string; runtime: VoiceRuntime; unbind: (() => void) | null } | null = null;

function runtimeFor(key: string, isSafari: boolean): VoiceRuntime {
  if (active?.key === key) return active.runtime;
  if (active) {
    active.unbind?.();
    active.runtime.dispose();
  }
  const runtime = createVoiceRuntime({ initial: initialVoiceState({ isSafari, hidden: document.visibilityState === 'hidden' }) });
  active = { key, runtime, unbind: null };
  return runtime;
}

/** Binds the environment to the active session, once: it stays bound after the block unmounts. */
function bindActive(runtime: VoiceRuntime) {
  if (active?.runtime === runtime && !active.unbind) active.unbind = bindEnvironment(runtime);
}

/** The voice session for the voice block: state, dispatch, and the recogniser wired to it. */
export function useVoiceSession(support: VoiceSupport) {
  const { token } = useAuth();
  const runtime = useMemo(() => runtimeFor(token ?? 'signed-out', support.isSafari), [token, support.isSafari]);
  // The same state for a screen drawn ahead of time (app/static-screen.tsx): the session's start.
  const state = useSyncExternalStore(runtime.subscribe, runtime.getState, runtime.getState);
  const navigate = useNavigate();

  useEffect(() => {
    bindActive(runtime);
  }, [runtime]);

  useEffect(() => {
    const win = voiceWindow();
    const mediaDevices = win.navigator.mediaDevices as MediaDevices | undefined;
    const driver = createRecognitionDriver({
      getConstructor: () => recognitionConstructorOf(win),
      isSafari: support.isSafari,
      getUserMedia: typeof mediaDevices?.getUserMedia === 'function' ? (c) => mediaDevices.getUserMedia(c) : null,
      dispatch: runtime.dispatch,
      isListening: () => runtime.getState().listening,
      interpret: (result) =>
        interpretResult(result, { isSafari: support.isSafari, healthList, wealthList }),
    });
    runtime.setEffectHandler((effect) => {
      if (effect.type === 'navigate') void navigate(effect.path);
      else driver.handle(effect);
    });
    return () => {
      runtime.setEffectHandler(null);
      // Leaving Home stops listening; the session itself runs on to its timeout.
      runtime.dispatch({ type: 'release' });
      driver.dispose();
    };
  }, [runtime, navigate, support.isSafari]);

  return { state, dispatch: runtime.dispatch };
}

const subscribeEverySecond = (onTick: () => void) => {
  const id = setInterval(onTick, 1000);
  return () => clearInterval(id);
};
const subscribeNever = () => () => undefined;
const currentSecond = () => Math.floor(Date.now() / 1000) * 1000;
const stoppedClock = () => 0;

/**
 * The current time to the second, re-rendering every second while `running` (session countdown);
 * 0 while not. A stopped clock must not move: React compares the value again before committing
 * a time-sliced render, and a second turning over mid-render would have it render the whole
 * pending tree again, blocking, for a countdown no one sees.
 */
export function useSecondClock(running: boolean): number {
  const read = running ? currentSecond : stoppedClock;
  return useSyncExternalStore(running ? subscribeEverySecond : subscribeNever, read, read);
}
