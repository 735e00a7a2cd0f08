// reject_reason: null and each of the seven reasons accepted, others refused, and none on a decision
// that is not a rejection.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { rejectReasons } from '../../src/schema/reject-reasons.js';
import { S } from '../../src/spec/sections.js';
import { arr, obj } from '../support/json-values.js';
import { COUNT_WARNS, decisionCheck, type Item, RUN, send, sendNew } from './common.js';

/** The spec's reject reasons (schemas/decision.schema.json). */
const REJECT_REASONS = rejectReasons();

/** One decision with a reject_reason on the run's first candidate. */
function sendFirstWith(
  t: CheckContext,
  run: { runId: string; ids: readonly bigint[] },
  decision: string,
  rejectReason: string,
  label: string,
): Promise<ApiResponse> {
  const item = { candidate_id: run.ids[0]!, decision, reject_reason: rejectReason, occurred_at: t.setup.occurredAt() };
  return send(t, run.runId, [item], label);
}

export const REJECT_REASON_CHECKS: CheckDefinition[] = [
  decisionCheck(
    {
      id: 'decisions.reject-reason-null-accepted',
      title: 'A rejection with reject_reason null (no reason picked) is accepted',
      warns: COUNT_WARNS,
      spec: [S.decisionItem, S.decisions],
    },
    RUN.nullReason,
    async (t, run) => {
      await sendNew(
        t,
        run.runId,
        [{ candidate_id: run.ids[0]!, decision: 'rejected', reject_reason: null, occurred_at: t.setup.occurredAt() }],
        'reject with reject_reason null',
        'a rejection with reject_reason null, never sent before',
      );
    },
  ),
  decisionCheck(
    {
      id: 'decisions.every-reject-reason-accepted',
      title: 'Each of the seven reject reasons is accepted on a rejected decision',
      warns: COUNT_WARNS,
      spec: [S.decisionItem, S.decisions],
    },
    RUN.everyReason,
    async (t, run) => {
      const batch: Item[] = REJECT_REASONS.map((reason, i) => ({
        candidate_id: run.ids[i % run.ids.length]!,
        decision: 'rejected',
        reject_reason: reason,
        occurred_at: t.setup.occurredAt(),
      }));
      // One decision per reason: all of them counted in accepted.
      await sendNew(
        t,
        run.runId,
        batch,
        'reject once with every reason',
        `seven rejections, one per allowed reason (${REJECT_REASONS.join(', ')})`,
      );
    },
  ),
  decisionCheck(
    {
      id: 'decisions.unknown-reject-reason',
      title:
        'A reject_reason outside the list answers 422 unknown_reject_reason with allowed[] equal to the seven reasons',
      spec: [S.decisions, S.decisionItem, S.byEndpoint],
    },
    RUN.errors,
    async (t, run) => {
      const res = await sendFirstWith(t, run, 'rejected', 'zz_not_a_reason', 'reject with an unknown reason');
      if (!t.expect.error(res, 422, 'unknown_reject_reason', S.byEndpoint)) return;
      t.expect.schema(res.json, 'unknown-reject-reason', S.byEndpoint, res);
      const allowed = arr(obj(res.json)?.allowed).filter((x): x is string => typeof x === 'string');
      t.expect.equal(
        [...new Set(allowed)].sort(),
        [...REJECT_REASONS].sort(),
        'allowed[] of unknown_reject_reason (as a set) against the complete allowed list',
        S.decisionItem,
        res,
      );
    },
  ),
  decisionCheck(
    {
      id: 'decisions.reason-on-non-rejected-invalid',
      title: 'A reject_reason on a decision other than rejected answers 422 invalid_decision',
      spec: [S.decisions, S.decisionItem, S.byEndpoint],
    },
    RUN.errors,
    async (t, run) => {
      const res = await sendFirstWith(t, run, 'shortlisted', 'location', 'shortlist with a reject_reason');
      t.expect.error(res, 422, 'invalid_decision', S.decisions);
    },
  ),
];
