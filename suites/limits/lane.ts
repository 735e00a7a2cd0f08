// The bursts of one certification (per target address, never a secret) go one after another, so a
// check that reads the window a burst filled (the per-partner trio) never shares it with another
// burst's requests arriving.
// They share one window where they can: once a burst has filled it, the next burst's first request
// already gets 429. Only the simulated burst needs a window of its own (its 429 must come from
// simulated requests): it goes first (its check has the longest budget of the three, and the plan
// starts the longest first), or waits for the window another burst filled to end.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import { retryAfterMsOf } from '../../src/http/limit-kept.js';

interface Lane {
  tail: Promise<unknown>;
  /** When the last window a burst sent requests into ends (ms, Date.now clock). */
  windowEndsAt: number;
}
const lanes = new Map<string, Lane>();

function laneOf(t: CheckContext): Lane {
  let lane = lanes.get(t.target.baseUrl);
  if (!lane) lanes.set(t.target.baseUrl, (lane = { tail: Promise.resolve(), windowEndsAt: 0 }));
  return lane;
}

/** Runs `fn` once every burst queued before it has ended; `ownWindow`: in a window no other burst touched. */
export function inBurstLane<T>(t: CheckContext, fn: () => Promise<T>, opts: { ownWindow?: boolean } = {}): Promise<T> {
  const lane = laneOf(t);
  const before = lane.tail;
  // The bursts queued before this one are other checks' time: this check's budget does not run meanwhile.
  const mine = t.setup
    .waitTurn(() => before)
    .then(async () => {
      const waitMs = lane.windowEndsAt - Date.now();
      if (opts.ownWindow && waitMs > 0) await t.sleep(waitMs * t.target.timeScale);
      return fn();
    });
  lane.tail = mine.catch(() => undefined);
  return mine;
}

/**
 * A burst sent requests: the window they went into ends when its 429 said (Retry-After), else (no
 * 429, or none with a Retry-After) one window from now at the latest.
 */
export function windowTouched(t: CheckContext, limited: ApiResponse | undefined): void {
  const endsInMs = retryAfterMsOf(limited?.headers['retry-after']) ?? 60_000 / t.target.timeScale;
  const lane = laneOf(t);
  lane.windowEndsAt = Math.max(lane.windowEndsAt, Date.now() + endsInMs);
}
