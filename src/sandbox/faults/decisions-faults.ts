import type { FaultDefinition } from './types.js';

// Reporting decisions and shown notices (Endpoints › POST /runs/{run_id}/decisions, Resources and their
// fields › Decision (request item)). Hooks: routes/decisions.ts.
export const decisionsFaults = [
  {
    id: 'decisions.unknown-decision-stored',
    area: 'decisions',
    summary:
      'a decision value outside the five (e.g. `zz_maybe_later`) is stored and counted instead of refused with a 4xx',
    caughtBy: 'decisions.schema-mismatch-refused',
  },
  {
    id: 'decisions.missing-occurred-at-stamped',
    area: 'decisions',
    summary:
      'a decision without `occurred_at` is stored, stamped with the time received, instead of refused with a 4xx',
    caughtBy: 'decisions.schema-mismatch-refused',
  },
  {
    id: 'decisions.accepted-always-zero',
    area: 'decisions',
    summary: 'the decisions response says `accepted: 0` even for decisions it stored',
    caughtBy: 'decisions.response-schema',
  },
  {
    id: 'decisions.response-missing-duplicates',
    area: 'decisions',
    summary: 'the decisions response lacks `duplicates`',
    caughtBy: 'decisions.response-schema',
  },
  {
    id: 'decisions.dedupe-ignores-occurred-at',
    area: 'decisions',
    summary: 'decisions are de-duplicated on (candidate, decision) without `occurred_at`',
    caughtBy: 'decisions.new-occurred-at-is-new-entry',
  },
  {
    id: 'decisions.dedupe-keyed-on-occurred-at',
    area: 'decisions',
    summary:
      'decisions are de-duplicated on `occurred_at` alone: two candidates, or two decisions on one candidate, reported at the same instant count as one decision and a duplicate',
    caughtBy: 'decisions.same-occurred-at-distinct-entries',
  },
  {
    id: 'isolation.decisions-user-any-org',
    area: 'decisions',
    summary:
      "decisions' acting-user lookup ignores the organization: a recruiter registered only in another organization of the partner reports decisions (2xx) instead of `404 user_not_found`",
    caughtBy: 'users.other-organization-recruiter-on-reveal-and-decisions',
  },
  {
    id: 'decisions.fixture-unlisted-candidate-refused',
    area: 'decisions',
    summary:
      'a decision on a fixture candidate not listed yet (cert-slow, before it appears) answers 422 instead of being stored',
    caughtBy: 'decisions.fixture-candidate-not-yet-listed-accepted',
  },
  {
    id: 'decisions.null-reason-refused',
    area: 'decisions',
    summary: 'a rejection with `reject_reason: null` answers 422 `invalid_decision`',
    caughtBy: 'decisions.reject-reason-null-accepted',
  },
  {
    id: 'decisions.reason-known-refused',
    area: 'decisions',
    summary: 'the reject reason `known` answers 422 `unknown_reject_reason`',
    caughtBy: 'decisions.every-reject-reason-accepted',
  },
  {
    id: 'decisions.reason-on-non-rejected-accepted',
    area: 'decisions',
    summary: 'a `reject_reason` on a decision other than `rejected` is accepted',
    caughtBy: 'decisions.reason-on-non-rejected-invalid',
  },
  {
    id: 'decisions.unknown-notice-code-refused',
    area: 'decisions',
    summary: '`notices_shown` with a code outside the known list answers 422',
    caughtBy: 'decisions.notices-shown-unknown-codes-accepted',
  },
  {
    id: 'decisions.notices-repeat-refused',
    area: 'decisions',
    summary: '`notices_shown` repeating a code already stored for the run answers 409',
    caughtBy: 'decisions.notices-shown-unknown-codes-accepted',
  },
  {
    id: 'decisions.unknown-run-accepted',
    area: 'decisions',
    summary: 'decisions on an unknown run answer 2xx (nothing stored) instead of 404 `run_not_found`',
    caughtBy: 'decisions.unknown-run-404',
  },
  {
    id: 'decisions.unknown-user-accepted',
    area: 'decisions',
    summary: 'decisions do not check that the acting user is registered',
    caughtBy: 'decisions.unknown-user-404',
  },
  {
    id: 'decisions.other-org-403',
    area: 'decisions',
    summary: "decisions on another organization's run answer 403 instead of 404 `run_not_found`",
    caughtBy: 'decisions.other-organization-run-404',
  },
  {
    id: 'decisions.candidate-id-rounded',
    area: 'decisions',
    summary: '`candidate_id` is read as a double, so ids above 2^53 are not found in the run',
    caughtBy: 'decisions.candidate-id-above-2-53',
  },
] as const satisfies readonly FaultDefinition[];
