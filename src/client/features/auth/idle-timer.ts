import { AUTH_TOKEN_KEY, storedToken } from '../../lib/auth-storage';

/** Spec section 4: 15 minutes without activity signs the member out. */
export const IDLE_TIMEOUT_MS = 900_000;
/** Typing counts through keydown and input (paste, autofill, dictation and IME send no keydown). */
export const ACTIVITY_EVENTS = ['mousedown', 'keydown', 'input', 'scroll', 'touchstart'] as const;
/** The warning comes this long before the idle sign-out (WCAG 2.2.1: warn, and a simple way to extend). */
export const IDLE_WARNING_MS = 60_000;

export interface IdleWatch {
  /** "Stay signed in": the member is active again, the warning is over. */
  extend(): void;
  stop(): void;
}

/** While the warning shows, only a deliberate touch, click or key outside it says "I'm here". */
const PRESENCE_EVENTS = new Set(['mousedown', 'keydown', 'touchstart']);

/**
 * Watches target for activity: `onWarn(deadline)` once after timeoutMs - warnMs of silence
 * (deadline: when the sign-out will come, on `now`'s scale), then `onIdle` at the deadline
 * unless `extend()` came first. While the warning shows, a click, touch or key outside it
 * (`inWarning` tells) counts as "Stay signed in" (`onPresent`, then a fresh count); inside it
 * only its buttons decide, and scrolling or input events never end it. Times are measured on
 * `now` and checked again when the page comes back to view, so a phone that slept past the
 * deadline signs out at once. The silence counts from `since` (default: now), so a watch whose
 * code arrived late still counts from when the session started on the page.
 */
export function startIdleWatch(
  target: Window,
  handlers: { onWarn(deadline: number): void; onIdle(): void; onPresent?(): void; inWarning?(target: EventTarget | null): boolean },
  {
    timeoutMs = IDLE_TIMEOUT_MS,
    warnMs = IDLE_WARNING_MS,
    now = Date.now,
    since = now(),
  }: { timeoutMs?: number; warnMs?: number; now?: () => number; since?: number } = {},
): IdleWatch {
  let last = since;
  let warned = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  // Activity only moves `last`; the one timer re-arms itself when it fires early.
  const check = () => {
    if (stopped) return;
    clearTimeout(timer);
    const elapsed = now() - last;
    if (elapsed >= timeoutMs) {
      stop();
      handlers.onIdle();
      return;
    }
    if (elapsed >= timeoutMs - warnMs) {
      if (!warned) {
        warned = true;
        handlers.onWarn(last + timeoutMs);
      }
      timer = setTimeout(check, timeoutMs - elapsed);
      return;
    }
    timer = setTimeout(check, timeoutMs - warnMs - elapsed);
  };
  const onActivity = (event: Event) => {
    if (!warned) {
      last = now();
      return;
    }
    if (!PRESENCE_EVENTS.has(event.type) || handlers.inWarning?.(event.target)) return;
    warned = false;
    last = now();
    check();
    handlers.onPresent?.();
  };
  const onReturn = () => check();
  function stop() {
    stopped = true;
    clearTimeout(timer);
    for (const e of ACTIVITY_EVENTS) target.removeEventListener(e, onActivity, { capture: true });
    target.removeEventListener('visibilitychange', onReturn, { capture: true });
    target.removeEventListener('focus', onReturn, { capture: true });
  }
  for (const e of ACTIVITY_EVENTS) target.addEventListener(e, onActivity, { passive: true, capture: true });
  target.addEventListener('visibilitychange', onReturn, { capture: true });
  target.addEventListener('focus', onReturn, { capture: true });
  check();
  return {
    extend() {
      if (stopped) return;
      warned = false;
      last = now();
      check();
    },
    stop,
  };
}

/** Whole seconds left until `deadline` (never below 0). */
export const secondsLeft = (deadline: number, at: number) => Math.max(0, Math.ceil((deadline - at) / 1000));

/** The countdown is announced politely at these seconds, not every second. */
export const ANNOUNCED_SECONDS = [60, 30, 10] as const;

/** The latest announcement due with `seconds` left: 60 until 30, then 30, then 10. */
export function announcedSeconds(seconds: number): number {
  let due: number = ANNOUNCED_SECONDS[0];
  for (const mark of ANNOUNCED_SECONDS) if (seconds <= mark) due = mark;
  return due;
}

/**
 * The server's idle window (also 15 minutes) slides only on API requests, so a member busy
 * with a long form would otherwise find the session gone at Save. Activity sends one
 * keep-alive at most this often.
 */
export const KEEP_ALIVE_INTERVAL_MS = 300_000;

/**
 * Calls `ping` on activity on target, at most once per intervalMs, counting from the start
 * (the sign-in or restore has just reached the server); returns a stop function.
 */
export function startKeepAlive(target: Window, ping: () => void, intervalMs = KEEP_ALIVE_INTERVAL_MS, now: () => number = Date.now): () => void {
  let last = now();
  const onActivity = () => {
    if (now() - last < intervalMs) return;
    last = now();
    ping();
  };
  for (const e of ACTIVITY_EVENTS) target.addEventListener(e, onActivity, { passive: true, capture: true });
  return () => {
    for (const e of ACTIVITY_EVENTS) target.removeEventListener(e, onActivity, { capture: true });
  };
}

/**
 * Calls `onSignedOut` when another tab of this browser ends the session (the stored token goes:
 * a Sign Out, an idle time-out or a 401 there). A token replaced by another (the admin step-up)
 * is not an end. Returns a stop function.
 */
export function watchSignOutElsewhere(target: Window, onSignedOut: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if ((event.key === null || event.key === AUTH_TOKEN_KEY) && storedToken() === null) onSignedOut();
  };
  target.addEventListener('storage', onStorage);
  return () => target.removeEventListener('storage', onStorage);
}
