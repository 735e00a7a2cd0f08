// One request budget shared by every concurrent check, so that the certifier never trips the
// target's rate limit itself (Limits: "every request counts, including failed and in-flight ones").

export interface Pacer {
  /**
   * Waits for a slot held until `release()` is called; the slot then stays counted for one more
   * window. Whenever the target sees a request arrive, that request's slot is held, so no window
   * of the target's clock can hold more than the budget, whatever the latency or queueing.
   */
  hold(signal?: AbortSignal, priority?: Priority, spareStop?: AbortSignal): Promise<() => void>;
  /**
   * A slot for one request of a deliberate burst over the target's limit (the rate-limit check): it
   * waits for the paced requests in flight to end, then goes over the budget; paced requests wait
   * while any burst request is in flight, and the burst's slots count for one more window, so no
   * paced request meets the 429s the burst provokes.
   */
  burst(signal?: AbortSignal): Promise<() => void>;
  /**
   * The target answered a paced request 429 rate_limited: it keeps a lower limit than the one the
   * certifier was given. Nothing paced is sent for `waitMs` (its Retry-After); from the second pause on,
   * the budget is halved (never below one request a window), once for all the refusals of one pause.
   * Returns the budget before and after, per window.
   */
  slowDown(waitMs: number): { before: number; after: number };
}

/**
 * 'high': the critical path, ahead of every other waiter. 'spare': the generative exploration, which may
 * only use the budget the rest leaves unused: served after every other waiter, only while a share of
 * the window stays free for the certification's own requests, and given up when `spareStop` aborts
 * (the other checks have all ended: waiting on would only make the certification longer).
 */
export type Priority = 'high' | 'spare';

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

/** Share of the target's limit the certifier allows itself: slack for clock and latency skew. */
const DEFAULT_PACING_MARGIN = 0.9;

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  high: boolean;
  spare: boolean;
  onStop?: () => void;
}

export function createPacer(opts: { ratePerMinute: number; windowMs: number; margin?: number }): Pacer {
  // Lowered by slowDown when the target keeps a lower limit than --rate-limit.
  let budget = Math.max(1, Math.floor(opts.ratePerMinute * (opts.margin ?? DEFAULT_PACING_MARGIN)));
  const windowMs = opts.windowMs;
  let spareBudget = Math.max(0, Math.floor(budget * (1 - SPARE_RESERVE)));
  // Until then nothing paced is sent: the target's Retry-After.
  let pausedUntil = 0;
  // Refusal episodes so far (slowDown).
  let episodes = 0;
  // Per slot: when it stops counting (Infinity while the request is in flight).
  const slots: number[] = [];
  const waiters: Waiter[] = [];
  let timer: NodeJS.Timeout | undefined;
  // Burst requests in flight, and bursts waiting for the paced requests in flight to end.
  let bursting = 0;
  const burstWaiters: Array<() => void> = [];

  function prune(now: number): void {
    for (let i = slots.length - 1; i >= 0; i--) {
      const slot = slots[i];
      if (slot !== undefined && slot <= now) slots.splice(i, 1);
    }
  }

  function take(): () => void {
    slots.push(Infinity);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // In-flight slots are interchangeable: end any one of them.
      const i = slots.indexOf(Infinity);
      if (i >= 0) slots[i] = performance.now() + windowMs;
      startBurst();
      schedule();
    };
  }

  function serve(): void {
    const now = performance.now();
    prune(now);
    if (now < pausedUntil) {
      schedule();
      return;
    }
    for (
      let w = waiters[0];
      w && bursting === 0 && burstWaiters.length === 0 && slots.length < (w.spare ? spareBudget : budget);
      w = waiters[0]
    ) {
      waiters.shift();
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      w.onStop?.();
      w.resolve(take());
    }
    schedule();
  }

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (waiters.length === 0) return;
    const paused = pausedUntil > performance.now();
    const next = paused ? pausedUntil : Math.min(...slots);
    // All slots in flight: a release will call us again.
    if (!Number.isFinite(next)) return;
    // Not unref'd: a check waiting for budget is work the process must stay alive for.
    timer = setTimeout(serve, Math.max(0, Math.ceil(next - performance.now())) + 1);
  }

  function hold(signal?: AbortSignal, priority?: Priority, spareStop?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    prune(performance.now());
    const spare = priority === 'spare';
    // Once stopped, not even a free slot is taken: the certification would only last longer.
    if (spare && spareStop?.aborted) return Promise.reject(new NoSpareBudget());
    const room = spare ? spareBudget : budget;
    // Spare waiters queue behind every other, so only they never hold up a request of the certification.
    const ahead = spare ? waiters.length : waiters.filter((w) => !w.spare).length;
    if (
      bursting === 0 &&
      burstWaiters.length === 0 &&
      ahead === 0 &&
      slots.length < room &&
      performance.now() >= pausedUntil
    )
      return Promise.resolve(take());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, high: priority === 'high', spare };
      const leave = (): void => {
        const i = waiters.indexOf(waiter);
        if (i >= 0) waiters.splice(i, 1);
        waiter.onStop?.();
        if (waiter.onAbort) signal?.removeEventListener('abort', waiter.onAbort);
      };
      if (signal) {
        waiter.onAbort = () => {
          leave();
          reject(signal.reason);
          schedule();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      if (spare && spareStop) {
        const stopped = (): void => {
          leave();
          reject(new NoSpareBudget());
          schedule();
        };
        spareStop.addEventListener('abort', stopped, { once: true });
        waiter.onStop = () => spareStop.removeEventListener('abort', stopped);
      }
      // High priority goes ahead of every other waiter, spare behind every other (FIFO among each
      // kind): the long waits of the critical path must start at once, not behind the opening burst
      // of short checks, and the exploration takes only what no check is waiting for.
      const at = waiter.high
        ? waiters.findIndex((w) => !w.high)
        : waiter.spare
          ? -1
          : waiters.findIndex((w) => w.spare);
      if (at >= 0) waiters.splice(at, 0, waiter);
      else waiters.push(waiter);
      schedule();
    });
  }

  function startBurst(): void {
    if (burstWaiters.length === 0 || bursting > 0 || slots.includes(Infinity)) return;
    for (const go of burstWaiters.splice(0)) go();
  }

  function burst(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const slot = (): (() => void) => {
      bursting++;
      const release = take();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        bursting--;
        release();
        if (bursting === 0) serve();
      };
    };
    if (bursting > 0) return Promise.resolve(slot());
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const i = burstWaiters.indexOf(go);
        if (i >= 0) burstWaiters.splice(i, 1);
        reject(signal?.reason);
        if (burstWaiters.length === 0) serve();
      };
      const go = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(slot());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      burstWaiters.push(go);
      startBurst();
    });
  }

  function slowDown(waitMs: number): { before: number; after: number } {
    const before = budget;
    // Once per refusal episode: the requests in flight when the target refused come back refused
    // together, and each halving them again would slow the run to a crawl for one over-full window.
    // The first episode only pauses: the window may have been filled by another client of the same
    // partner (a gate run just before); a refusal after that pause says the budget itself is too high.
    if (performance.now() >= pausedUntil) {
      if (episodes > 0) budget = Math.max(1, Math.floor(budget / 2));
      episodes += 1;
    }
    spareBudget = Math.max(0, Math.floor(budget * (1 - SPARE_RESERVE)));
    pausedUntil = Math.max(pausedUntil, performance.now() + Math.max(0, waitMs));
    schedule();
    return { before, after: budget };
  }

  return { hold, burst, slowDown };
}
