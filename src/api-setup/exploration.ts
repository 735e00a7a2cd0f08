// The exploration's share of a certification's requests, told apart from the catalogue's in the stats
// and every report: the requests of the explore suite's checks that reached the target; and the notice
// of an exploration its grace cut short.

import type { CheckResult, Notice } from '../runner/results.js';

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

/**
 * The exploration's grace running out, told by each request it refused (each stops one check's cases),
 * and the notice the results carry then: a cut exploration sent less than another run of the same build
 * may, so it is never silent.
 */
export function explorationCuts(): {
  onCut(graceMs: number): void;
  notice(sent: number, cap: number): Notice | undefined;
} {
  let refused = 0;
  let grace = 0;
  return {
    onCut(graceMs) {
      refused++;
      grace = graceMs;
    },
    notice(sent, cap) {
      if (refused === 0) return undefined;
      return {
        id: 'explore.cut-short',
        message: `the exploration was cut short: it sent ${sent} of the ${cap} requests it may send (--explore ${cap}); its grace after the other checks ended (${(grace / 1000).toFixed(1)} s: the rate windows of its cap at the client's pace under the agreed rate, plus one request time-out) ran out with ${refused} of its checks' requests unsent, each ending that check's cases; the same target may get a longer exploration on a less loaded machine`,
      };
    },
  };
}
