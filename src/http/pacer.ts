// One request budget shared by every concurrent check, so that the certifier never trips the
// target's rate limit itself (Limits: "every request counts, including failed and in-flight ones").

import { pacedBudget } from '../config/paced-budget.js';
import { createPacerSlots } from './pacer-slots.js';
import { createBurstGate, type BurstRelease } from './pacer-bursts.js';
import { createWaiterQueue, type Priority } from './pacer-queue.js';

export interface Pacer {
  /**
   * Waits for a slot held until `release()` is called; the slot then stays counted for one more
   * window. Whenever the target sees a request arrive, that request's slot is held, so no window
   * of the target's clock can hold more than the budget, whatever the latency or queueing.
   */
  hold(signal?: AbortSignal, priority?: Priority, spareStop?: AbortSignal): Promise<() => void>;
  /**
   * A slot for one request of a deliberate burst over the target's limit (the limits checks). It waits
   * until the paced requests have spent this window's budget (or none waits for it) and none is in
   * flight, then goes over the budget: a burst then costs the certification no paced request, since
   * the window it fills was spent anyway. Paced requests wait while any burst request is in flight.
   * After the burst they resume when the target said its window ends (the Retry-After of a 429 the
   * burst met), else one window after the burst's requests, so no paced request meets its 429s.
   */
  burst(signal?: AbortSignal): Promise<BurstRelease>;
  /**
   * The target answered a paced request 429 rate_limited: it keeps a lower limit than the one the
   * certifier was given. Nothing paced is sent for `waitMs` (its Retry-After); from the second pause on,
   * the budget is halved (never below one request a window), once for all the refusals of one pause:
   * the requests in flight when the target refused come back refused together, and halving for each
   * would slow the run to a crawl for one over-full window. The first episode only pauses: the window
   * may have been filled by another client of the same partner (a gate run just before); a refusal
   * after that pause says the budget itself is too high. Nor does a refusal in the window after a
   * burst: a target that counts a sliding window still counts the burst's requests there.
   * Returns the budget before and after, per window.
   */
  slowDown(waitMs: number): { before: number; after: number };
}

export type { Priority } from './pacer-queue.js';
/** The pacer's budget a window, for the layers that size by it (the exploration's grace). */
export { pacedBudget };

/** Thrown (as the wait's rejection) when a spare request found no spare budget before its stop. */
export class NoSpareBudget extends Error {
  readonly code = 'NO_SPARE_BUDGET';
  constructor() {
    super('no spare request budget before the other checks ended');
  }
}

/**
 * Share of the window a spare request never takes: a request of the certification that arrives just
 * after finds room at once, so the exploration delays no check by a window.
 */
const SPARE_RESERVE = 0.25;

export function createPacer(opts: { ratePerMinute: number; windowMs: number; margin?: number }): Pacer {
  const { windowMs } = opts;
  // Lowered by slowDown when the target keeps a lower limit than --rate-limit.
  let budget = pacedBudget(opts.ratePerMinute, opts.margin);
  const spareBudget = (): number => Math.max(0, Math.floor(budget * (1 - SPARE_RESERVE)));
  const slots = createPacerSlots(windowMs);
  const queue = createWaiterQueue();
  // Until then nothing paced is sent (the target's Retry-After); refusal episodes so far (slowDown).
  let pausedUntil = 0;
  let episodes = 0;
  let timer: NodeJS.Timeout | undefined;
  // A burst goes once this window's paced budget is spent, or nothing paced waits for it.
  const mayStart = (): boolean => slots.count() >= budget || queue.paced() === 0 || performance.now() < pausedUntil;
  const ended = (windowEndsAt: number | undefined): void => {
    pausedUntil = Math.max(pausedUntil, windowEndsAt ?? 0);
    serve();
  };
  const bursts = createBurstGate({ windowMs, slots, mayStart, ended });
  const take = (): (() => void) => {
    const release = slots.take();
    return () => (release(), bursts.poll(), schedule());
  };
  // A spare request never goes while a burst waits: the burst would wait for it.
  const mayGo = (spare: boolean): boolean =>
    bursts.active() === 0 && !(spare && bursts.waiting()) && performance.now() >= pausedUntil;
  const room = (spare: boolean): number => (spare ? spareBudget() : budget);

  function serve(): void {
    for (let w = queue.waiters[0]; w && mayGo(w.spare) && slots.count() < room(w.spare); w = queue.waiters[0]) {
      queue.shift();
      w.resolve(take());
    }
    bursts.poll();
    schedule();
  }

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queue.waiters.length === 0) return;
    const next = pausedUntil > performance.now() ? pausedUntil : slots.nextFree();
    // All slots in flight: a release will call us again. Not unref'd: a check waiting for budget is
    // work the process must stay alive for.
    if (!Number.isFinite(next)) return;
    timer = setTimeout(serve, Math.max(0, Math.ceil(next - performance.now())) + 1);
  }

  function hold(signal?: AbortSignal, priority?: Priority, spareStop?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const spare = priority === 'spare';
    // Once stopped, not even a free slot is taken. Spare waiters queue behind every other.
    if (spare && spareStop?.aborted) return Promise.reject(new NoSpareBudget());
    const ahead = spare ? queue.waiters.length : queue.paced();
    if (ahead === 0 && mayGo(spare) && slots.count() < room(spare)) return Promise.resolve(take());
    const stopped = () => new NoSpareBudget();
    const waiting = new Promise<() => void>((resolve, reject) =>
      queue.enqueue({ priority, signal, spareStop, stopped }, resolve, reject, serve),
    );
    schedule();
    return waiting;
  }

  function slowDown(waitMs: number): { before: number; after: number } {
    const before = budget;
    // Once per refusal episode, not in the first, nor in the window after a burst (see Pacer.slowDown).
    if (performance.now() >= pausedUntil && !bursts.shadows()) {
      if (episodes > 0) budget = Math.max(1, Math.floor(budget / 2));
      episodes += 1;
    }
    pausedUntil = Math.max(pausedUntil, performance.now() + Math.max(0, waitMs));
    schedule();
    return { before, after: budget };
  }

  return { hold, burst: bursts.burst, slowDown };
}
