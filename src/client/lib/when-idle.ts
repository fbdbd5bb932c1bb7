/** The longest `whenIdle` waits for an idle moment: a page kept busy still gets the work done. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * Runs `work` in a task of its own once the page has an idle moment (`requestIdleCallback`), at
 * the latest after IDLE_TIMEOUT_MS; where the browser lacks it (Safari), in the next task. For
 * work a screen's start does not need, such as fetching code for later: done in the first
 * effects, it would lengthen the task that commits the first screen, and every task that long
 * holds up the member's first tap (issue 14: Lighthouse's Total Blocking Time). Returns a
 * function that cancels it if it has not run.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(work);
  return () => window.clearTimeout(id);
}
