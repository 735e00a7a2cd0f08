// The counters a certification of the API adds to the engine's (RunStats of src/runner/results.ts:
// requests and 429s), declared into that interface here so that the engine stays free of the API while
// results.json keeps one `stats` object (schemas/results.schema.json). `run` fills them in certify.ts,
// `partner` from the traffic it judged; report.html and the certify bench read them.

import type { RunStats } from '../runner/results.js';

declare module '../runner/results.js' {
  interface RunStats {
    /** Real runs started against the target: each costs the organization's daily run quota. */
    realRuns: number;
    /** Of `requests`, those the generative exploration sent. */
    exploreRequests?: number;
  }
}

/** `run`'s counters, in the order results.json has always listed them. */
export function runStats(
  http: Pick<RunStats, 'requests' | 'rateLimited'>,
  counted: { realRuns: number; exploreRequests: number },
): RunStats {
  return {
    requests: http.requests,
    realRuns: counted.realRuns,
    rateLimited: http.rateLimited,
    exploreRequests: counted.exploreRequests,
  };
}
