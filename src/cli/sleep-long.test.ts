// The --duration wait on a fake clock: 597 hours pass without a real wait, and a wait past what one
// Node timer holds (2^31-1 ms) neither fires at once nor late.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleepLong } from './sleep-long.js';

const HOUR = 3_600_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

beforeEach(() => {
  // Faked as Node does: a timer past 2^31-1 ms fires after 1 ms.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function watch(ms: number): { ended: () => boolean; cancel(): void } {
  const wait = sleepLong(ms);
  let ended = false;
  void wait.done.then(() => (ended = true));
  return { ended: () => ended, cancel: wait.cancel };
}

describe('sleepLong', () => {
  it('waits 597 hours, past what one timer holds, to the millisecond, with two timers', async () => {
    // A timer asked for more than it holds would fire after 1 ms, again and again: counted here.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const wait = watch(597 * HOUR);
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.ended()).toBe(false);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(wait.ended()).toBe(false);
    await vi.advanceTimersByTimeAsync(597 * HOUR - MAX_TIMER_MS - 2);
    expect(wait.ended()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(wait.ended()).toBe(true);
    expect(timers).toHaveBeenCalledTimes(2);
  });

  it('never ends once cancelled, and leaves no timer behind', async () => {
    const wait = watch(30 * 24 * HOUR);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    wait.cancel();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(30 * 24 * HOUR);
    expect(wait.ended()).toBe(false);
  });
});
