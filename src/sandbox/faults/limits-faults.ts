import type { FaultDefinition } from './types.js';

// Limits broken one at a time (the rate limit's and the run quota's first faults are in api-faults.ts).
export const limitsFaults = [
  {
    id: 'limits.rate-limit-unenforced',
    area: 'limits',
    summary: 'requests over the per-minute rate are counted but never refused with 429',
    caughtBy: 'limits.rate-limit-429',
  },
  {
    id: 'limits.quota-without-retry-after',
    area: 'limits',
    summary: 'the 21st real run gets 429 `sandbox_run_quota` without the `Retry-After` header',
    caughtBy: 'limits.sandbox-run-quota',
  },
  {
    id: 'limits.quota-refused-422-count',
    area: 'limits',
    summary: 'run starts refused with 422 count toward the sandbox run quota',
    caughtBy: 'limits.sandbox-run-quota',
  },
  {
    id: 'limits.simulated-not-counted',
    area: 'limits',
    summary: 'requests carrying `x-svc-sandbox-simulate` are answered but not counted toward the rate limit',
    caughtBy: 'limits.simulated-requests-count',
  },
  {
    id: 'limits.rate-limit-per-organization',
    area: 'limits',
    summary:
      "the request rate is limited per organization (org token), not per partner: another organization's requests pass while the partner is over its limit",
    caughtBy: 'limits.rate-limit-per-partner',
  },
] as const satisfies readonly FaultDefinition[];
