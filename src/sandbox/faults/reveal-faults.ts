// Revealing a candidate's contact (Endpoints › POST /runs/{run_id}/candidates/{candidate_id}/reveal,
// States and transitions › Candidate contact state, Sandbox behaviour). They act at the refusal, id, charge
// and answer points of routes/reveal.ts; the contact state of a run read acts at the runView point, and which
// stored reveals count for it is switched in run-view.ts.
import { reword, edited } from './reshape.js';
import { ApiError } from '../api-error.js';
import { PHONE_HIDDEN } from '../presentation/placeholders.js';
import { eachCandidate } from './run-view-edits.js';
import type { FaultDefinition } from './types.js';
import { onAnswer, onId, onRefusal } from './points.js';

export const revealFaults = [
  {
    id: 'reveal.charged-twice',
    area: 'reveal',
    summary: 'revealing an already revealed candidate charges again',
    caughtBy: 'reveal.no-second-charge',
    acts: {
      charge: (c, f) => (f.alreadyRevealed ? f.price : c),
    },
  },
  {
    id: 'reveal.contact-wrong-shape',
    area: 'reveal',
    summary: 'sandbox reveal e-mail is not `candidate-<id>@<reserved .invalid domain>`',
    caughtBy: 'reveal.sandbox-synthetic-contact',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        f.sandbox
          ? edited(r, (b) => {
              b.email = `candidate${f.candidateId}@example.com`;
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.sandbox-phone-per-run',
    area: 'reveal',
    summary:
      'the sandbox phone carries an extension taken from the run id, so the same candidate gets another phone in another run',
    caughtBy: 'reveal.sandbox-contact-same-across-runs',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        f.sandbox
          ? edited(r, (b) => {
              b.phone = `${String(b.phone)} x${f.runId.slice(0, 4)}`;
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.sandbox-phone-placeholder',
    area: 'reveal',
    summary:
      'a sandbox reveal answers phone `[phone hidden in sandbox]` (the evidence placeholder) instead of a synthetic number',
    caughtBy: 'reveal.sandbox-synthetic-contact',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        f.sandbox
          ? edited(r, (b) => {
              b.phone = PHONE_HIDDEN;
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.wallet-balance-missing',
    area: 'reveal',
    summary: 'the reveal result lacks `wallet_balance_after`',
    caughtBy: 'reveal.result-schema',
    acts: {
      answer: onAnswer('reveal', (r) =>
        edited(r, (b) => {
          delete b.wallet_balance_after;
        }),
      ),
    },
  },
  {
    id: 'reveal.sandbox-flag-missing',
    area: 'reveal',
    summary: 'a sandbox reveal result lacks `sandbox: true`',
    caughtBy: 'reveal.sandbox-nothing-charged',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        f.sandbox
          ? edited(r, (b) => {
              delete b.sandbox;
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.sandbox-charges-credits',
    area: 'reveal',
    summary: 'a sandbox reveal reports the quoted price in `credits_charged`',
    caughtBy: 'reveal.sandbox-nothing-charged',
    acts: {
      charge: (c, f) => (f.sandbox ? f.price : c),
    },
  },
  {
    id: 'reveal.contact-differs-on-repeat',
    area: 'reveal',
    summary: 'revealing an already revealed candidate returns another phone',
    caughtBy: 'reveal.repeat-returns-same-contact',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        f.sandbox && f.alreadyRevealed
          ? edited(r, (b) => {
              b.phone = String(b.phone).replace(/\d$/, (d) => String((Number(d) + 1) % 10));
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.contact-state-stays-locked',
    area: 'reveal',
    summary: 'the run read keeps `contact_state: locked` after a reveal',
    caughtBy: 'reveal.contact-state-revealed-after-reveal',
    acts: {
      runView: (v) =>
        eachCandidate(v, (c) => {
          c.contact_state = 'locked';
        }),
    },
  },
  {
    id: 'reveal.not-in-run-wrong-code',
    area: 'reveal',
    summary: 'a candidate not listed on the run answers 404 `candidate_not_found` instead of `candidate_not_in_run`',
    caughtBy: 'reveal.candidate-not-in-run-404',
    acts: {
      refusal: onRefusal('candidate-not-in-run', (e) => (e ? reword(e, { code: 'candidate_not_found' }) : e)),
    },
  },
  {
    id: 'reveal.unknown-run-wrong-code',
    area: 'reveal',
    summary: 'a reveal on an unknown run answers 404 `candidate_not_in_run` instead of `run_not_found`',
    caughtBy: 'reveal.unknown-run-404',
    acts: {
      refusal: onRefusal({ cause: 'run-not-found', route: 'reveal' }, (e, f) =>
        e?.code === 'run_not_found' && !f.foreign ? new ApiError(404, 'candidate_not_in_run') : e,
      ),
    },
  },
  {
    id: 'reveal.unknown-user-accepted',
    area: 'reveal',
    summary: 'a reveal does not check that the acting user is registered',
    caughtBy: 'reveal.unknown-user-404',
    acts: {
      refusal: onRefusal({ cause: ['unknown-user', 'acting-user-not-string'], route: 'reveal' }, () => undefined),
    },
  },
  {
    id: 'reveal.other-org-403',
    area: 'reveal',
    summary: "a reveal on another organization's run answers 403 instead of 404 `run_not_found`",
    caughtBy: 'reveal.other-organization-run-404',
    acts: {
      refusal: onRefusal({ cause: 'run-not-found', route: 'reveal' }, (e, f) =>
        e && f.foreign ? new ApiError(403, 'forbidden') : e,
      ),
    },
  },
  {
    id: 'reveal.id-parsed-as-double',
    area: 'reveal',
    summary: 'the path `candidate_id` is parsed as a double, so ids above 2^53 are not found',
    caughtBy: 'reveal.candidate-id-above-2-53',
    acts: {
      id: onId('reveal', (id) => BigInt(Number(id))),
    },
  },
  {
    id: 'reveal.production-charges-nothing',
    area: 'reveal',
    summary:
      'production: a first reveal says `credits_charged: 0` while the wallet falls by the quoted price (a reveal the price table makes free is variant reveal.production-price-table-free)',
    caughtBy: 'reveal.production-charged-once',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        !f.sandbox
          ? edited(r, (b) => {
              b.credits_charged = 0;
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.production-charge-understated',
    area: 'reveal',
    summary: 'production: `credits_charged` says 2 credits less than the wallet fell by',
    caughtBy: 'reveal.production-charged-once',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        !f.sandbox && f.charge > 0
          ? edited(r, (b) => {
              b.credits_charged = f.charge - 2;
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.production-wallet-stale',
    area: 'reveal',
    summary: 'production: `wallet_balance_after` reports the balance before the charge',
    caughtBy: 'reveal.production-charged-once',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        !f.sandbox
          ? edited(r, (b) => {
              b.wallet_balance_after = Number(b.wallet_balance_after) + f.charge;
            })
          : r,
      ),
    },
  },
  {
    id: 'reveal.production-charged-again-in-other-run',
    area: 'reveal',
    summary:
      'production: "already revealed" is kept per run, so a candidate the organization revealed in one run is charged again in another run that lists it',
    caughtBy: 'reveal.production-repeat-free-in-another-run',
    acts: {
      charge: (c, f) => (!f.sandbox && f.alreadyRevealed && !f.revealedInThisRun ? f.price : c),
    },
  },
  {
    id: 'reveal.contact-state-per-run',
    area: 'reveal',
    summary:
      'the contact state is kept per run: a candidate the organization revealed in one run reads `contact_state: locked` in another run of the same organization until revealed there too',
    caughtBy: 'reveal.contact-state-per-organization',
  },
  {
    id: 'isolation.reveal-state-shared-across-orgs',
    area: 'reveal',
    summary:
      "a candidate revealed by any organization of the partner reads `contact_state: revealed` in every organization's runs, not only in the revealing organization's",
    caughtBy: 'reveal.contact-state-per-organization',
  },
  {
    id: 'isolation.reveal-user-any-org',
    area: 'reveal',
    summary:
      "a reveal's acting-user lookup ignores the organization: a recruiter registered only in another organization of the partner reveals (200) instead of `404 user_not_found`",
    caughtBy: 'users.other-organization-recruiter-on-reveal-and-decisions',
    acts: {
      refusal: onRefusal({ cause: 'unknown-user', route: 'reveal' }, (e, f) => (f.elsewhere() ? undefined : e)),
    },
  },
] as const satisfies readonly FaultDefinition[];
