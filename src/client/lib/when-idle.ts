/** The longest `whenIdle` waits for an idle moment: a page kept busy still gets the work done. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * Runs `work` in a task of its own once the page has an idle moment (`requestIdleCallback`; a
 * timer where the browser lacks it, as Safari does), at the latest after IDLE_TIMEOUT_MS. For
 * work a screen's start does not need, such as fetching code for later: done in the first
 * effects, it would lengthen the task that commits the first screen, and every task that long
 * holds up the member's first tap (issue 14: Lighthouse's Total Blocking Time). Not cancellable:
 * keep it to work that does no harm when it runs late.
 */
export function whenIdle(work: () => void) {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
  else window.setTimeout(work);
}
