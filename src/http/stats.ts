// What the engine tells the run at its end: how many requests went out and how they ended.

import type { Exchanged, Layer } from './exchange.js';
import type { RequestSpec } from './types.js';

export interface HttpEngineStats {
  requests: number;
  /** Responses with status 429 to paced requests that did not ask for one (simulation, deliberate bursts). */
  rateLimited: number;
  /** Count per status ("200", "429", …); transport failures by their code ("timeout", …). */
  byStatus: Record<string, number>;
}

export interface StatsCounter {
  /** Counts requests that got past the pacer (innermost, just before the transport). */
  readonly counting: Layer;
  answered(spec: RequestSpec, exchanged: Exchanged): void;
  snapshot(): HttpEngineStats;
  /** When each request went out (epoch ms), in order: the timeline counts them per rate window. */
  sendTimes(): readonly number[];
}

export function createStatsCounter(): StatsCounter {
  const stats: HttpEngineStats = { requests: 0, rateLimited: 0, byStatus: {} };
  const sent: number[] = [];
  return {
    counting: (next) => (req, attempt) => {
      stats.requests++;
      sent.push(Date.now());
      return next(req, attempt);
    },
    answered(spec, { incoming, error }) {
      // A spare request that found no budget never went out: no answer to count.
      if (error?.code === 'no_spare_budget') return;
      const key = error ? error.code : String(incoming?.status ?? 0);
      stats.byStatus[key] = (stats.byStatus[key] ?? 0) + 1;
      // Only the 429s the certifier did not ask for: a simulated one or a deliberate burst is a check.
      const simulated = Object.keys(spec.headers ?? {}).some((h) => h.toLowerCase() === 'x-svc-sandbox-simulate');
      const askedFor429 = spec.unpaced === true || simulated;
      if (incoming?.status === 429 && !askedFor429) stats.rateLimited++;
    },
    snapshot: () => ({ ...stats, byStatus: { ...stats.byStatus } }),
    sendTimes: () => sent,
  };
}
