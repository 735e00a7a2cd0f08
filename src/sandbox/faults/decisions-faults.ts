// Reporting decisions and shown notices (Endpoints › POST /runs/{run_id}/decisions, Resources and their
// fields › Decision (request item)). They act at the refusal, id, body, decision-key and answer points of
// routes/decisions.ts; one that stores part of a refused batch is switched there.
import { reword, edited } from './reshape.js';
import { ApiError } from '../api-error.js';
import { isRecord } from '../json.js';
import { REJECT_REASONS } from '../decision-vocabulary.js';
import type { FaultDefinition } from './types.js';
import { KNOWN_NOTICE_CODES } from '../notice-codes.js';
import { onAnswer, onBody, onId, onRefusal } from './points.js';

export const decisionsFaults = [
  {
    id: 'decisions.rejection-stores-part',
    area: 'decisions',
    summary: 'a 422 batch still stores the decisions before the bad one',
    caughtBy: 'decisions.rejection-stores-nothing',
    alsoCaughtBy: ['decisions.schema-mismatch-refused', 'explore.decisions.refused-write-stored-nothing'],
  },
  {
    id: 'decisions.duplicates-miscounted',
    area: 'decisions',
    summary: 'repeated decisions are counted in `accepted` instead of `duplicates`',
    caughtBy: 'decisions.duplicates-counted',
    acts: {
      answer: onAnswer('decisions', (r, f) =>
        f.accepted !== undefined
          ? edited(r, (b) => {
              b.accepted = (f.accepted ?? 0) + (f.duplicates ?? 0);
              b.duplicates = 0;
            })
          : r,
      ),
    },
  },
  {
    id: 'decisions.allowed-incomplete',
    area: 'decisions',
    summary: '`allowed[]` of `unknown_reject_reason` misses `known`',
    caughtBy: 'decisions.unknown-reject-reason',
    acts: {
      refusal: onRefusal('unknown-reject-reason', (e) =>
        e ? reword(e, { extra: { allowed: REJECT_REASONS.filter((r) => r !== 'known') } }) : e,
      ),
    },
  },
  {
    id: 'decisions.unknown-decision-stored',
    area: 'decisions',
    summary:
      'a decision value outside the five (e.g. `zz_maybe_later`) is stored and counted instead of refused with a 4xx',
    caughtBy: 'decisions.schema-mismatch-refused',
    acts: {
      refusal: onRefusal('unknown-decision', () => undefined),
    },
  },
  {
    id: 'decisions.missing-occurred-at-stamped',
    area: 'decisions',
    summary:
      'a decision without `occurred_at` is stored, stamped with the time received, instead of refused with a 4xx',
    caughtBy: 'decisions.schema-mismatch-refused',
    acts: {
      body: onBody('decisions', (b) =>
        Array.isArray(b.decisions)
          ? {
              ...b,
              decisions: b.decisions.map((d) =>
                isRecord(d) && d.occurred_at === undefined ? { ...d, occurred_at: new Date().toISOString() } : d,
              ),
            }
          : b,
      ),
    },
  },
  {
    id: 'decisions.accepted-always-zero',
    area: 'decisions',
    summary: 'the decisions response says `accepted: 0` even for decisions it stored',
    caughtBy: 'decisions.response-schema',
    acts: {
      answer: onAnswer('decisions', (r) =>
        edited(r, (b) => {
          b.accepted = 0;
        }),
      ),
    },
  },
  {
    id: 'decisions.response-missing-duplicates',
    area: 'decisions',
    summary: 'the decisions response lacks `duplicates`',
    caughtBy: 'decisions.response-schema',
    acts: {
      answer: onAnswer('decisions', (r) =>
        edited(r, (b) => {
          delete b.duplicates;
        }),
      ),
    },
  },
  {
    id: 'decisions.dedupe-ignores-occurred-at',
    area: 'decisions',
    summary: 'decisions are de-duplicated on (candidate, decision) without `occurred_at`',
    caughtBy: 'decisions.new-occurred-at-is-new-entry',
    acts: {
      decisionKey: (_key, f) => `${f.candidateId}|${f.decision}`,
    },
  },
  {
    id: 'decisions.dedupe-keyed-on-occurred-at',
    area: 'decisions',
    summary:
      'decisions are de-duplicated on `occurred_at` alone: two candidates, or two decisions on one candidate, reported at the same instant count as one decision and a duplicate',
    caughtBy: 'decisions.same-occurred-at-distinct-entries',
    acts: {
      decisionKey: (_key, f) => f.occurredAt,
    },
  },
  {
    id: 'isolation.decisions-user-any-org',
    area: 'decisions',
    summary:
      "decisions' acting-user lookup ignores the organization: a recruiter registered only in another organization of the partner reports decisions (2xx) instead of `404 user_not_found`",
    caughtBy: 'users.other-organization-recruiter-on-reveal-and-decisions',
    acts: {
      refusal: onRefusal({ cause: 'unknown-user', route: 'decisions' }, (e, f) => (f.elsewhere() ? undefined : e)),
    },
  },
  {
    id: 'decisions.fixture-unlisted-candidate-refused',
    area: 'decisions',
    summary:
      'a decision on a fixture candidate not listed yet (cert-slow, before it appears) answers 422 instead of being stored',
    caughtBy: 'decisions.fixture-candidate-not-yet-listed-accepted',
    acts: {
      refusal: onRefusal('admitted', (e, f) =>
        f.listedSoFar && !f.listedSoFar()
          ? new ApiError(422, 'invalid_decision', { reason: 'candidate not in run' })
          : e,
      ),
    },
  },
  {
    id: 'decisions.null-reason-refused',
    area: 'decisions',
    summary: 'a rejection with `reject_reason: null` answers 422 `invalid_decision`',
    caughtBy: 'decisions.reject-reason-null-accepted',
    acts: {
      refusal: onRefusal('admitted', (e, f) =>
        f.item?.reject_reason === null
          ? new ApiError(422, 'invalid_decision', { reason: 'reject_reason required' })
          : e,
      ),
    },
  },
  {
    id: 'decisions.reason-known-refused',
    area: 'decisions',
    summary: 'the reject reason `known` answers 422 `unknown_reject_reason`',
    caughtBy: 'decisions.every-reject-reason-accepted',
    acts: {
      refusal: onRefusal('admitted', (e, f) =>
        f.item?.reject_reason === 'known'
          ? new ApiError(422, 'unknown_reject_reason', { allowed: [...REJECT_REASONS] })
          : e,
      ),
    },
  },
  {
    id: 'decisions.reason-on-non-rejected-accepted',
    area: 'decisions',
    summary: 'a `reject_reason` on a decision other than `rejected` is accepted',
    caughtBy: 'decisions.reason-on-non-rejected-invalid',
    acts: {
      refusal: onRefusal('reason-without-rejection', () => undefined),
    },
  },
  {
    id: 'decisions.unknown-notice-code-refused',
    area: 'decisions',
    summary: '`notices_shown` with a code outside the known list answers 422',
    caughtBy: 'decisions.notices-shown-unknown-codes-accepted',
    acts: {
      refusal: onRefusal('admitted', (e, f) =>
        f.noticesShown?.some((c) => !KNOWN_NOTICE_CODES.includes(c))
          ? new ApiError(422, 'invalid_request', { field: 'notices_shown' })
          : e,
      ),
    },
  },
  {
    id: 'decisions.notices-repeat-refused',
    area: 'decisions',
    summary: '`notices_shown` repeating a code already stored for the run answers 409',
    caughtBy: 'decisions.notices-shown-unknown-codes-accepted',
    acts: {
      refusal: onRefusal('admitted', (e, f) =>
        (f.noticesAlreadyShown?.length ?? 0) > 0 ? new ApiError(409, 'notice_already_reported') : e,
      ),
    },
  },
  {
    id: 'decisions.unknown-run-accepted',
    area: 'decisions',
    summary: 'decisions on an unknown run answer 2xx (nothing stored) instead of 404 `run_not_found`',
    caughtBy: 'decisions.unknown-run-404',
    acts: {
      refusal: onRefusal({ cause: 'run-not-found', route: 'decisions' }, (e, f) =>
        e?.code === 'run_not_found' && !f.foreign ? undefined : e,
      ),
    },
  },
  {
    id: 'decisions.unknown-user-accepted',
    area: 'decisions',
    summary: 'decisions do not check that the acting user is registered',
    caughtBy: 'decisions.unknown-user-404',
    acts: {
      refusal: onRefusal({ cause: 'unknown-user', route: 'decisions' }, () => undefined),
    },
  },
  {
    id: 'decisions.other-org-403',
    area: 'decisions',
    summary: "decisions on another organization's run answer 403 instead of 404 `run_not_found`",
    caughtBy: 'decisions.other-organization-run-404',
    acts: {
      refusal: onRefusal({ cause: 'run-not-found', route: 'decisions' }, (e, f) =>
        e && f.foreign ? new ApiError(403, 'forbidden') : e,
      ),
    },
  },
  {
    id: 'decisions.candidate-id-rounded',
    area: 'decisions',
    summary: '`candidate_id` is read as a double, so ids above 2^53 are not found in the run',
    caughtBy: 'decisions.candidate-id-above-2-53',
    acts: {
      id: onId('decisions', (id) => BigInt(Number(id))),
    },
  },
  {
    id: 'decisions.candidate-id-string-coerced',
    area: 'decisions',
    summary: 'a `candidate_id` written as a string of digits is read as the integer and the decision stored',
    caughtBy: 'decisions.schema-mismatch-refused',
    acts: {
      body: onBody('decisions', (b) => {
        if (!Array.isArray(b.decisions)) return b;
        const decisions = b.decisions.map((d) =>
          isRecord(d) && typeof d.candidate_id === 'string' && /^[0-9]+$/.test(d.candidate_id)
            ? { ...d, candidate_id: BigInt(d.candidate_id) }
            : d,
        );
        return { ...b, decisions };
      }),
    },
  },
] as const satisfies readonly FaultDefinition[];
