import type { FaultDefinition } from './types.js';

// Sandbox behaviour broken one rule at a time: error simulation and the reveal-price override.
export const sandboxFaults = [
  {
    id: 'sandbox.pseudonym-per-run',
    area: 'sandbox',
    summary:
      "a candidate's pseudonym is derived from the run too: stable within a run, another `Candidate XXXX` in the next real run",
    caughtBy: 'sandbox.pseudonym-stable-across-runs',
  },
  {
    id: 'sandbox.evidence-other-pseudonym',
    area: 'sandbox',
    summary: "names inside evidence are replaced by another pseudonym than the candidate's masked name",
    caughtBy: 'sandbox.evidence-pseudonym-is-the-name',
  },
  {
    id: 'sandbox.no-environment-header',
    area: 'sandbox',
    summary: "no response carries `x-svc-environment: sandbox` (the behaviour is the sandbox's all the same)",
    caughtBy: 'sandbox.environment-header-on-every-response',
    alsoCaughtBy: ['sandbox.environment-header-on-post-successes'],
  },
  {
    id: 'sandbox.simulate-unavailable-as-500',
    area: 'sandbox',
    summary: 'simulated `rate_limit_unavailable` answers 500 instead of 503',
    caughtBy: 'sandbox.simulate-rate-limit-unavailable',
  },
  {
    id: 'sandbox.simulate-internal-error-code',
    area: 'sandbox',
    summary: 'simulated `internal_error` answers 500 with error `server_error`',
    caughtBy: 'sandbox.simulate-internal-error',
  },
  {
    id: 'sandbox.simulate-credits-without-reason',
    area: 'sandbox',
    summary: 'simulated `insufficient_credits` lacks `reason: simulated`',
    caughtBy: 'sandbox.simulate-insufficient-credits',
  },
  {
    id: 'sandbox.simulate-ignored-on-post',
    area: 'sandbox',
    summary:
      '`x-svc-sandbox-simulate` is honoured on GET only: a POST with it is carried out as if the header were absent',
    caughtBy: 'sandbox.simulate-on-post',
  },
  {
    id: 'sandbox.simulated-unavailable-executes',
    area: 'sandbox',
    summary:
      'a request with `x-svc-sandbox-simulate: rate_limit_unavailable` is carried out before the simulated 503 is answered (a job upsert stores the job)',
    caughtBy: 'sandbox.simulated-unavailable-stores-nothing',
  },
  {
    id: 'sandbox.fixture-names-per-run',
    area: 'sandbox',
    summary:
      'fixture candidates are named with a suffix from the run id, so the same candidate of the same fixture is named otherwise in another run',
    caughtBy: 'sandbox.candidate-name-same-across-runs',
  },
  {
    id: 'sandbox.simulate-allowed-incomplete',
    area: 'sandbox',
    summary: '`allowed` of an invalid simulate value misses `insufficient_credits`',
    caughtBy: 'sandbox.simulate-invalid-value-422',
  },
  {
    id: 'sandbox.reveal-price-no-upper-bound',
    area: 'sandbox',
    summary: '`x-svc-sandbox-reveal-price` above 1000 is accepted',
    caughtBy: 'sandbox.reveal-price-out-of-range-422',
  },
  {
    id: 'sandbox.reveal-charges-override-price',
    area: 'sandbox',
    summary: 'a sandbox reveal after a read with `x-svc-sandbox-reveal-price` charges that price instead of 0',
    caughtBy: 'sandbox.reveal-after-price-override-charges-zero',
  },
  {
    id: 'sandbox.reveal-pending-202',
    area: 'sandbox',
    summary:
      'every sandbox reveal answers `202` with `{status: "pending"}` (the production pending answer) instead of the synthetic contact',
    caughtBy: 'reveal.result-schema',
  },
  {
    id: 'sandbox.reveal-402-over-wallet',
    area: 'sandbox',
    summary:
      'a sandbox reveal whose quoted price (e.g. after `x-svc-sandbox-reveal-price: 1000`) is above the organization balance answers `402 insufficient_credits`',
    caughtBy: 'sandbox.reveal-after-price-override-charges-zero',
  },
] as const satisfies readonly FaultDefinition[];
