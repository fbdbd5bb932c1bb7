import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS, KEEP_ALIVE_INTERVAL_MS, startIdleTimer, startKeepAlive } from './idle-timer';

describe('startIdleTimer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const target = () => new EventTarget() as unknown as Window;

  it('fires after 15 minutes of silence, not before', () => {
    const onIdle = vi.fn();
    startIdleTimer(target(), onIdle);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it.each(['mousedown', 'keydown', 'scroll', 'touchstart'])('%s restarts the timer', (type) => {
    const onIdle = vi.fn();
    const win = target();
    startIdleTimer(win, onIdle);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1000);
    win.dispatchEvent(new Event(type));
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('stops cleanly', () => {
    const onIdle = vi.fn();
    const stop = startIdleTimer(target(), onIdle);
    stop();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
  });
});

describe('startKeepAlive', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pings on activity at most once every 5 minutes, and not without activity', () => {
    const ping = vi.fn();
    const win = new EventTarget() as unknown as Window;
    startKeepAlive(win, ping);
    win.dispatchEvent(new Event('keydown'));
    expect(ping).not.toHaveBeenCalled();
    vi.advanceTimersByTime(KEEP_ALIVE_INTERVAL_MS - 1);
    win.dispatchEvent(new Event('keydown'));
    expect(ping).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    win.dispatchEvent(new Event('keydown'));
    win.dispatchEvent(new Event('scroll'));
    expect(ping).toHaveBeenCalledTimes(1);
    // Silence sends nothing, however long.
    vi.advanceTimersByTime(KEEP_ALIVE_INTERVAL_MS * 3);
    expect(ping).toHaveBeenCalledTimes(1);
    win.dispatchEvent(new Event('touchstart'));
    expect(ping).toHaveBeenCalledTimes(2);
  });

  it('a member typing for 16 minutes keeps the server window (15 minutes) open throughout', () => {
    const pings: number[] = [];
    const win = new EventTarget() as unknown as Window;
    const start = Date.now();
    startKeepAlive(win, () => pings.push(Date.now() - start));
    for (let t = 0; t <= 16 * 60_000; t += 10_000) {
      win.dispatchEvent(new Event('keydown'));
      vi.advanceTimersByTime(10_000);
    }
    const requests = [0, ...pings];
    for (let i = 1; i < requests.length; i++) expect(requests[i]! - requests[i - 1]!).toBeLessThan(IDLE_TIMEOUT_MS);
    expect(16 * 60_000 - requests.at(-1)!).toBeLessThan(IDLE_TIMEOUT_MS);
    expect(pings.length).toBe(3);
  });

  it('stops cleanly', () => {
    const ping = vi.fn();
    const win = new EventTarget() as unknown as Window;
    const stop = startKeepAlive(win, ping);
    stop();
    vi.advanceTimersByTime(KEEP_ALIVE_INTERVAL_MS);
    win.dispatchEvent(new Event('keydown'));
    expect(ping).not.toHaveBeenCalled();
  });
});
