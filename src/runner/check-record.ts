// What one check saw, as the engine keeps it while the check runs: its exchanges (the one index of
// them: an observation names its exchange by the position given here) and its observations, the
// first MAX_OBSERVATIONS_PER_CHECK kept and the rest counted.

import { MAX_OBSERVATIONS_PER_CHECK } from './limits.js';
import { ObservationOverflow } from './observation-overflow.js';
import { boundedObservation } from './observation-text.js';
import type { CheckExchange, Observation, RecordedExchange } from './results.js';

export interface CheckRecord {
  readonly exchanges: CheckExchange[];
  readonly observations: Observation[];
  /** Keeps an exchange once; `setup` labels it as a shared step's ("setup: …"). */
  record(exchange: RecordedExchange, setup: boolean): void;
  /** Where a recorded exchange is in `exchanges`, or undefined when it was never recorded. */
  indexOf(exchange: RecordedExchange): number | undefined;
  /** Keeps an observation (bounded), naming its exchange by index; counts it once the check keeps no more. */
  observe(observation: Omit<Observation, 'exchange'>, exchange?: RecordedExchange): void;
  /** Adds the "+K more" observation, when some were not kept. */
  closeObservations(): void;
}

export function createCheckRecord(): CheckRecord {
  const exchanges: CheckExchange[] = [];
  const indexes = new Map<RecordedExchange, number>();
  const observations: Observation[] = [];
  const overflow = new ObservationOverflow();
  return {
    exchanges,
    observations,
    record(ex, setup) {
      // A spare request that found no budget before the other checks ended never reached the target (the
      // exploration sends the same case again in its grace): recording it would list the case twice in
      // runs where the others happened to end while it waited, and once in the rest.
      if (indexes.has(ex) || ex.transportError?.code === 'no_spare_budget') return;
      const index = exchanges.length;
      const label = setup && !(ex.label ?? '').startsWith('setup') ? `setup: ${ex.label ?? ''}` : ex.label;
      indexes.set(ex, index);
      exchanges.push({ ...ex, index, ...(label !== undefined ? { label } : {}) });
    },
    indexOf: (ex) => indexes.get(ex),
    observe(obs, ex) {
      const index = ex ? indexes.get(ex) : undefined;
      if (observations.length < MAX_OBSERVATIONS_PER_CHECK)
        observations.push({ ...boundedObservation(obs), ...(index !== undefined ? { exchange: index } : {}) });
      else overflow.add(obs);
    },
    closeObservations() {
      const more = overflow.observation(observations.length);
      if (more) observations.push(more);
    },
  };
}
