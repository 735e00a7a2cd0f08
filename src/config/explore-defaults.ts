// The defaults of the generative exploration (--explore, --seed), decided with the rest of the
// configuration so that reports can print them.

import { randomInt } from 'node:crypto';

/** The most generated requests a certification sends unless told otherwise. */
const EXPLORE_CAP = 300;

/**
 * The most --explore accepts: over 30 times the default, hours of spare budget at the spec's 120 a minute,
 * and cases are drawn one at a time, so memory does not grow with it.
 */
export const EXPLORE_MAX = 10_000;

/**
 * The seed when none is given: fixed, so that the same build against the same target sends the same
 * exploration and reaches the same verdict. `--seed random` draws one (printed, replayable).
 */
export const DEFAULT_SEED = 1;

/**
 * cert-slow's 3 minutes: the exploration fills the rate budget the other checks leave unused while it
 * runs, and no longer, so the certification keeps its critical path.
 */
const SPARE_WINDOW_MINUTES = 3;

/** The certifier's share of the target's limit (the pacer's margin). */
const PACING_MARGIN = 0.9;

/**
 * Up to EXPLORE_CAP, fewer when the paced budget of cert-slow's 3 minutes at time scale 1 holds fewer
 * (a low --rate-limit): the exploration can never take more than that window holds. What it actually
 * sends is what the other checks leave unused (the pacer's spare slots, until the window ends).
 */
export function defaultExploreRequests(rateLimit: number): number {
  return Math.min(EXPLORE_CAP, Math.floor(rateLimit * PACING_MARGIN * SPARE_WINDOW_MINUTES));
}

/** A seed drawn for `--seed random` (printed, so the run can be replayed with --seed). */
export function drawSeed(): number {
  return randomInt(0, 0x7fffffff);
}
