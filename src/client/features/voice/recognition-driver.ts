import { LANGUAGE_LOCALES } from '#shared/i18n/languages';
import { language } from '../../lib/language';
import type { RecognitionOutcome, RecognitionResult } from './matcher';
import type { VoiceEffect, VoiceEvent } from './voice-session';

/** The part of the Web Speech API's SpeechRecognition we use (absent from TypeScript's DOM lib). */
export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: SpeechResultEventLike) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export interface SpeechResultEventLike {
  resultIndex?: number;
  results: ArrayLike<ArrayLike<{ transcript: string; confidence: number }> & { isFinal?: boolean }>;
}

export type SpeechRecognitionConstructor = new () => SpeechRecognitionLike;

/** The constructor, unprefixed or webkit-prefixed, or null. */
export function recognitionConstructorOf(win: {
  SpeechRecognition?: unknown;
  webkitSpeechRecognition?: unknown;
}): SpeechRecognitionConstructor | null {
  const ctor = win.SpeechRecognition ?? win.webkitSpeechRecognition;
  return typeof ctor === 'function' ? (ctor as SpeechRecognitionConstructor) : null;
}

/** Recognition is in the page's language (en-US, es-US), single utterance, one alternative (spec section 5). */
export function configureRecognition(recognition: SpeechRecognitionLike): void {
  recognition.lang = LANGUAGE_LOCALES[language];
  recognition.continuous = false;
  recognition.interimResults = false;
  recognition.maxAlternatives = 1;
}

/** The first alternative of the result the event reports; throws on a malformed event. */
export function readResult(event: SpeechResultEventLike): RecognitionResult {
  const result = event.results[event.resultIndex ?? 0];
  const alternative = result?.[0];
  if (!alternative || typeof alternative.transcript !== 'string') throw new Error('speech result without an alternative');
  return { transcript: alternative.transcript, confidence: Number(alternative.confidence) };
}

export interface DriverDeps {
  getConstructor: () => SpeechRecognitionConstructor | null;
  isSafari: boolean;
  /** `navigator.mediaDevices.getUserMedia`, bound, where it exists. */
  getUserMedia: ((constraints: { audio: true }) => Promise<{ getTracks(): { stop(): void }[] }>) | null;
  dispatch: (event: VoiceEvent) => void;
  /** Whether the member is still holding the button (checked after an async permission prompt). */
  isListening: () => boolean;
  interpret: (result: RecognitionResult) => RecognitionOutcome;
}

export interface RecognitionDriver {
  handle(effect: Exclude<VoiceEffect, { type: 'navigate' }>): void;
  dispose(): void;
}

/**
 * Drives one SpeechRecognition per press. Only the current instance may report: events
 * from one that was stopped or aborted earlier are ignored. Safari asks for the microphone
 * once through getUserMedia first, so a refusal gets Safari's own message.
 */
export function createRecognitionDriver(deps: DriverDeps): RecognitionDriver {
  let current: SpeechRecognitionLike | null = null;
  let micGranted = false;
  let generation = 0;

  const detach = (recognition: SpeechRecognitionLike) => {
    recognition.onresult = null;
    recognition.onerror = null;
    recognition.onend = null;
  };

  const begin = () => {
    const Ctor = deps.getConstructor();
    let recognition: SpeechRecognitionLike;
    try {
      if (!Ctor) throw new Error('SpeechRecognition is missing');
      recognition = new Ctor();
      configureRecognition(recognition);
    } catch {
      deps.dispatch({ type: 'failure', failure: 'init' });
      return;
    }
    recognition.onresult = (event) => {
      if (current !== recognition) return;
      let outcome: RecognitionOutcome;
      try {
        outcome = deps.interpret(readResult(event));
      } catch {
        deps.dispatch({ type: 'failure', failure: 'processing' });
        return;
      }
      deps.dispatch({ type: 'result', outcome });
    };
    recognition.onerror = (event) => {
      if (current !== recognition) return;
      deps.dispatch({ type: 'recognition_error', code: String(event.error) });
    };
    recognition.onend = () => {
      if (current !== recognition) return;
      current = null;
      deps.dispatch({ type: 'recognition_ended' });
    };
    current = recognition;
    try {
      recognition.start();
    } catch {
      current = null;
      detach(recognition);
      deps.dispatch({ type: 'failure', failure: 'start' });
    }
  };

  const start = async () => {
    const mine = ++generation;
    if (deps.isSafari && !micGranted) {
      if (!deps.getUserMedia) {
        deps.dispatch({ type: 'failure', failure: 'audio_system' });
        return;
      }
      try {
        const stream = await deps.getUserMedia({ audio: true });
        for (const track of stream.getTracks()) track.stop();
        micGranted = true;
      } catch {
        deps.dispatch({ type: 'failure', failure: 'safari_permission' });
        return;
      }
      // The member may have let go (or pressed again) while the permission prompt was up.
      if (mine !== generation || !deps.isListening()) return;
    }
    begin();
  };

  const end = (how: 'stop' | 'abort') => {
    generation++;
    const recognition = current;
    if (!recognition) return;
    if (how === 'abort') {
      current = null;
      detach(recognition);
      try {
        recognition.abort();
      } catch {
        // Already ended: nothing to discard.
      }
      return;
    }
    try {
      recognition.stop();
    } catch {
      current = null;
      detach(recognition);
    }
  };

  return {
    handle(effect) {
      if (effect.type === 'start_recognition') void start();
      else if (effect.type === 'stop_recognition') end('stop');
      else end('abort');
    },
    dispose() {
      end('abort');
    },
  };
}
