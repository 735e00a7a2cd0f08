// A refused batch stores nothing, and a body that does not match the schema is refused.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { expectErrorEnvelope } from '../support/error-answers.js';
import { int } from '../support/json-values.js';
import { COUNT_WARNS, decisionCheck, expectCount, expectStored, type Item, RUN, send } from './common.js';

export const REFUSED_BATCH_CHECKS: CheckDefinition[] = [
  decisionCheck(
    {
      id: 'decisions.rejection-stores-nothing',
      title: 'A batch refused with 422 stores nothing: its good decision sent alone afterwards is new (duplicates 0)',
      warns: COUNT_WARNS,
      spec: [S.decisions],
    },
    RUN.storesNothing,
    async (t, run) => {
      const good: Item = { candidate_id: run.ids[0]!, decision: 'hired', occurred_at: t.setup.occurredAt() };
      const bad: Item = {
        candidate_id: run.ids[1] ?? run.ids[0]!,
        decision: 'rejected',
        reject_reason: 'zz_not_a_reason',
        occurred_at: t.setup.occurredAt(),
      };
      const refused = await send(t, run.runId, [good, bad], 'a batch with one good and one bad decision');
      if (!t.expect.status(refused, 422, S.decisions)) return;
      const alone = await send(t, run.runId, [good], 'the good decision alone');
      const b = expectStored(t, alone);
      if (!b) return;
      const why =
        'the good decision of a batch refused with 422, sent again alone (any 422 means nothing of the request was stored)';
      expectCount(t, alone, b, 'duplicates', 0, why);
      expectCount(t, alone, b, 'accepted', 1, why);
    },
  ),
  decisionCheck(
    {
      id: 'decisions.schema-mismatch-refused',
      title:
        'An unknown decision value, a missing occurred_at or a candidate_id written as a string is refused with a 4xx and the error envelope; after a 422 the corrected batch is stored whole',
      warns: COUNT_WARNS,
      spec: [S.decisions, S.decisionItem, S.errors],
    },
    RUN.mismatch,
    async (t, run) => {
      const [a, b] = [run.ids[0]!, run.ids[1] ?? run.ids[0]!];
      const good1: Item = { candidate_id: a, decision: 'shortlisted', occurred_at: t.setup.occurredAt() };
      const unknownValue = { candidate_id: b, decision: 'zz_maybe_later', occurred_at: t.setup.occurredAt() };
      const good2: Item = { candidate_id: a, decision: 'contacted', occurred_at: t.setup.occurredAt() };
      const noTime = { candidate_id: b, decision: 'interviewing' };
      const good3: Item = { candidate_id: a, decision: 'interviewing', occurred_at: t.setup.occurredAt() };
      // A string where the table gives integer int64: a service that coerces it stores the decision.
      const idAsText = { candidate_id: b.toString(), decision: 'hired', occurred_at: t.setup.occurredAt() };
      // A schema mismatch is a 4xx whose error code v1 leaves open: judged by status and envelope only.
      const refusals: Array<{ res: ApiResponse; what: string }> = [];
      for (const [batch, what] of [
        [[good1, unknownValue], 'a decision value outside shortlisted, rejected, contacted, interviewing, hired'],
        [[good2, noTime], 'a decision without the required occurred_at'],
        [
          [good3, idAsText],
          `candidate_id written as the string "${b}" (the table gives integer int64; a 2xx read it by coercion)`,
        ],
      ] as const) {
        const res = await t.api.post(
          `/runs/${encodeURIComponent(run.runId)}/decisions`,
          { acting_user_external_id: (await t.setup.user()).externalId, decisions: batch },
          { label: `a batch with ${what}` },
        );
        const refused = t.expect.that(
          res.status >= 400 && res.status <= 499,
          {
            message: `a batch with ${what} answered ${res.status}; it does not match the Decision schema, and a schema mismatch gives a 4xx (see ${S.decisionItem})`,
            spec: S.errors,
            expected: '4xx',
            received: String(res.status),
          },
          res,
        );
        if (!refused) return;
        expectErrorEnvelope(t, res, `a batch with ${what}`);
        refusals.push({ res, what });
      }
      // Rule 2: any 422 stored nothing, so every item of the corrected batches is new. Another 4xx
      // makes no such promise about its good item (at most one duplicate each).
      const open = refusals.filter((r) => r.res.status !== 422).length;
      const fixed = [
        good1,
        { ...unknownValue, decision: 'shortlisted' },
        good2,
        { ...noTime, occurred_at: t.setup.occurredAt() },
        good3,
        { ...idAsText, candidate_id: b },
      ] as Item[];
      const again = await send(t, run.runId, fixed, 'the corrected batches, resent whole');
      const body = expectStored(t, again);
      if (!body) return;
      const accepted = Number(int(body.accepted) ?? -1n);
      t.expect.that(
        accepted >= fixed.length - open && accepted <= fixed.length,
        {
          message: `the corrected batches (${fixed.length} decisions, ${refusals.length - open} of their batches refused with 422) counted accepted ${String(body.accepted)}; any 422 means nothing of the request was stored, so each decision is new (rule 2)`,
          spec: S.decisions,
          expected: open === 0 ? fixed.length : `${fixed.length - open} to ${fixed.length}`,
          received: String(body.accepted),
          pointer: '/accepted',
        },
        again,
      );
    },
  ),
];
