// A .tsx file only so that it runs in the component project's browser (happy-dom).
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

  it('cancelled before the moment comes, the work is not asked for', () => {
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', () => 7);
    vi.stubGlobal('cancelIdleCallback', (id: number) => cancelled.push(id));
    whenIdle(() => undefined)();
    expect(cancelled).toEqual([7]);
  });

  it('without requestIdleCallback (Safari): in the next task, and cancellable too', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const work = vi.fn();
    whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(work).toHaveBeenCalledTimes(1);

    const never = vi.fn();
    whenIdle(never)();
    vi.runAllTimers();
    expect(never).not.toHaveBeenCalled();
  });
});
