import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './when-idle';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('whenIdle', () => {
  it('asks the browser for an idle moment, with a deadline, and runs the work there', () => {
    const asked: { run: () => void; timeout: number | undefined }[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void, options?: { timeout?: number }) => asked.push({ run, timeout: options?.timeout }));
    const work = vi.fn();
    whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.timeout).toBe(2_000);
    asked[0]!.run();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('without requestIdleCallback (Safari): in a task of its own, after the current one', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const work = vi.fn();
    whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(work).toHaveBeenCalledTimes(1);
  });
});
