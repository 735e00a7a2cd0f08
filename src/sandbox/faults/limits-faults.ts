import type { FaultDefinition } from './types.js';

// Limits broken one at a time (the rate limit's and the run quota's first faults are in api-faults.ts).
export const limitsFaults: FaultDefinition[] = [
  { id: 'limits.quota-refused-422-count', area: 'limits', summary: 'run starts refused with 422 count toward the sandbox run quota', caughtBy: 'limits.sandbox-run-quota' },
];
