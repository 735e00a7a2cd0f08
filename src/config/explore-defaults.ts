// The defaults of the generative exploration (--explore, --seed), decided with the rest of the
// configuration so that reports can print them.

import { randomInt } from 'node:crypto';
import { pacedBudget } from './paced-budget.js';

/** The most generated requests a certification sends unless told otherwise. */
const EXPLORE_CAP = 300;

/**
 * The most --explore accepts: over 30 times the largest default, hours of spare budget at the spec's 120 a minute,
 * and cases are drawn one at a time, so memory does not grow with it.
 */
export const EXPLORE_MAX = 10_000;

/**
 * The seed when none is given: fixed, so that the same build against the same target sends the same
 * exploration and reaches the same verdict. `--seed random` draws one (printed, replayable).
 */
export const DEFAULT_SEED = 1;

/**
 * The most requests the catalogue (every check but the exploration's) sends in one certification
 * without --exhaust-limits. bench:certify holds the build to it.
 */
export const CATALOGUE_REQUESTS = 360;

/**
 * The rate windows of the catalogue's critical path at the spec's pace: cert-slow's 3 minutes, and a
 * real run's end (150 to 240 s in the reference sandbox), fall within the first four one-minute windows.
 */
const CRITICAL_PATH_WINDOWS = 4;

/**
 * What the paced budget of the critical path's windows holds beyond the catalogue, at most EXPLORE_CAP:
 * 72 at the spec's 120 a minute, none below 100 a minute. Sent on the budget the catalogue leaves
 * unused, an exploration of this size adds no rate window to the certification, so it ends with the
 * catalogue's critical path; a larger --explore costs one window (a minute of spec time) per paced
 * budget more. A number decided from the inputs, never from timing: the same inputs, the same
 * exploration.
 */
export function defaultExploreRequests(rateLimit: number): number {
  const spare = pacedBudget(rateLimit) * CRITICAL_PATH_WINDOWS - CATALOGUE_REQUESTS;
  return Math.min(EXPLORE_CAP, Math.max(0, spare));
}

/** A seed drawn for `--seed random` (printed, so the run can be replayed with --seed). */
export function drawSeed(): number {
  return randomInt(0, 0x7fffffff);
}
