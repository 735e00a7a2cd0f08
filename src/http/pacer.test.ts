import { describe, expect, it } from 'vitest';
import { createPacer, type Pacer } from './pacer.js';

/** A slot for a request that ends at once. */
async function take(pacer: Pacer, signal?: AbortSignal, priority?: 'high'): Promise<void> {
  (await pacer.hold(signal, priority))();
}

describe('createPacer', () => {
  it('lets floor(rate × 0.9) requests start per window, then waits for the window to pass', async () => {
    const pacer = createPacer({ ratePerMinute: 10, windowMs: 150 });
    const started: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        await take(pacer);
        started.push(performance.now() - t0);
      }),
    );
    expect(started.filter((t) => t < 100)).toHaveLength(9);
    expect(started.slice(9).every((t) => t >= 150)).toBe(true);
  });

  it('keeps a held slot counted until one window after its release', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 60 });
    const release = await pacer.hold();
    const t0 = performance.now();
    let second = -1;
    const next = take(pacer).then(() => (second = performance.now() - t0));
    await new Promise((r) => setTimeout(r, 100));
    expect(second).toBe(-1);
    release();
    await next;
    expect(second).toBeGreaterThanOrEqual(100 + 60 - 2);
  });

  it('serves waiters first come, first served', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 30 });
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3].map((n) => take(pacer).then(() => order.push(n))));
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('serves high-priority waiters before every normal waiter, first come first served among each kind', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 20 });
    await take(pacer);
    const order: string[] = [];
    const waits = [
      take(pacer).then(() => order.push('normal-1')),
      take(pacer).then(() => order.push('normal-2')),
      take(pacer, undefined, 'high').then(() => order.push('high-1')),
      take(pacer).then(() => order.push('normal-3')),
      take(pacer, undefined, 'high').then(() => order.push('high-2')),
    ];
    await Promise.all(waits);
    expect(order).toEqual(['high-1', 'high-2', 'normal-1', 'normal-2', 'normal-3']);
  });

  it('drops an aborted waiter and serves the next one', async () => {
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 50 });
    await take(pacer);
    const controller = new AbortController();
    const aborted = take(pacer, controller.signal);
    const next = take(pacer);
    controller.abort(new Error('check timed out'));
    await expect(aborted).rejects.toThrow('check timed out');
    await next;
    await expect(take(pacer, controller.signal)).rejects.toThrow('check timed out');
  });
});

describe('Pacer.burst', () => {
  it('takes a slot over the budget, and paced requests wait until it has left the window', async () => {
    const pacer = createPacer({ ratePerMinute: 2, windowMs: 80 });
    const releases = await Promise.all([pacer.burst(), pacer.burst(), pacer.burst()]);
    for (const release of releases) release();
    const t0 = performance.now();
    await take(pacer);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(78);
  });
});
