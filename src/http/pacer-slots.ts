// The pacer's count of what the target may still be counting: one slot per request, counted while the
// request is in flight and for one window after its answer (Limits: "every request counts, including
// failed and in-flight ones"), so no window of the target's clock holds more than the budget.

export interface PacerSlots {
  /** Slots still counted now. */
  count(): number;
  /** Takes one slot; the returned release starts its last window (calling it again does nothing). */
  take(): () => void;
  /** Whether a request holding a slot is still in flight. */
  inFlight(): boolean;
  /** When the next released slot stops counting (Infinity when none is released). */
  nextFree(): number;
  /** The target's window ends at `at` (its Retry-After said so): no slot counts past it. */
  endBy(at: number): void;
}

export function createPacerSlots(windowMs: number): PacerSlots {
  // Per slot: when it stops counting (Infinity while the request is in flight).
  let slots: number[] = [];
  const prune = (): void => {
    const now = performance.now();
    slots = slots.filter((until) => until > now);
  };
  return {
    count: () => (prune(), slots.length),
    take() {
      slots.push(Infinity);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // In-flight slots are interchangeable: end any one of them.
        const i = slots.indexOf(Infinity);
        if (i >= 0) slots[i] = performance.now() + windowMs;
      };
    },
    inFlight: () => slots.includes(Infinity),
    nextFree: () => Math.min(...slots),
    endBy(at) {
      slots = slots.map((until) => (Number.isFinite(until) ? Math.min(until, at) : until));
    },
  };
}
