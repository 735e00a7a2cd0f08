// Starting a run (Endpoints › POST /runs, Requirement, RequirementIssue). Refusals and answers act at their
// points of routes/runs-start.ts, requirement rules at the `requirementRules` point; what a refused or
// repeated start stores is switched in routes/runs-start.ts.
import { reword, edited } from './reshape.js';
import { ApiError } from '../api-error.js';
import type { FaultDefinition } from './types.js';
import { onAnswer, onBody, onRefusal } from './points.js';

export const runsStartFaults = [
  {
    id: 'runs-start.no-whitespace-collapse',
    area: 'runs-start',
    summary: 'requirement text is returned untrimmed, whitespace not collapsed',
    caughtBy: 'runs-start.requirements-trimmed-and-collapsed',
    acts: { requirementRules: (r) => ({ ...r, collapseWhitespace: false }) },
  },
  {
    id: 'runs-start.drops-requirement',
    area: 'runs-start',
    summary: 'the last submitted `nice` requirement is silently dropped',
    caughtBy: 'runs-start.requirements-kept-in-order',
    acts: { requirementRules: (r) => ({ ...r, keepsEvery: false }) },
  },
  {
    id: 'runs-start.issue-index-one-based',
    area: 'runs-start',
    summary: 'requirement issue `index` is 1-based',
    caughtBy: 'runs-start.issue-index-is-position',
    acts: { requirementRules: (r) => ({ ...r, firstIndex: 1 }) },
  },
  {
    id: 'runs-start.not-array-index-zero',
    area: 'runs-start',
    summary: '`requirements` that is not an array gives index 0 instead of -1',
    caughtBy: 'runs-start.requirements-not-array',
    acts: { requirementRules: (r) => ({ ...r, notArrayIndex: 0 }) },
  },
  {
    id: 'runs-start.too-many-musts-on-first',
    area: 'runs-start',
    summary: '`too_many_musts` is put on the first must instead of the one that exceeds the cap',
    caughtBy: 'runs-start.too-many-musts',
    acts: { requirementRules: (r) => ({ ...r, tooManyMustsOn: 'first' }) },
  },
  {
    id: 'runs-start.too-long-at-300',
    area: 'runs-start',
    summary: '`too_long` already at 300 characters',
    caughtBy: 'runs-start.too-long',
    acts: { requirementRules: (r) => ({ ...r, tooLongAt: 300 }) },
  },
  {
    id: 'runs-start.title-not-appended',
    area: 'runs-start',
    summary: 'the job title is not appended as the last `must`',
    caughtBy: 'runs-start.job-title-appended',
    acts: { requirementRules: (r) => ({ ...r, titleAppended: false }) },
  },
  {
    id: 'runs-start.duplicate-case-sensitive',
    area: 'runs-start',
    summary: 'duplicates are compared without case-folding',
    caughtBy: 'runs-start.duplicate',
    acts: { requirementRules: (r) => ({ ...r, duplicatesFolded: false }) },
  },
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
    acts: {
      answer: onAnswer('runs-start', (r) =>
        edited(r, (b) => {
          b.status = 'queued';
        }),
      ),
    },
  },
  {
    id: 'runs-start.origin-not-partner',
    area: 'runs-start',
    summary: 'requirements the partner submitted come back with origin `submitted` instead of `partner`',
    caughtBy: 'runs-start.submitted-origin-partner',
    acts: { requirementRules: (r) => ({ ...r, submittedOrigin: 'submitted' }) },
  },
  {
    id: 'runs-start.added-requirements-origin-partner',
    area: 'runs-start',
    summary:
      "every requirement of a run start's answer is marked origin `partner`, the appended job title and a fixture's own list included",
    caughtBy: 'runs-start.unsent-requirement-origin-not-partner',
    acts: {
      answer: onAnswer('runs-start', (r) =>
        r.status === 202
          ? edited(r, (b) => {
              if (Array.isArray(b.requirements))
                b.requirements = b.requirements.map((x: unknown) =>
                  x !== null && typeof x === 'object' ? { ...x, origin: 'partner' } : x,
                );
            })
          : r,
      ),
    },
  },
  {
    id: 'runs-start.derived-requirements-origin-partner',
    area: 'runs-start',
    summary:
      'requirements derived from the job description (a real run started without `requirements`) are marked origin `partner`; the appended title and submitted requirements are marked as before',
    caughtBy: 'runs-start.unsent-requirement-origin-not-partner',
    acts: { requirementRules: (r) => ({ ...r, derivedOrigin: 'partner' }) },
  },
  {
    id: 'runs-start.target-count-string-coerced',
    area: 'runs-start',
    summary: 'a `target_count` written as a string of digits (`"1"`) is read as the integer and the run started',
    caughtBy: 'runs-start.type-mismatch-refused',
    // The same defect the exploration's sweep finds on every certification, whatever the seed.
    alsoCaughtBy: ['explore.runs-start.schema-mismatch-answered-4xx'],
    acts: {
      body: onBody('runs-start', (b) =>
        typeof b.target_count === 'string' && /^[0-9]+$/.test(b.target_count)
          ? { ...b, target_count: Number(b.target_count) }
          : b,
      ),
    },
  },
  {
    id: 'runs-start.null-requirements-as-absent',
    area: 'runs-start',
    summary: '`requirements: null` is read as omitted and the run started, instead of a 4xx',
    caughtBy: 'runs-start.type-mismatch-refused',
    acts: {
      body: onBody('runs-start', (b) => {
        if (b.requirements !== null) return b;
        const { requirements: _null, ...rest } = b;
        return rest;
      }),
    },
  },
  {
    id: 'runs-start.title-appended-twice',
    area: 'runs-start',
    summary: 'the job title is appended even when a submitted requirement is the title',
    caughtBy: 'runs-start.job-title-not-duplicated',
    acts: { requirementRules: (r) => ({ ...r, submittedTitleRecognized: false }) },
  },
  {
    id: 'runs-start.whitespace-text-accepted',
    area: 'runs-start',
    summary: 'a whitespace-only requirement text is accepted instead of refused with `empty_text`',
    caughtBy: 'runs-start.empty-text',
    acts: { requirementRules: (r) => ({ ...r, blankIsEmpty: false }) },
  },
  {
    id: 'runs-start.invalid-kind-accepted',
    area: 'runs-start',
    summary: 'a `kind` other than must or nice is accepted as `nice` instead of refused with `invalid_kind`',
    caughtBy: 'runs-start.invalid-kind',
    acts: { requirementRules: (r) => ({ ...r, kindChecked: false }) },
  },
  {
    id: 'runs-start.title-not-counted',
    area: 'runs-start',
    summary: "the job title does not count as a must: three submitted musts are accepted on the partner's own job",
    caughtBy: 'runs-start.too-many-musts-with-job-title',
    acts: { requirementRules: (r) => ({ ...r, titleCounted: false }) },
  },
  {
    id: 'runs-start.location-accepted',
    area: 'runs-start',
    summary: "a requirement that is a place of the job's location_text is accepted",
    caughtBy: 'runs-start.location-as-requirement',
    acts: { requirementRules: (r) => ({ ...r, locationRefused: false }) },
  },
  {
    id: 'runs-start.no-short-term-warning',
    area: 'runs-start',
    summary: 'a term shorter than 3 characters gets no `short_term_may_be_dropped` warning',
    caughtBy: 'runs-start.warns-short-term',
    acts: { requirementRules: (r) => ({ ...r, shortTermWarning: false }) },
  },
  {
    id: 'runs-start.no-years-band-warning',
    area: 'runs-start',
    summary: 'a bounded years range gets no `years_band_ceiling` warning',
    caughtBy: 'runs-start.warns-years-band-ceiling',
    acts: { requirementRules: (r) => ({ ...r, yearsBandWarning: false }) },
  },
  {
    id: 'runs-start.no-unverifiable-warning',
    area: 'runs-start',
    summary: 'a must that profiles rarely state gets no `unverifiable_must` warning',
    caughtBy: 'runs-start.warns-unverifiable-must',
    acts: { requirementRules: (r) => ({ ...r, unverifiableWarning: false }) },
  },
  {
    id: 'runs-start.message-he-in-english',
    area: 'runs-start',
    summary: 'requirement issues carry the English sentence in `message_he`',
    caughtBy: 'runs-start.issue-messages-bilingual',
    acts: { requirementRules: (r) => ({ ...r, hebrewMessages: false }) },
  },
  {
    id: 'runs-start.unknown-job-not-found-code',
    area: 'runs-start',
    summary: 'a run start for an unknown job answers 404 `not_found` instead of `job_not_found`',
    caughtBy: 'runs-start.job-not-found',
    acts: {
      refusal: onRefusal('unknown-job', (e) => (e ? reword(e, { code: 'not_found' }) : e)),
    },
  },
  {
    id: 'runs-start.unknown-user-422',
    area: 'runs-start',
    summary: 'a run start by an unregistered acting user answers 422 `invalid_user` instead of 404 `user_not_found`',
    caughtBy: 'runs-start.user-not-found',
    acts: {
      refusal: onRefusal({ cause: 'unknown-user', route: 'runs-start' }, (e) =>
        e ? new ApiError(422, 'invalid_user') : e,
      ),
    },
  },
  {
    id: 'runs-start.sandbox-limit-without-max',
    area: 'runs-start',
    summary: '`422 sandbox_limit` lacks `max_target_count`',
    caughtBy: 'runs-start.sandbox-limit',
    acts: {
      refusal: onRefusal('sandbox-limit', (e) => (e ? reword(e, { extra: {} }) : e)),
    },
  },
  {
    id: 'runs-start.target-count-zero-accepted',
    area: 'runs-start',
    summary: 'target_count 0 (or below) is accepted and starts a run',
    caughtBy: 'runs-start.target-count-in-range',
    acts: {
      refusal: onRefusal('target-count-below-one', () => undefined),
    },
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
