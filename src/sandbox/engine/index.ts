export type {
  Engine,
  EngineCandidate,
  EngineNotice,
  EngineRequirement,
  EngineRunInput,
  EngineSnapshot,
} from './types.js';
export { createEngine, DEFAULT_SEED } from './engine.js';
export { FAIL_MARKER, RUN_CEILING } from './plan.js';
export { PRICE_TABLE, priceCredits } from './pricing.js';
