import { describe, expect, it, vi } from 'vitest';
import { paths } from '#shared/paths';
import { healthShortcuts, wealthShortcuts } from '#shared/shortcuts';
import { interpretResult } from './matcher';
import {
  createRecognitionDriver,
  readResult,
  recognitionConstructorOf,
  type DriverDeps,
  type SpeechRecognitionLike,
  type SpeechResultEventLike,
} from './recognition-driver';
import type { VoiceEvent } from './voice-session';

class FakeRecognition implements SpeechRecognitionLike {
  static instances: FakeRecognition[] = [];
  static failStart = false;
  lang = '';
  continuous = true;
  interimResults = true;
  maxAlternatives = 5;
  onresult: SpeechRecognitionLike['onresult'] = null;
  onerror: SpeechRecognitionLike['onerror'] = null;
  onend: SpeechRecognitionLike['onend'] = null;
  started = false;
  stopped = false;
  aborted = false;
  constructor() {
    FakeRecognition.instances.push(this);
  }
  start() {
    if (FakeRecognition.failStart) throw new Error('InvalidStateError');
    this.started = true;
  }
  stop() {
    this.stopped = true;
  }
  abort() {
    this.aborted = true;
  }
  say(transcript: string, confidence: number) {
    this.onresult?.({ resultIndex: 0, results: [Object.assign([{ transcript, confidence }], { isFinal: true })] });
  }
}

const interpret: DriverDeps['interpret'] = (result) =>
  interpretResult(result, { isSafari: false, healthList: healthShortcuts, wealthList: wealthShortcuts });

function setup(overrides: Partial<DriverDeps> = {}) {
  FakeRecognition.instances = [];
  FakeRecognition.failStart = false;
  const events: VoiceEvent[] = [];
  let listening = true;
  const driver = createRecognitionDriver({
    getConstructor: () => FakeRecognition,
    isSafari: false,
    getUserMedia: null,
    dispatch: (e) => events.push(e),
    isListening: () => listening,
    interpret,
    ...overrides,
  });
  return { driver, events, setListening: (v: boolean) => (listening = v), last: () => FakeRecognition.instances.at(-1) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('recognitionConstructorOf', () => {
  it('prefers the unprefixed constructor, falls back to webkit, else null', () => {
    class A {}
    class B {}
    expect(recognitionConstructorOf({ SpeechRecognition: A, webkitSpeechRecognition: B })).toBe(A);
    expect(recognitionConstructorOf({ webkitSpeechRecognition: B })).toBe(B);
    expect(recognitionConstructorOf({})).toBeNull();
    expect(recognitionConstructorOf({ SpeechRecognition: 'nope' })).toBeNull();
  });
});

describe('readResult', () => {
  it('reads the first alternative of the reported result', () => {
    const event: SpeechResultEventLike = { resultIndex: 1, results: [[{ transcript: 'a', confidence: 0.1 }], [{ transcript: 'b', confidence: 0.8 }]] };
    expect(readResult(event)).toEqual({ transcript: 'b', confidence: 0.8 });
  });

  it('throws on an event without an alternative', () => {
    expect(() => readResult({ results: [] })).toThrow();
    expect(() => readResult({ results: [[]] })).toThrow();
  });
});

describe('recognition driver', () => {
  it('configures en-US, a single utterance and one alternative, then starts', async () => {
    const { driver, last } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(last()).toMatchObject({ lang: 'en-US', continuous: false, interimResults: false, maxAlternatives: 1, started: true });
  });

  it('turns a result into an interpreted outcome', async () => {
    const { driver, events, last } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    last()?.say('Prescriptions', 0.93);
    expect(events).toEqual([{ type: 'result', outcome: expect.objectContaining({ kind: 'matched', shortcut: expect.objectContaining({ path: paths.prescriptions }) }) }]);
  });

  it('a malformed result is a processing failure', async () => {
    const { driver, events, last } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    last()?.onresult?.({ results: [] });
    expect(events).toEqual([{ type: 'failure', failure: 'processing' }]);
  });

  it('reports recognition errors and the end', async () => {
    const { driver, events, last } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    last()?.onerror?.({ error: 'no-speech' });
    last()?.onend?.();
    expect(events).toEqual([{ type: 'recognition_error', code: 'no-speech' }, { type: 'recognition_ended' }]);
  });

  it('stop asks the recogniser to finish and still delivers its result', async () => {
    const { driver, events, last } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    driver.handle({ type: 'stop_recognition' });
    expect(last()?.stopped).toBe(true);
    last()?.say('soar', 0.9);
    expect(events[0]).toMatchObject({ type: 'result', outcome: { kind: 'matched' } });
  });

  it('abort discards: nothing the aborted recogniser says is reported', async () => {
    const { driver, events, last } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    const aborted = last();
    driver.handle({ type: 'abort_recognition' });
    expect(aborted?.aborted).toBe(true);
    aborted?.say('soar', 0.9);
    aborted?.onerror?.({ error: 'aborted' });
    aborted?.onend?.();
    expect(events).toEqual([]);
  });

  it('only the newest recogniser may report', async () => {
    const { driver, events } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    const first = FakeRecognition.instances[0];
    driver.handle({ type: 'stop_recognition' });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(FakeRecognition.instances).toHaveLength(2);
    first?.onend?.();
    expect(events).toEqual([]);
    FakeRecognition.instances[1]?.onend?.();
    expect(events).toEqual([{ type: 'recognition_ended' }]);
  });

  it('a constructor that throws is an init failure', async () => {
    const { driver, events } = setup({
      getConstructor: () =>
        class {
          constructor() {
            throw new Error('boom');
          }
        } as never,
    });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(events).toEqual([{ type: 'failure', failure: 'init' }]);
  });

  it('a missing constructor is an init failure', async () => {
    const { driver, events } = setup({ getConstructor: () => null });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(events).toEqual([{ type: 'failure', failure: 'init' }]);
  });

  it('start() throwing is a start failure', async () => {
    const { driver, events } = setup();
    FakeRecognition.failStart = true;
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(events).toEqual([{ type: 'failure', failure: 'start' }]);
  });

  it('dispose aborts the current recogniser', async () => {
    const { driver, last } = setup();
    driver.handle({ type: 'start_recognition' });
    await flush();
    driver.dispose();
    expect(last()?.aborted).toBe(true);
  });

  it('stop or abort with nothing running is harmless', () => {
    const { driver, events } = setup();
    driver.handle({ type: 'stop_recognition' });
    driver.handle({ type: 'abort_recognition' });
    expect(events).toEqual([]);
  });
});

describe('recognition driver in Safari', () => {
  const stream = () => ({ getTracks: () => [{ stop: vi.fn() }] });

  it('asks for the microphone once, releases the test stream, then listens', async () => {
    const media = stream();
    const getUserMedia = vi.fn(async () => media);
    const { driver, last } = setup({ isSafari: true, getUserMedia });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(last()?.started).toBe(true);
    driver.handle({ type: 'stop_recognition' });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(FakeRecognition.instances).toHaveLength(2);
  });

  it('a refused microphone shows the Safari permission message', async () => {
    const { driver, events } = setup({ isSafari: true, getUserMedia: vi.fn(async () => Promise.reject(new Error('NotAllowedError'))) });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(events).toEqual([{ type: 'failure', failure: 'safari_permission' }]);
    expect(FakeRecognition.instances).toHaveLength(0);
  });

  it('no getUserMedia at all: the audio system is unavailable', async () => {
    const { driver, events } = setup({ isSafari: true, getUserMedia: null });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(events).toEqual([{ type: 'failure', failure: 'audio_system' }]);
  });

  it('does not start when the member let go during the permission prompt', async () => {
    let grant: (value: ReturnType<typeof stream>) => void = () => undefined;
    const getUserMedia = vi.fn(() => new Promise<ReturnType<typeof stream>>((resolve) => (grant = resolve)));
    const { driver, setListening } = setup({ isSafari: true, getUserMedia });
    driver.handle({ type: 'start_recognition' });
    driver.handle({ type: 'stop_recognition' });
    setListening(false);
    grant(stream());
    await flush();
    expect(FakeRecognition.instances).toHaveLength(0);
  });

  it('other browsers never call getUserMedia', async () => {
    const getUserMedia = vi.fn(async () => stream());
    const { driver, last } = setup({ getUserMedia });
    driver.handle({ type: 'start_recognition' });
    await flush();
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(last()?.started).toBe(true);
  });
});
