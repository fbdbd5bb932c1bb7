import type { Page } from '@playwright/test';

/** One scripted answer of the fake recogniser, consumed by the next start(). */
export type VoiceStep =
  /** Heard while the button is held; delivered when it is released (stop()). */
  | { kind: 'result'; transcript: string; confidence: number }
  /** The recogniser fails while listening, then ends. */
  | { kind: 'error'; code: string }
  /** start() throws. */
  | { kind: 'throw' }
  /** Nothing heard: on release the recogniser just ends (also what an unscripted start does). */
  | { kind: 'silence' };

export interface VoiceFakeOptions {
  /** Omit SpeechRecognition entirely (an unsupported browser). */
  noRecognition?: boolean;
  /** The constructor throws. */
  failInit?: boolean;
  /** Battery level 0..1 reported by a fake Battery Status API; omitted: no API. */
  battery?: number;
  /** Replace getUserMedia: 'grant' resolves a fake stream, 'deny' rejects. */
  getUserMedia?: 'grant' | 'deny';
}

declare global {
  interface Window {
    __voice: {
      script: VoiceStep[];
      starts: { lang: string; continuous: boolean; interimResults: boolean; maxAlternatives: number }[];
      stops: number;
      aborts: number;
      setBattery(level: number): void;
      setHidden(hidden: boolean): void;
    };
  }
}

/**
 * Installs, before any page script runs, a scripted SpeechRecognition (webkit-prefixed, as
 * Chrome ships it), an optional Battery Status API and a controllable page visibility.
 */
export async function installVoiceFakes(page: Page, options: VoiceFakeOptions = {}) {
  await page.addInitScript((opts: VoiceFakeOptions) => {
    const w = window as unknown as Record<string, unknown>;
    delete w.SpeechRecognition;
    delete w.webkitSpeechRecognition;
    const state: Window['__voice'] = {
      script: [],
      starts: [],
      stops: 0,
      aborts: 0,
      setBattery: () => undefined,
      setHidden: () => undefined,
    };
    window.__voice = state;
    const later = (run: () => void) => void Promise.resolve().then(run);

    type Handlers = {
      onresult: ((e: unknown) => void) | null;
      onerror: ((e: { error: string }) => void) | null;
      onend: (() => void) | null;
    };
    class FakeSpeechRecognition implements Handlers {
      lang = '';
      continuous = true;
      interimResults = true;
      maxAlternatives = 5;
      onresult: Handlers['onresult'] = null;
      onerror: Handlers['onerror'] = null;
      onend: Handlers['onend'] = null;
      private step: VoiceStep | null = null;
      private ended = false;
      constructor() {
        if (opts.failInit) throw new Error('SpeechRecognition unavailable');
      }
      start() {
        const step = state.script.shift() ?? { kind: 'silence' };
        if (step.kind === 'throw') throw new Error('InvalidStateError');
        this.step = step;
        state.starts.push({ lang: this.lang, continuous: this.continuous, interimResults: this.interimResults, maxAlternatives: this.maxAlternatives });
        if (step.kind === 'error') {
          later(() => {
            this.onerror?.({ error: step.code });
            this.finish();
          });
        }
      }
      stop() {
        state.stops += 1;
        const step = this.step;
        later(() => {
          if (this.ended) return;
          if (step?.kind === 'result') {
            const alternative = { transcript: step.transcript, confidence: step.confidence };
            const result = Object.assign([alternative], { isFinal: true });
            this.onresult?.({ resultIndex: 0, results: [result] });
          }
          this.finish();
        });
      }
      abort() {
        state.aborts += 1;
        later(() => {
          if (this.ended) return;
          this.onerror?.({ error: 'aborted' });
          this.finish();
        });
      }
      private finish() {
        if (this.ended) return;
        this.ended = true;
        this.onend?.();
      }
    }
    if (!opts.noRecognition) w.webkitSpeechRecognition = FakeSpeechRecognition;

    if (opts.battery !== undefined) {
      const battery = new EventTarget() as EventTarget & { level: number; charging: boolean };
      battery.level = opts.battery;
      battery.charging = false;
      Object.defineProperty(Navigator.prototype, 'getBattery', { configurable: true, value: () => Promise.resolve(battery) });
      state.setBattery = (level: number) => {
        battery.level = level;
        battery.dispatchEvent(new Event('levelchange'));
      };
    } else {
      delete (Navigator.prototype as unknown as Record<string, unknown>).getBattery;
    }

    let hidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
    state.setHidden = (value: boolean) => {
      hidden = value;
      document.dispatchEvent(new Event('visibilitychange'));
    };

    if (opts.getUserMedia) {
      const grant = opts.getUserMedia === 'grant';
      Object.defineProperty(MediaDevices.prototype, 'getUserMedia', {
        configurable: true,
        value: () =>
          grant
            ? Promise.resolve({ getTracks: () => [{ stop: () => undefined }] })
            : Promise.reject(new DOMException('Permission denied', 'NotAllowedError')),
      });
    }
  }, options);
}

/** Queues what the fake recogniser "hears" at its next starts. */
export async function script(page: Page, ...steps: VoiceStep[]) {
  await page.evaluate((s) => window.__voice.script.push(...s), steps);
}
