import type { FaultDefinition } from './types.js';

/** Faults of starting a run (routes/runs-start.ts, requirements.ts): each breaks one rule of POST /runs. */
export const runsStartFaults = [
  {
    id: 'runs-start.identical-start-same-run',
    area: 'runs-start',
    summary:
      'a fixture start identical to an earlier one answers 202 with the earlier run_id instead of starting a new run',
    caughtBy: 'runs-start.not-idempotent',
  },
  {
    id: 'runs-start.status-not-running',
    area: 'runs-start',
    summary: 'the 202 of an accepted run start says `status: queued` instead of `running`',
    caughtBy: 'runs-start.accepted-response-shape',
  },
  {
    id: 'runs-start.origin-not-partner',
    area: 'runs-start',
    summary: 'requirements the partner submitted come back with origin `submitted` instead of `partner`',
    caughtBy: 'runs-start.submitted-origin-partner',
  },
  {
    id: 'runs-start.title-appended-twice',
    area: 'runs-start',
    summary: 'the job title is appended even when a submitted requirement is the title',
    caughtBy: 'runs-start.job-title-not-duplicated',
  },
  {
    id: 'runs-start.whitespace-text-accepted',
    area: 'runs-start',
    summary: 'a whitespace-only requirement text is accepted instead of refused with `empty_text`',
    caughtBy: 'runs-start.empty-text',
  },
  {
    id: 'runs-start.invalid-kind-accepted',
    area: 'runs-start',
    summary: 'a `kind` other than must or nice is accepted as `nice` instead of refused with `invalid_kind`',
    caughtBy: 'runs-start.invalid-kind',
  },
  {
    id: 'runs-start.title-not-counted',
    area: 'runs-start',
    summary: "the job title does not count as a must: three submitted musts are accepted on the partner's own job",
    caughtBy: 'runs-start.too-many-musts-with-job-title',
  },
  {
    id: 'runs-start.location-accepted',
    area: 'runs-start',
    summary: "a requirement that is a place of the job's location_text is accepted",
    caughtBy: 'runs-start.location-as-requirement',
  },
  {
    id: 'runs-start.no-short-term-warning',
    area: 'runs-start',
    summary: 'a term shorter than 3 characters gets no `short_term_may_be_dropped` warning',
    caughtBy: 'runs-start.warns-short-term',
  },
  {
    id: 'runs-start.no-years-band-warning',
    area: 'runs-start',
    summary: 'a bounded years range gets no `years_band_ceiling` warning',
    caughtBy: 'runs-start.warns-years-band-ceiling',
  },
  {
    id: 'runs-start.no-unverifiable-warning',
    area: 'runs-start',
    summary: 'a must that profiles rarely state gets no `unverifiable_must` warning',
    caughtBy: 'runs-start.warns-unverifiable-must',
  },
  {
    id: 'runs-start.message-he-in-english',
    area: 'runs-start',
    summary: 'requirement issues carry the English sentence in `message_he`',
    caughtBy: 'runs-start.issue-messages-bilingual',
  },
  {
    id: 'runs-start.unknown-job-not-found-code',
    area: 'runs-start',
    summary: 'a run start for an unknown job answers 404 `not_found` instead of `job_not_found`',
    caughtBy: 'runs-start.job-not-found',
  },
  {
    id: 'runs-start.unknown-user-422',
    area: 'runs-start',
    summary: 'a run start by an unregistered acting user answers 422 `invalid_user` instead of 404 `user_not_found`',
    caughtBy: 'runs-start.user-not-found',
  },
  {
    id: 'runs-start.sandbox-limit-without-max',
    area: 'runs-start',
    summary: '`422 sandbox_limit` lacks `max_target_count`',
    caughtBy: 'runs-start.sandbox-limit',
  },
  {
    id: 'runs-start.target-count-zero-accepted',
    area: 'runs-start',
    summary: 'target_count 0 (or below) is accepted and starts a run',
    caughtBy: 'runs-start.target-count-in-range',
  },
  {
    id: 'runs-start.rejected-start-runs-and-fails',
    area: 'runs-start',
    summary:
      'a `422 requirements_rejected` (answered as usual, no run_id) still creates a run of the job, which fails at once and emits `run_failed`',
    caughtBy: 'runs-start.rejection-starts-nothing',
  },
  {
    id: 'runs-start.rejected-run-created',
    area: 'runs-start',
    summary: 'a `422 requirements_rejected` still creates the run and names it in `run_id`',
    caughtBy: 'runs-start.rejection-starts-nothing',
  },
] as const satisfies readonly FaultDefinition[];
