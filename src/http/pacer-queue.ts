// The requests waiting for the pacer's budget, in the order they are served: 'high' ahead of every
// other waiter, 'spare' behind every other, first come first served among each kind. A waiter leaves
// the queue when its check stops it, or (spare) when the exploration's stop aborts.

/**
 * 'high': the critical path, ahead of every other waiter. 'spare': the generative exploration, which may
 * only use the budget the rest leaves unused: served after every other waiter, only while a share of
 * the window stays free for the certification's own requests, and given up when `spareStop` aborts
 * (the other checks have all ended: waiting on would only make the certification longer).
 */
export type Priority = 'high' | 'spare';

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (reason: unknown) => void;
  high: boolean;
  spare: boolean;
  /** Removes the waiter's abort listeners once it is served or gone. */
  detach: () => void;
}

export interface WaiterQueue {
  readonly waiters: readonly Waiter[];
  /** Waiters of the certification's own requests (not the exploration's) queued. */
  paced(): number;
  /** Queues a waiter; `gone` runs when it leaves unserved (aborted or stopped). */
  enqueue(
    opts: { priority?: Priority; signal?: AbortSignal; spareStop?: AbortSignal; stopped: () => unknown },
    resolve: Waiter['resolve'],
    reject: Waiter['reject'],
    gone: () => void,
  ): void;
  /** Takes the first waiter off the queue. */
  shift(): Waiter | undefined;
}

export function createWaiterQueue(): WaiterQueue {
  const waiters: Waiter[] = [];
  const remove = (w: Waiter): void => {
    const i = waiters.indexOf(w);
    if (i >= 0) waiters.splice(i, 1);
    w.detach();
  };
  return {
    waiters,
    paced: () => waiters.filter((w) => !w.spare).length,
    enqueue({ priority, signal, spareStop, stopped }, resolve, reject, gone) {
      const spare = priority === 'spare';
      const onAbort = (): void => (remove(waiter), reject(signal?.reason), gone());
      const onStop = (): void => (remove(waiter), reject(stopped()), gone());
      const waiter: Waiter = {
        resolve,
        reject,
        high: priority === 'high',
        spare,
        detach: () => {
          signal?.removeEventListener('abort', onAbort);
          spareStop?.removeEventListener('abort', onStop);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (spare) spareStop?.addEventListener('abort', onStop, { once: true });
      // The long waits of the critical path must start at once, not behind the opening burst of short
      // checks, and the exploration takes only what no check is waiting for.
      const at = waiter.high ? waiters.findIndex((w) => !w.high) : spare ? -1 : waiters.findIndex((w) => w.spare);
      if (at >= 0) waiters.splice(at, 0, waiter);
      else waiters.push(waiter);
    },
    shift() {
      const w = waiters.shift();
      w?.detach();
      return w;
    },
  };
}
