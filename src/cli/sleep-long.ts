// The wait of the partner session's --duration, apart so it can be tested on a fake clock.

/** A wait of up to 30 days: Node's timers overflow past 2^31-1 ms (24.8 days) and fire at once. */
export function sleepLong(ms: number): { done: Promise<void>; cancel(): void } {
  const MAX_TIMER_MS = 2 ** 31 - 1;
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const done = new Promise<void>((resolve) => {
    const until = Date.now() + ms;
    const step = (): void => {
      if (cancelled) return;
      const left = until - Date.now();
      if (left <= 0) return resolve();
      timer = setTimeout(step, Math.min(left, MAX_TIMER_MS));
    };
    step();
  });
  return {
    done,
    cancel() {
      cancelled = true;
      if (timer) clearTimeout(timer);
    },
  };
}
