// Every request waits for the shared budget (see pacer.ts) and holds its slot until its answer is
// read. A request stopped while it waits never reaches the target: it ends with the stop's reason.
// A burst request's slot ends with the Retry-After of the 429 it met, if any (see Pacer.burst).

import { endedEarly } from './exchange.js';
import type { Exchanged, Layer } from './exchange.js';
import { rateLimited } from './limit-kept.js';
import { NoSpareBudget, type Pacer } from './pacer.js';

export function paced(pacer: Pacer): Layer {
  return (next) => async (req, attempt) => {
    const { control } = attempt;
    const startedAt = new Date();
    const t0 = performance.now();
    let release: (refusedForMs?: number) => void;
    try {
      release = attempt.unpaced
        ? await pacer.burst(control.signal)
        : await pacer.hold(control.signal, attempt.priority, attempt.spareStop);
    } catch (err) {
      if (err instanceof NoSpareBudget)
        return endedEarly({ code: 'no_spare_budget', message: err.message }, startedAt, t0);
      return endedEarly(control.errorOf(err), startedAt, t0);
    }
    let exchanged: Exchanged | undefined;
    try {
      return (exchanged = await next(req, attempt));
    } finally {
      // A burst request the target refused says when its window ends: paced requests resume then.
      release(attempt.unpaced && exchanged ? rateLimited(exchanged)?.retryAfterMs : undefined);
    }
  };
}
