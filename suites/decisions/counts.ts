// What a decisions answer counts: accepted and duplicates, new entries and distinct ones.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import {
  COUNT_WARNS,
  decisionCheck,
  expectCount,
  expectNewEntries,
  expectStored,
  type Item,
  RUN,
  send,
  sendNew,
} from './common.js';

export const COUNT_CHECKS: CheckDefinition[] = [
  decisionCheck(
    {
      id: 'decisions.response-schema',
      title: 'Reporting a decision answers 2xx with integer accepted and duplicates',
      warns: COUNT_WARNS,
      spec: [S.decisions, S.decisionItem],
    },
    RUN.schema,
    async (t, run) => {
      // A fresh occurred_at: never sent before, so it is stored and counted (rule 1).
      await sendNew(
        t,
        run.runId,
        [
          {
            candidate_id: run.ids[0]!,
            decision: 'shortlisted',
            occurred_at: t.setup.occurredAt(),
            note: 'strong backend profile',
          },
        ],
        'report a decision',
        'one decision with an occurred_at never sent before',
      );
    },
  ),
  decisionCheck(
    {
      id: 'decisions.duplicates-counted',
      title: 'Two new decisions count accepted 2, duplicates 0; the same batch again counts duplicates 2',
      warns: COUNT_WARNS,
      spec: [S.decisions, S.decisionItem, S.sandbox],
    },
    RUN.duplicates,
    async (t, run) => {
      const batch: Item[] = [
        { candidate_id: run.ids[0]!, decision: 'shortlisted', occurred_at: t.setup.occurredAt() },
        { candidate_id: run.ids[1] ?? run.ids[0]!, decision: 'contacted', occurred_at: t.setup.occurredAt() },
      ];
      const first = await send(t, run.runId, batch, 'report two decisions');
      const a = expectStored(t, first);
      if (!a) return;
      expectNewEntries(t, first, a, 2, 'two decisions never sent before');
      const again = await send(t, run.runId, batch, 'report the same two decisions again');
      const b = expectStored(t, again);
      if (!b) return;
      // Whether `accepted` also counts the repeats is not shown; `duplicates` counts them.
      expectCount(t, again, b, 'duplicates', 2, 'the same two decisions (same occurred_at) sent again');
    },
  ),
  decisionCheck(
    {
      id: 'decisions.new-occurred-at-is-new-entry',
      title: 'The same decision on the same candidate with a new occurred_at is a new entry (accepted 1, duplicates 0)',
      warns: COUNT_WARNS,
      spec: [S.decisions, S.decisionItem],
    },
    RUN.newEntry,
    async (t, run) => {
      const id = run.ids[0]!;
      const first = await send(
        t,
        run.runId,
        [
          {
            candidate_id: id,
            decision: 'interviewing',
            occurred_at: t.setup.occurredAt(),
            note: 'first interview booked',
          },
        ],
        'report a decision',
      );
      if (!expectStored(t, first)) return;
      const later = await send(
        t,
        run.runId,
        [
          {
            candidate_id: id,
            decision: 'interviewing',
            occurred_at: t.setup.occurredAt(),
            note: 'second interview booked',
          },
        ],
        'the same decision, a later occurred_at',
      );
      const b = expectStored(t, later);
      if (!b) return;
      const why = 'the same (candidate, decision) with a new occurred_at';
      expectNewEntries(t, later, b, 1, why);
    },
  ),
  decisionCheck(
    {
      id: 'decisions.same-occurred-at-distinct-entries',
      title:
        'Decisions reported at the same occurred_at on two candidates, and two decisions on one candidate, are distinct entries (all accepted, duplicates 0)',
      warns: COUNT_WARNS,
      spec: [S.decisions, S.decisionItem],
    },
    // The shared errors run: its other checks' entries carry occurred_at values of their own.
    RUN.errors,
    async (t, run) => {
      // One instant for the whole batch: the key is (run, candidate, decision, occurred_at), so only
      // the candidate or the decision tells these entries apart.
      const at = t.setup.occurredAt();
      const [a, b] = [run.ids[0]!, run.ids[1]];
      const batch: Item[] = [
        { candidate_id: a, decision: 'shortlisted', occurred_at: at },
        { candidate_id: a, decision: 'contacted', occurred_at: at },
        ...(b !== undefined ? [{ candidate_id: b, decision: 'shortlisted', occurred_at: at }] : []),
      ];
      const res = await send(t, run.runId, batch, `report ${batch.length} decisions with the same occurred_at ${at}`);
      const body = expectStored(t, res);
      if (!body) return;
      const why = `${batch.length} decisions sharing occurred_at ${at} (${b !== undefined ? 'two decisions on one candidate, and one on another candidate' : 'two decisions on the one listed candidate'})`;
      expectNewEntries(t, res, body, batch.length, why);
    },
  ),
];
