// The certifier's own share of the target's rate limit: the pacer keeps to it, and the exploration's
// default is sized from it.

/** Share of the target's limit the certifier allows itself: slack for clock and latency skew. */
const DEFAULT_PACING_MARGIN = 0.9;

/** The requests the certifier allows itself in one window of the target's limit (never fewer than one). */
export function pacedBudget(ratePerMinute: number, margin = DEFAULT_PACING_MARGIN): number {
  return Math.max(1, Math.floor(ratePerMinute * margin));
}
