import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from '../../lib/auth-storage';
import { json, meAnswer, renderScreen, stubApi, testUser } from '../../test/render';
import { useSecondClock, useVoiceSession, useVoiceSupport } from './use-voice';

/** A signed-in browser with a session of its own: the voice session is kept per token. */
function signedInWithOwnToken() {
  localStorage.setItem(AUTH_TOKEN_KEY, `voice-test-${crypto.randomUUID()}`);
  localStorage.setItem(AUTH_USER_KEY, JSON.stringify(testUser));
  stubApi((call) => (call.url === '/api/auth/me' ? meAnswer() : json(404, { error: 'Not found', code: 'not_found' })));
}

/** A Battery Status API whose first reading is `level`, counting how often it is asked. */
function stubBattery(level: number) {
  const getBattery = vi.fn(() => Promise.resolve({ level, addEventListener: vi.fn(), removeEventListener: vi.fn() }));
  Object.defineProperty(navigator, 'getBattery', { configurable: true, value: getBattery });
  return getBattery;
}

describe('useVoiceSession', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'getBattery');
    Reflect.deleteProperty(document, 'visibilityState');
  });

  /** The voice block's state as text; `onRender` is called at each of its renders. */
  function Block({ onRender }: { onRender?: () => void }) {
    const { state } = useVoiceSession(useVoiceSupport());
    onRender?.();
    return (
      <p>
        battery {String(state.batteryPercent)} hidden {String(state.hidden)}
      </p>
    );
  }

  it('asks for the battery only once the block has committed, never while rendering', async () => {
    signedInWithOwnToken();
    const getBattery = stubBattery(0.42);
    const askedWhileRendering: number[] = [];
    renderScreen(<Block onRender={() => askedWhileRendering.push(getBattery.mock.calls.length)} />, { path: '/home' });

    expect(await screen.findByText('battery 42 hidden false')).toBeTruthy();
    expect(getBattery).toHaveBeenCalledTimes(1);
    // The first render ran before anything was asked: the reading came through the store.
    expect(askedWhileRendering[0]).toBe(0);
  });

  it('mounted again, keeps the session and its watch: the battery is asked for once', async () => {
    signedInWithOwnToken();
    const getBattery = stubBattery(0.5);
    const first = renderScreen(<Block />, { path: '/home' });
    expect(await screen.findByText('battery 50 hidden false')).toBeTruthy();
    first.unmount();
    renderScreen(<Block />, { path: '/home' });
    expect(await screen.findByText('battery 50 hidden false')).toBeTruthy();
    expect(getBattery).toHaveBeenCalledTimes(1);
  });

  it('reads the visibility again when the watch is bound: a tab hidden since the session began is paused', async () => {
    signedInWithOwnToken();
    let reads = 0;
    // Visible when the session begins (in the render), hidden by the time the block commits.
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (reads++ === 0 ? 'visible' : 'hidden') });
    renderScreen(<Block />, { path: '/home' });
    expect(await screen.findByText('battery null hidden true')).toBeTruthy();
  });
});

describe('useSecondClock', () => {
  it('stands still while the session is off, and tells the second while it runs', () => {
    vi.useFakeTimers({ now: new Date('2026-11-29T10:00:00.400Z') });
    try {
      const seen: number[] = [];
      function Clock({ active }: { active: boolean }) {
        seen.push(useSecondClock(active));
        return null;
      }
      const view = render(<Clock active={false} />);
      vi.setSystemTime(new Date('2026-11-29T10:00:01.700Z'));
      view.rerender(<Clock active={false} />);
      // Off: the same value across a second turning over, so a render spanning it is consistent.
      expect(seen).toEqual([0, 0]);

      view.rerender(<Clock active />);
      expect(seen.at(-1)).toBe(Date.parse('2026-11-29T10:00:01.000Z'));
    } finally {
      vi.useRealTimers();
    }
  });
});
