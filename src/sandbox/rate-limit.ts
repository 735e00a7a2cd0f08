// Fixed-window request counters per partner: one per minute and one per day, both scaled by timeScale.
import type { Partner } from './store.js';

interface Windows {
  minuteStart: number;
  minuteCount: number;
  dayStart: number;
  dayCount: number;
}

export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly windows = new Map<string, Windows>();
  private readonly minuteMs: number;
  private readonly dayMs: number;

  constructor(timeScale: number) {
    this.minuteMs = 60_000 / timeScale;
    this.dayMs = 86_400_000 / timeScale;
  }

  /** Counts the request (every request counts, refused ones included) and says whether it may run; `scope` (the partner) is what a fault narrows. */
  hit(partner: Partner, now: number, scope: string = partner.id): RateVerdict {
    let w = this.windows.get(scope);
    if (!w) this.windows.set(scope, (w = { minuteStart: now, minuteCount: 0, dayStart: now, dayCount: 0 }));
    if (now - w.minuteStart >= this.minuteMs) {
      w.minuteStart = now;
      w.minuteCount = 0;
    }
    if (now - w.dayStart >= this.dayMs) {
      w.dayStart = now;
      w.dayCount = 0;
    }
    w.minuteCount++;
    w.dayCount++;
    if (w.dayCount > partner.ratePerDay)
      return { ok: false, retryAfterSeconds: seconds(w.dayStart + this.dayMs - now) };
    if (w.minuteCount > partner.ratePerMinute)
      return { ok: false, retryAfterSeconds: seconds(w.minuteStart + this.minuteMs - now) };
    return { ok: true };
  }

  reset(partnerId: string): void {
    this.windows.delete(partnerId);
  }
}

/** Whole seconds to wait, rounded up so a client honouring it is never early. */
export function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
