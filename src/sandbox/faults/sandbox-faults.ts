// Sandbox behaviour broken one rule at a time: error simulation, the reveal-price override, the environment
// header, masking. Simulation acts at the settings and refusal points of app.ts, masking and pseudonyms at the
// masking point that presentation/masking.ts reads, a fixture run's names at the runView point.
import { reword, withoutHeader } from './reshape.js';
import { ApiError } from '../api-error.js';
import { SIMULATE_VALUES } from '../simulate-values.js';
import { eachCandidate } from './run-view-edits.js';
import type { FaultDefinition } from './types.js';
import { onAnswer, onRefusal } from './points.js';

export const sandboxFaults = [
  {
    id: 'sandbox.errors-without-environment-header',
    area: 'sandbox',
    summary: 'error responses lack `x-svc-environment: sandbox`',
    caughtBy: 'sandbox.environment-header-on-every-response',
    acts: {
      wire: (w) => (w.status >= 400 ? withoutHeader(w, 'x-svc-environment') : w),
    },
  },
  {
    id: 'sandbox.simulate-no-retry-after',
    area: 'sandbox',
    summary: 'simulated `rate_limited` lacks the `Retry-After` header',
    caughtBy: 'sandbox.simulate-rate-limited',
    acts: {
      refusal: onRefusal('simulated', (e) => (e && e.code === 'rate_limited' ? reword(e, { headers: {} }) : e)),
    },
  },
  {
    id: 'sandbox.simulate-before-auth',
    area: 'sandbox',
    summary: 'simulation is applied before authentication (an unknown key gets the simulated answer)',
    caughtBy: 'sandbox.simulate-authenticated-first',
    acts: {
      settings: (s) => ({ ...s, simulateBeforeAuth: true }),
    },
  },
  {
    id: 'sandbox.reveal-price-ignored',
    area: 'sandbox',
    summary: '`x-svc-sandbox-reveal-price` is ignored',
    caughtBy: 'sandbox.reveal-price-override',
    acts: {
      settings: (s) => ({ ...s, revealPriceHeader: false }),
    },
  },
  {
    id: 'sandbox.name-not-masked',
    area: 'sandbox',
    summary: 'candidate names are shown unmasked, in name and inside evidence',
    caughtBy: 'sandbox.candidate-name-masked',
    acts: { masking: (m) => ({ ...m, names: false }) },
  },
  {
    id: 'sandbox.email-left-in-evidence',
    area: 'sandbox',
    summary: 'e-mail addresses inside evidence, title, company and location are not hidden',
    caughtBy: 'sandbox.contact-identifiers-masked',
    acts: { masking: (m) => ({ ...m, emails: false }) },
  },
  {
    id: 'sandbox.schemeless-link-left',
    area: 'sandbox',
    summary: 'only links written with a scheme or www. are hidden: a bare `linkedin.com/in/…` stays in evidence',
    caughtBy: 'sandbox.contact-identifiers-masked',
    acts: { masking: (m) => ({ ...m, links: 'schemed-only' }) },
  },
  {
    id: 'sandbox.bare-phone-left',
    area: 'sandbox',
    summary: 'only phone numbers written with separators are hidden: `0521234567` stays in evidence',
    caughtBy: 'sandbox.contact-identifiers-masked',
    acts: { masking: (m) => ({ ...m, barePhones: false }) },
  },
  {
    id: 'sandbox.accepted-without-environment-header',
    area: 'sandbox',
    summary: '`202` answers (run start, test webhook) lack `x-svc-environment: sandbox`; every other answer keeps it',
    caughtBy: 'sandbox.environment-header-on-post-successes',
    alsoCaughtBy: ['webhooks.test-endpoint-accepted'],
    acts: {
      wire: (w) => (w.status === 202 ? withoutHeader(w, 'x-svc-environment') : w),
    },
  },
  {
    id: 'sandbox.pseudonym-per-run',
    area: 'sandbox',
    summary:
      "a candidate's pseudonym is derived from the run too: stable within a run, another `Candidate XXXX` in the next real run",
    caughtBy: 'sandbox.pseudonym-stable-across-runs',
    acts: { masking: (m) => ({ ...m, pseudonymStable: false }) },
  },
  {
    id: 'sandbox.evidence-other-pseudonym',
    area: 'sandbox',
    summary: "names inside evidence are replaced by another pseudonym than the candidate's masked name",
    caughtBy: 'sandbox.evidence-pseudonym-is-the-name',
    acts: { masking: (m) => ({ ...m, evidenceOwnPseudonym: false }) },
  },
  {
    id: 'sandbox.no-environment-header',
    area: 'sandbox',
    summary: "no response carries `x-svc-environment: sandbox` (the behaviour is the sandbox's all the same)",
    caughtBy: 'sandbox.environment-header-on-every-response',
    alsoCaughtBy: ['sandbox.environment-header-on-post-successes'],
    acts: {
      settings: (s, f) => (f.sandbox ? { ...s, environmentHeader: false } : s),
    },
  },
  {
    id: 'sandbox.simulate-unavailable-as-500',
    area: 'sandbox',
    summary: 'simulated `rate_limit_unavailable` answers 500 instead of 503',
    caughtBy: 'sandbox.simulate-rate-limit-unavailable',
    acts: {
      refusal: onRefusal('simulated', (e) =>
        e && e.code === 'rate_limit_unavailable' ? reword(e, { status: 500 }) : e,
      ),
    },
  },
  {
    id: 'sandbox.simulate-internal-error-code',
    area: 'sandbox',
    summary: 'simulated `internal_error` answers 500 with error `server_error`',
    caughtBy: 'sandbox.simulate-internal-error',
    acts: {
      refusal: onRefusal('simulated', (e) =>
        e && e.code === 'internal_error' ? reword(e, { code: 'server_error' }) : e,
      ),
    },
  },
  {
    id: 'sandbox.simulate-credits-without-reason',
    area: 'sandbox',
    summary: 'simulated `insufficient_credits` lacks `reason: simulated`',
    caughtBy: 'sandbox.simulate-insufficient-credits',
    acts: {
      refusal: onRefusal('simulated', (e) => {
        if (!e || e.code !== 'insufficient_credits') return e;
        const { reason: _reason, ...extra } = e.extra;
        return reword(e, { extra });
      }),
    },
  },
  {
    id: 'sandbox.simulate-ignored-on-post',
    area: 'sandbox',
    summary:
      '`x-svc-sandbox-simulate` is honoured on GET only: a POST with it is carried out as if the header were absent',
    caughtBy: 'sandbox.simulate-on-post',
    acts: {
      settings: (s) => ({ ...s, simulateOnPost: false }),
    },
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
    acts: {
      runView: (v, f) =>
        f.fixture
          ? eachCandidate(v, (c) => {
              c.name = `${String(c.name)} ${f.runId.slice(0, 4)}`;
            })
          : v,
    },
  },
  {
    id: 'sandbox.simulate-allowed-incomplete',
    area: 'sandbox',
    summary: '`allowed` of an invalid simulate value misses `insufficient_credits`',
    caughtBy: 'sandbox.simulate-invalid-value-422',
    acts: {
      refusal: onRefusal('simulate-value', (e) =>
        e
          ? reword(e, { extra: { ...e.extra, allowed: SIMULATE_VALUES.filter((v) => v !== 'insufficient_credits') } })
          : e,
      ),
    },
  },
  {
    id: 'sandbox.reveal-price-no-upper-bound',
    area: 'sandbox',
    summary: '`x-svc-sandbox-reveal-price` above 1000 is accepted',
    caughtBy: 'sandbox.reveal-price-out-of-range-422',
    acts: {
      refusal: onRefusal('reveal-price-over-1000', () => undefined),
    },
  },
  {
    id: 'sandbox.reveal-charges-override-price',
    area: 'sandbox',
    summary: 'a sandbox reveal after a read with `x-svc-sandbox-reveal-price` charges that price instead of 0',
    caughtBy: 'sandbox.reveal-after-price-override-charges-zero',
    acts: {
      charge: (c, f) => (f.sandbox && f.overridden ? f.price : c),
    },
  },
  {
    id: 'sandbox.reveal-pending-202',
    area: 'sandbox',
    summary:
      'every sandbox reveal answers `202` with `{status: "pending"}` (the production pending answer) instead of the synthetic contact',
    caughtBy: 'reveal.result-schema',
    acts: {
      answer: onAnswer('reveal', (r, f) => (f.sandbox ? { status: 202, body: { status: 'pending' } } : r)),
    },
  },
  {
    id: 'sandbox.reveal-402-over-wallet',
    area: 'sandbox',
    summary:
      'a sandbox reveal whose quoted price (e.g. after `x-svc-sandbox-reveal-price: 1000`) is above the organization balance answers `402 insufficient_credits`',
    caughtBy: 'sandbox.reveal-after-price-override-charges-zero',
    acts: {
      refusal: onRefusal({ cause: 'admitted', route: 'reveal' }, (e, f) =>
        f.price !== undefined && f.price > (f.walletBalance ?? 0)
          ? new ApiError(402, 'insufficient_credits', { balance: f.walletBalance, required: f.price })
          : e,
      ),
    },
  },
] as const satisfies readonly FaultDefinition[];
