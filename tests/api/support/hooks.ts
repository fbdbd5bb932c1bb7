/**
 * Points a test can run code at inside the app's own flow (tests that wrap app modules with
 * vi.mock, to make a race's order deterministic rather than timed). Each hook runs once: the
 * wrapper calls `runOnce(hooks, name)` where the point is, and the test sets `hooks[name]`.
 */
export type Hook = () => Promise<void>;

/** Runs the hook set for `name`, if any, and clears it first (a hook runs for the next pass only). */
export async function runOnce<K extends string>(hooks: Record<K, Hook | null>, name: K): Promise<void> {
  const hook = hooks[name];
  hooks[name] = null;
  if (hook) await hook();
}
