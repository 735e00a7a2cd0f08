// Rate limits and the sandbox run quota (Rate limits, Sandbox behaviour). They act at the settings and
// refusal points; what changes the quota's count is switched in routes/runs-start.ts.
import { reword } from './reshape.js';
import type { FaultDefinition } from './types.js';
import { onRefusal } from './points.js';

export const limitsFaults = [
  {
    id: 'limits.rate-limited-no-retry-after',
    area: 'limits',
    summary: 'a real `429 rate_limited` lacks `Retry-After`',
    caughtBy: 'limits.rate-limit-429',
    acts: {
      refusal: onRefusal('rate-limited', (e) => (e ? reword(e, { headers: {} }) : e)),
    },
  },
  {
    id: 'limits.fixture-runs-count',
    area: 'limits',
    summary: 'fixture runs count toward the sandbox run quota',
    caughtBy: 'limits.sandbox-run-quota',
  },
  {
    id: 'limits.rate-limit-unenforced',
    area: 'limits',
    summary: 'requests over the per-minute rate are counted but never refused with 429',
    caughtBy: 'limits.rate-limit-429',
    acts: {
      refusal: onRefusal('rate-limited', () => undefined),
    },
  },
  {
    id: 'limits.quota-without-retry-after',
    area: 'limits',
    summary: 'the 21st real run gets 429 `sandbox_run_quota` without the `Retry-After` header',
    caughtBy: 'limits.sandbox-run-quota',
    acts: {
      refusal: onRefusal('run-quota', (e) => (e ? reword(e, { headers: {} }) : e)),
    },
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
    acts: {
      settings: (s) => ({ ...s, simulatedCounted: false }),
    },
  },
  {
    id: 'limits.rate-limit-per-organization',
    area: 'limits',
    summary:
      "the request rate is limited per organization (org token), not per partner: another organization's requests pass while the partner is over its limit",
    caughtBy: 'limits.rate-limit-per-partner',
    acts: {
      settings: (s) => ({ ...s, rateLimitPerOrganization: true }),
    },
  },
] as const satisfies readonly FaultDefinition[];
