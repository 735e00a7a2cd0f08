// Timing-free: vitest's fake timers drive setTimeout and performance.now (the pacer's clock), so every
// assertion is about the order and the virtual time (ms after the start) at which a request is released.
// The pacer serves its waiters 1 ms after the earliest slot leaves the window (its timer rounds up + 1).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer, NoSpareBudget, type Pacer, type Priority } from './pacer.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A slot for a request that ends at once. */
async function take(pacer: Pacer, signal?: AbortSignal, priority?: Priority, spareStop?: AbortSignal): Promise<void> {
  (await pacer.hold(signal, priority, spareStop))();
}

/** Virtual ms since the test began, on the pacer's clock. */
function clock(): () => number {
  const t0 = performance.now();
  return () => performance.now() - t0;
}

/** Requests released so far, in order: what asked for the slot, and when it got it. */
function log<T>(): { released: Array<[T, number]>; note: (what: T) => void } {
  const now = clock();
  const released: Array<[T, number]> = [];
  return { released, note: (what) => void released.push([what, now()]) };
}

describe('createPacer', () => {
  it('runs on a clock the fake timers drive', async () => {
    const now = clock();
    await vi.advanceTimersByTimeAsync(1000);
    expect(now()).toBe(1000);
  });

  it('lets floor(rate × 0.9) requests start per window, then waits for the window to pass', async () => {
    const pacer = createPacer({ ratePerMinute: 10, windowMs: 150 });
    const { released, note } = log<number>();
    const all = Promise.all(Array.from({ length: 12 }, (_, n) => take(pacer).then(() => note(n))));
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 0]));
    await vi.advanceTimersByTimeAsync(149);
    expect(released).toHaveLength(9);
    await vi.advanceTimersByTimeAsync(2);
    await all;
    expect(released.slice(9)).toEqual([
      [9, 151],
      [10, 151],
      [11, 151],
    ]);
  });

  it('keeps a held slot counted until one window after its release', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 60 });
    const { released, note } = log<string>();
    const release = await pacer.hold();
    const next = take(pacer).then(() => note('second'));
    await vi.advanceTimersByTimeAsync(100);
    expect(released).toEqual([]);
    release();
    await vi.advanceTimersByTimeAsync(59);
    expect(released).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    await next;
    expect(released).toEqual([['second', 161]]);
  });

  it('serves waiters first come, first served', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 30 });
    const { released, note } = log<number>();
    const all = Promise.all([0, 1, 2, 3].map((n) => take(pacer).then(() => note(n))));
    await vi.advanceTimersByTimeAsync(200);
    await all;
    expect(released).toEqual([
      [0, 0],
      [1, 31],
      [2, 62],
      [3, 93],
    ]);
  });

  it('serves high-priority waiters before every normal waiter, first come first served among each kind', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 20 });
    await take(pacer);
    const { released, note } = log<string>();
    const waits = [
      take(pacer).then(() => note('normal-1')),
      take(pacer).then(() => note('normal-2')),
      take(pacer, undefined, 'high').then(() => note('high-1')),
      take(pacer).then(() => note('normal-3')),
      take(pacer, undefined, 'high').then(() => note('high-2')),
    ];
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all(waits);
    expect(released).toEqual([
      ['high-1', 21],
      ['high-2', 42],
      ['normal-1', 63],
      ['normal-2', 84],
      ['normal-3', 105],
    ]);
  });

  it('serves spare waiters after every other, never into the reserved quarter of the window, and gives them up at their stop', async () => {
    // 4 per minute: a budget of 3 slots, of which spare requests may fill 2.
    const pacer = createPacer({ ratePerMinute: 4, windowMs: 20 });
    const { released, note } = log<string>();
    const waits = [
      take(pacer, undefined, 'spare').then(() => note('spare-1')),
      take(pacer, undefined, 'spare').then(() => note('spare-2')),
      // The third spare request would fill the reserved slot: it waits for the first two to leave the window.
      take(pacer, undefined, 'spare').then(() => note('spare-3')),
      take(pacer).then(() => note('normal-1')),
    ];
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(waits);
    expect(released).toEqual([
      ['spare-1', 0],
      ['spare-2', 0],
      ['normal-1', 0],
      ['spare-3', 21],
    ]);

    // A full window: a normal waiter queued after a spare one is served first; a spare one whose
    // stop comes first is never served.
    const busy = createPacer({ ratePerMinute: 1, windowMs: 50 });
    await take(busy);
    const late = log<string>();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 30);
    const given = take(busy, undefined, 'spare', stop.signal).then(
      () => late.note('spare'),
      (err: unknown) => late.note(err instanceof NoSpareBudget ? 'spare given up' : 'other error'),
    );
    const normal = take(busy).then(() => late.note('normal'));
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all([given, normal]);
    expect(late.released).toEqual([
      ['spare given up', 30],
      ['normal', 51],
    ]);
  });

  it('drops an aborted waiter and serves the next one', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 50 });
    await take(pacer);
    const { released, note } = log<string>();
    const controller = new AbortController();
    const aborted = take(pacer, controller.signal).then(() => note('aborted'));
    const next = take(pacer).then(() => note('next'));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('check timed out'));
    await expect(aborted).rejects.toThrow('check timed out');
    await vi.advanceTimersByTimeAsync(100);
    await next;
    // The aborted waiter was first in line: the next one takes the slot it would have had.
    expect(released).toEqual([['next', 51]]);
    await expect(take(pacer, controller.signal)).rejects.toThrow('check timed out');
  });
});

describe('Pacer.burst', () => {
  it('takes a slot over the budget, and paced requests wait until it has left the window', async () => {
    const pacer = createPacer({ ratePerMinute: 2, windowMs: 80 });
    const { released, note } = log<string>();
    const releases = await Promise.all([pacer.burst(), pacer.burst(), pacer.burst()]);
    // Three slots at once where the budget is one (floor(2 × 0.9)).
    expect(releases).toHaveLength(3);
    for (const release of releases) release();
    const paced = take(pacer).then(() => note('paced'));
    await vi.advanceTimersByTimeAsync(79);
    expect(released).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    await paced;
    expect(released).toEqual([['paced', 81]]);
  });
});

describe('Pacer.burst, timed to cost no paced request', () => {
  it("goes once the paced requests have spent the window's budget, and they resume when its 429's Retry-After says", async () => {
    const pacer = createPacer({ ratePerMinute: 4, windowMs: 100, margin: 1 });
    const { released, note } = log<string>();
    const first = await pacer.hold();
    const burst = pacer.burst().then((release) => (note('burst'), release));
    const paced = [1, 2, 3, 4].map((n) => pacer.hold().then((release) => (note(`paced ${n}`), release)));
    await vi.advanceTimersByTimeAsync(0);
    // The window's budget (four) is not spent yet: paced requests still go while the burst waits.
    expect(released).toEqual([
      ['paced 1', 0],
      ['paced 2', 0],
      ['paced 3', 0],
    ]);
    first();
    for (const p of paced.slice(0, 3)) (await p)();
    await vi.advanceTimersByTimeAsync(0);
    expect(released.map(([what]) => what)).toEqual(['paced 1', 'paced 2', 'paced 3', 'burst']);
    // The burst met a 429 whose Retry-After ends the target's window in 30 ms: the fourth paced
    // request goes then, not a window after the burst.
    (await burst)(30);
    await vi.advanceTimersByTimeAsync(30);
    expect(released).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(2);
    await paced[3];
    expect(released[4]).toEqual(['paced 4', 31]);
  });
});

describe('Pacer.burst across a turning window', () => {
  it('keeps the burst counted a window when an answer after its 429 shows the window turned', async () => {
    const pacer = createPacer({ ratePerMinute: 4, windowMs: 100, margin: 1 });
    const { released, note } = log<string>();
    const [refused, ...passed] = await Promise.all([1, 2, 3, 4].map(() => pacer.burst()));
    const paced = take(pacer).then(() => note('paced'));
    // Four slots, the budget: a 429 that says the window ends in 30 ms, then three answers that passed.
    refused!(30);
    for (const release of passed) release();
    await vi.advanceTimersByTimeAsync(100);
    expect(released).toEqual([]);
    await vi.advanceTimersByTimeAsync(2);
    await paced;
    expect(released).toEqual([['paced', 101]]);
  });
});
