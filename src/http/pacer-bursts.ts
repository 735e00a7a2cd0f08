// The pacer's side of the limits checks' deliberate bursts over the target's limit: when one may go,
// and what the target's window holds once it has gone (see Pacer.burst).

import type { PacerSlots } from './pacer-slots.js';

/** Ends a burst request's slot; `refusedForMs` is the Retry-After of a 429 rate_limited it got. */
export type BurstRelease = (refusedForMs?: number) => void;

export interface BurstGate {
  burst(signal?: AbortSignal): Promise<BurstRelease>;
  /** Starts the waiting bursts if they may go now. */
  poll(): void;
  /** Burst requests in flight. */
  active(): number;
  /** Whether a burst waits to go. */
  waiting(): boolean;
  /** Whether a burst ended within the last window (a refusal now is the burst's, not a lower limit). */
  shadows(): boolean;
}

export function createBurstGate(opts: {
  windowMs: number;
  slots: PacerSlots;
  /** Whether the paced requests have had this window's budget (or want none of it). */
  mayStart: () => boolean;
  /** The last burst request ended; `windowEndsAt` is when the target said its window ends. */
  ended: (windowEndsAt: number | undefined) => void;
}): BurstGate {
  const { slots } = opts;
  let active = 0;
  const waiters: Array<() => void> = [];
  // The latest end of the target's window that a 429 of the bursts under way gave.
  let windowEndsAt: number | undefined;
  let turned = false;
  let shadowUntil = 0;

  const slot = (): BurstRelease => {
    active++;
    const release = slots.take();
    let done = false;
    return (refusedForMs) => {
      if (done) return;
      done = true;
      active--;
      if (refusedForMs !== undefined)
        windowEndsAt = Math.max(windowEndsAt ?? 0, performance.now() + Math.max(0, refusedForMs));
      // An answer other than 429 after a 429: the window turned while the burst arrived, and the next
      // one already holds some of it, so its requests count for a window as any other.
      else if (windowEndsAt !== undefined) turned = true;
      release();
      if (active > 0) return;
      // The target starts a new window at that time: nothing sent before, burst or paced, counts past it.
      const end = turned ? undefined : windowEndsAt;
      if (end !== undefined) slots.endBy(end);
      windowEndsAt = undefined;
      turned = false;
      shadowUntil = performance.now() + opts.windowMs;
      opts.ended(end);
    };
  };

  function poll(): void {
    if (waiters.length === 0 || active > 0 || slots.inFlight() || !opts.mayStart()) return;
    for (const go of waiters.splice(0)) go();
  }

  function burst(signal?: AbortSignal): Promise<BurstRelease> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (active > 0) return Promise.resolve(slot());
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const i = waiters.indexOf(go);
        if (i >= 0) waiters.splice(i, 1);
        reject(signal?.reason);
        if (waiters.length === 0) opts.ended(undefined);
      };
      const go = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(slot());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.push(go);
      poll();
    });
  }

  return {
    burst,
    poll,
    active: () => active,
    waiting: () => waiters.length > 0,
    shadows: () => performance.now() < shadowUntil,
  };
}
