// The exploration's share of a certification's requests, told apart from the catalogue's in the stats
// and every report: the requests of the explore suite's checks that reached the target.

import type { CheckResult } from '../runner/results.js';

/** The suite whose checks send generated requests (suites/explore/). */
export const EXPLORE_SUITE = 'explore';

/** Requests the exploration sent: its checks' own exchanges (not the setup steps they awaited), answered or not, but sent. */
export function explorationRequests(results: readonly CheckResult[]): number {
  let n = 0;
  for (const check of results) {
    if (check.suite !== EXPLORE_SUITE) continue;
    for (const ex of check.exchanges) {
      if ((ex.label ?? '').startsWith('setup: ')) continue;
      n++;
    }
  }
  return n;
}
