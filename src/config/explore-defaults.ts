// The defaults of the generative exploration (--explore, --seed), decided with the rest of the
// configuration so that reports can print them.

import { randomInt } from 'node:crypto';

/** The most generated requests a certification sends unless told otherwise. */
export const EXPLORE_CAP = 200;

/**
 * cert-slow's 3 minutes: the exploration fills the rate budget the other checks leave unused while it
 * runs, and no longer, so the certification keeps its critical path.
 */
export const SPARE_WINDOW_MINUTES = 3;

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

/** A seed drawn when none is given (printed, so the run can be replayed with --seed). */
export function drawSeed(): number {
  return randomInt(0, 0x7fffffff);
}
