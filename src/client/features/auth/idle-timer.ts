/** Spec section 4: 15 minutes without activity signs the member out. */
export const IDLE_TIMEOUT_MS = 900_000;
export const ACTIVITY_EVENTS = ['mousedown', 'keydown', 'scroll', 'touchstart'] as const;

/** Calls onIdle after timeoutMs without activity on target; returns a stop function. */
export function startIdleTimer(target: Window, onIdle: () => void, timeoutMs = IDLE_TIMEOUT_MS): () => void {
  let timer = setTimeout(onIdle, timeoutMs);
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(onIdle, timeoutMs);
  };
  for (const e of ACTIVITY_EVENTS) target.addEventListener(e, restart, { passive: true, capture: true });
  return () => {
    clearTimeout(timer);
    for (const e of ACTIVITY_EVENTS) target.removeEventListener(e, restart, { capture: true });
  };
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
