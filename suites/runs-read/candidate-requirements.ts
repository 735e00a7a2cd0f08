// Each candidate's requirements: one per run requirement, with the 202's index and kind, in index order.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { int, objects } from '../support/json-values.js';
import { show, someOf } from '../support/messages.js';
import { eachRead, realRunCheck, where } from './real-runs.js';

export const CANDIDATE_REQUIREMENTS_CHECKS: CheckDefinition[] = [
  realRunCheck(
    {
      id: 'runs-read.candidate-requirements-complete',
      title: "Each candidate has one requirement per run requirement, with the 202's index and kind",
      spec: [S.candidate, S.candidateRequirement, S.runsStart],
    },
    async (t, v) => {
      // The spec shares the index (and so the requirement, and its kind) with the run's list, not the
      // wording: a server may normalize or localize text per read, so text is not compared.
      const want = v.requirements.map((q) => ({ index: q.index, kind: q.kind }));
      const wantKeys = want.map((q) => show(q)).sort();
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          const got = objects(c.requirements).map((q) => ({ index: q.index, kind: q.kind }));
          const gotKeys = got.map((q) => show(q)).sort();
          const ok = t.expect.that(
            gotKeys.length === wantKeys.length && gotKeys.every((k, i) => k === wantKeys[i]),
            {
              message: `candidate ${show(c.id)} on ${where(r)} has ${got.length} requirements ${someOf(got)}; it has one entry per run requirement, with the index and kind of the run start's ${want.length}: ${someOf(want)}`,
              spec: S.candidate,
              expected: someOf(want),
              received: someOf(got),
            },
            r.res,
          );
          if (!ok) return false;
        }
        return true;
      });
    },
  ),
  realRunCheck(
    {
      id: 'runs-read.candidate-requirements-in-index-order',
      title: "Each candidate's requirements are listed in index order",
      spec: [S.candidate, S.candidateRequirement],
    },
    async (t, v) => {
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          const indexes = objects(c.requirements).map((q) => int(q.index));
          const ascending = indexes.every((x, i) => x !== undefined && (i === 0 || x > indexes[i - 1]!));
          const ok = t.expect.that(
            ascending,
            {
              message: `candidate ${show(c.id)} on ${where(r)} lists its requirements in index order ${someOf(indexes, String)}; they are in index order`,
              spec: S.candidate,
              expected: 'ascending indexes',
              received: someOf(indexes, String),
            },
            r.res,
          );
          if (!ok) return false;
        }
        return true;
      });
    },
  ),
];
