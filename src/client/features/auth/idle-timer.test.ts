import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_KEY } from '../../lib/auth-storage';
import { IDLE_TIMEOUT_MS, IDLE_WARNING_MS, KEEP_ALIVE_INTERVAL_MS, announcedSeconds, secondsLeft, startIdleWatch, startKeepAlive, watchSignOutElsewhere } from './idle-timer';

describe('startIdleWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const WARN_AT = IDLE_TIMEOUT_MS - IDLE_WARNING_MS;
  const target = () => new EventTarget() as unknown as Window;
  const watch = (win = target()) => {
    const onWarn = vi.fn<(deadline: number) => void>();
    const onIdle = vi.fn();
    const started = Date.now();
    const handle = startIdleWatch(win, { onWarn, onIdle });
    return { win, onWarn, onIdle, started, handle };
  };

  it('warns at 14 minutes with the deadline, and signs out at 15, not before', () => {
    const { onWarn, onIdle, started } = watch();
    vi.advanceTimersByTime(WARN_AT - 1);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledExactlyOnceWith(started + IDLE_TIMEOUT_MS);
    vi.advanceTimersByTime(IDLE_WARNING_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(onWarn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts from `since` when its code started late: the warning keeps its time', () => {
    const since = Date.now();
    vi.advanceTimersByTime(10_000);
    const onWarn = vi.fn<(deadline: number) => void>();
    startIdleWatch(target(), { onWarn, onIdle: vi.fn() }, { since });
    vi.advanceTimersByTime(WARN_AT - 10_000 - 1);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledExactlyOnceWith(since + IDLE_TIMEOUT_MS);
  });

  it.each(['mousedown', 'keydown', 'input', 'scroll', 'touchstart'])('%s before the warning restarts the count', (type) => {
    const { win, onWarn, onIdle } = watch();
    vi.advanceTimersByTime(WARN_AT - 1000);
    win.dispatchEvent(new Event(type));
    vi.advanceTimersByTime(WARN_AT - 1);
    expect(onWarn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(IDLE_WARNING_MS);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('typing in a form for 20 minutes never warns', () => {
    const { win, onWarn, onIdle } = watch();
    for (let at = 0; at < 20 * 60_000; at += 30_000) {
      win.dispatchEvent(new Event(at % 60_000 === 0 ? 'keydown' : 'input'));
      vi.advanceTimersByTime(30_000);
    }
    expect(onWarn).not.toHaveBeenCalled();
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('while the warning shows, scrolling or input events do not end it, nor a click inside it', () => {
    const win = target();
    const inside = new EventTarget();
    const onIdle = vi.fn();
    const onPresent = vi.fn();
    startIdleWatch(win, { onWarn: vi.fn(), onIdle, onPresent, inWarning: (t) => t === inside });
    vi.advanceTimersByTime(WARN_AT);
    win.dispatchEvent(new Event('scroll'));
    win.dispatchEvent(new Event('input'));
    inside.addEventListener('mousedown', () => undefined);
    // An event that started inside the warning reaches the window with that target.
    const click = new Event('mousedown');
    Object.defineProperty(click, 'target', { value: inside });
    win.dispatchEvent(click);
    vi.advanceTimersByTime(IDLE_WARNING_MS);
    expect(onPresent).not.toHaveBeenCalled();
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it.each(['mousedown', 'keydown', 'touchstart'])('a %s outside the warning counts as "Stay signed in"', (type) => {
    const win = target();
    const onWarn = vi.fn();
    const onIdle = vi.fn();
    const onPresent = vi.fn();
    startIdleWatch(win, { onWarn, onIdle, onPresent, inWarning: () => false });
    vi.advanceTimersByTime(WARN_AT + 10_000);
    win.dispatchEvent(new Event(type));
    expect(onPresent).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(WARN_AT - 1);
    expect(onWarn).toHaveBeenCalledTimes(1);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onWarn).toHaveBeenCalledTimes(2);
  });

  it('"Stay signed in" (extend) starts a full 15 minutes again and can warn again', () => {
    const { onWarn, onIdle, handle } = watch();
    vi.advanceTimersByTime(WARN_AT + 30_000);
    expect(onWarn).toHaveBeenCalledTimes(1);
    handle.extend();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    expect(onWarn).toHaveBeenCalledTimes(2);
    expect(onWarn).toHaveBeenLastCalledWith(Date.now() + 1);
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('a page that slept past the deadline signs out as soon as it is seen again', () => {
    let clock = 0;
    const win = target();
    const onIdle = vi.fn();
    startIdleWatch(win, { onWarn: vi.fn(), onIdle }, { now: () => clock });
    // Timers held back (a background tab), while the wall clock moved on.
    clock = IDLE_TIMEOUT_MS + 5000;
    win.dispatchEvent(new Event('visibilitychange'));
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('stops cleanly', () => {
    const { onWarn, onIdle, handle } = watch();
    handle.stop();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onWarn).not.toHaveBeenCalled();
    expect(onIdle).not.toHaveBeenCalled();
    handle.extend();
    vi.advanceTimersByTime(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
  });
});

describe('the countdown', () => {
  it('counts whole seconds up, never below zero', () => {
    expect(secondsLeft(60_000, 0)).toBe(60);
    expect(secondsLeft(60_000, 1)).toBe(60);
    expect(secondsLeft(60_000, 59_001)).toBe(1);
    expect(secondsLeft(60_000, 60_000)).toBe(0);
    expect(secondsLeft(60_000, 90_000)).toBe(0);
  });

  it('is announced at 60, 30 and 10 seconds only', () => {
    const announced = new Set(Array.from({ length: 61 }, (_, s) => announcedSeconds(60 - s)));
    expect([...announced]).toEqual([60, 30, 10]);
    expect(announcedSeconds(31)).toBe(60);
    expect(announcedSeconds(30)).toBe(30);
    expect(announcedSeconds(11)).toBe(30);
    expect(announcedSeconds(10)).toBe(10);
    expect(announcedSeconds(0)).toBe(10);
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

describe('watchSignOutElsewhere', () => {
  afterEach(() => vi.unstubAllGlobals());

  const storage = (token: string | null) => {
    const map = new Map<string, string>(token ? [[AUTH_TOKEN_KEY, token]] : []);
    vi.stubGlobal('localStorage', { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) });
    return map;
  };
  const storageEvent = (key: string | null) => Object.assign(new Event('storage'), { key });

  it('ends this tab when another removes the token, not when it replaces it or touches other keys', () => {
    const map = storage('mine');
    const win = new EventTarget() as unknown as Window;
    const onSignedOut = vi.fn();
    const stop = watchSignOutElsewhere(win, onSignedOut);

    win.dispatchEvent(storageEvent('wellhaven.keepCards'));
    map.set(AUTH_TOKEN_KEY, 'stepped-up');
    win.dispatchEvent(storageEvent(AUTH_TOKEN_KEY));
    expect(onSignedOut).not.toHaveBeenCalled();

    map.delete(AUTH_TOKEN_KEY);
    win.dispatchEvent(storageEvent(AUTH_TOKEN_KEY));
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    // localStorage.clear() in another tab: key null.
    win.dispatchEvent(storageEvent(null));
    expect(onSignedOut).toHaveBeenCalledTimes(2);

    stop();
    win.dispatchEvent(storageEvent(AUTH_TOKEN_KEY));
    expect(onSignedOut).toHaveBeenCalledTimes(2);
  });
});
