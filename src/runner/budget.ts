// A check's time budget counts only its own time: waiting for HTTP answers (paced under the shared
// rate limit, so queueing grows with the number of checks) and for shared setup is excluded.

export class Budget {
  private remaining: number;
  private depth = 0;
  private since = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private done = false;
  readonly expired: Promise<void>;
  private fire!: () => void;

  constructor(readonly totalMs: number) {
    this.remaining = totalMs;
    this.expired = new Promise((resolve) => (this.fire = resolve));
    this.arm();
  }

  pause(): void {
    if (this.done) return;
    if (this.depth++ === 0) {
      this.remaining -= Date.now() - this.since;
      clearTimeout(this.timer);
    }
  }

  resume(): void {
    if (this.done) return;
    if (--this.depth === 0) {
      this.since = Date.now();
      this.arm();
    }
  }

  /** Runs `f` with the budget paused. */
  async paused<T>(f: () => Promise<T>): Promise<T> {
    this.pause();
    try {
      return await f();
    } finally {
      this.resume();
    }
  }

  stop(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.done = true;
        this.fire();
      },
      Math.max(0, this.remaining),
    );
    this.timer.unref?.();
  }
}
