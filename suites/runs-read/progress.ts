// progress and the candidate list from one read of a run to the next: confirmed never decreases,
// fits the target, and a listed candidate stays listed.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { objects } from '../support/json-values.js';
import {
  type Counted,
  eachRead,
  expectNeverDecreases,
  idKey,
  progressOf,
  type Read,
  readsCheck,
  realRunCheck,
  where,
} from './real-runs.js';

export const PROGRESS_CHECKS: CheckDefinition[] = [
  readsCheck(
    {
      id: 'runs-read.progress-monotonic',
      title:
        'progress.confirmed never decreases from one read of a run to the next, nor falls below the candidates listed',
      spec: [S.run, S.runStatus],
    },
    async (t, reads) => {
      let prev: Counted | undefined;
      for (const r of reads) {
        const confirmed = progressOf(r.run).confirmed;
        if (confirmed === undefined) continue; // the schema check reports it
        // Listed candidates are confirmed ones: confirmed cannot be below them (a read that sees the run
        // only after its end still shows a drop this way).
        const listed = objects(r.run.candidates).length;
        const ok =
          t.expect.that(
            BigInt(listed) <= confirmed,
            {
              message: `${where(r)} lists ${listed} candidates with progress.confirmed ${confirmed}; confirmed counts the candidates confirmed so far and the list grows toward it`,
              spec: S.run,
              expected: `>= ${listed}`,
              received: confirmed.toString(),
              pointer: '/progress/confirmed',
            },
            r.res,
          ) && expectNeverDecreases(t, 'confirmed', 'the candidates confirmed so far', prev, { value: confirmed, r });
        if (!ok) return;
        prev = { value: confirmed, r };
      }
    },
  ),
  realRunCheck(
    {
      id: 'runs-read.progress-consistent',
      title: "progress.target is the run's target_count and confirmed is at most target",
      spec: [S.run],
    },
    async (t, v) => {
      eachRead(v.reads, (r) => {
        // screened is "secondary information" with no stated relation to confirmed: not asserted.
        const { confirmed, target } = progressOf(r.run);
        if (confirmed === undefined || target === undefined) return true; // schema check
        const checks = [
          v.targetCount === undefined ||
            t.expect.equal(
              Number(target),
              v.targetCount,
              `progress.target of ${where(r)} (the run was started with target_count ${v.targetCount})`,
              S.run,
              r.res,
            ),
          t.expect.that(
            confirmed <= target,
            {
              message: `${where(r)} has progress.confirmed ${confirmed} above progress.target ${target}`,
              spec: S.run,
              expected: `<= ${target}`,
              received: confirmed.toString(),
              pointer: '/progress/confirmed',
            },
            r.res,
          ),
        ];
        return !checks.includes(false);
      });
    },
  ),
  realRunCheck(
    {
      id: 'runs-read.candidates-within-target',
      title: 'A real run never lists more candidates than its target_count',
      spec: [S.run, S.runsStart],
    },
    async (t, v) => {
      const target = v.targetCount;
      if (target === undefined) {
        t.skip('the target_count of the shared real run could not be read from its start request', 'inconclusive');
        return;
      }
      eachRead(v.reads, (r) => {
        const listed = objects(r.run.candidates).length;
        return t.expect.that(
          listed <= target,
          {
            message: `${where(r)} lists ${listed} candidates; the run was started with target_count ${target}`,
            spec: S.run,
            expected: `<= ${target}`,
            received: listed,
            pointer: '/candidates',
          },
          r.res,
        );
      });
    },
  ),
  readsCheck(
    {
      id: 'runs-read.candidate-list-grows',
      title: 'A candidate listed on one read of a run is still listed on every later read',
      spec: [S.run, S.runStatus],
    },
    async (t, reads) => {
      const seen = new Map<string, Read>();
      for (const r of reads) {
        const ids = new Set(
          objects(r.run.candidates)
            .map((c) => idKey(c.id))
            .filter((x): x is string => x !== undefined),
        );
        const lost = [...seen.keys()].filter((id) => !ids.has(id));
        if (lost.length > 0) {
          t.expect.fail(
            {
              message: `candidate ${lost.join(', ')} listed on ${where(seen.get(lost[0]!)!)} is gone on ${where(r)}; while running the candidates grow, and confirmed candidates stay valid`,
              spec: S.runStatus,
              expected: `still listed: ${lost.join(', ')}`,
              received: [...ids].join(', ') || '(none)',
              pointer: '/candidates',
            },
            r.res,
          );
          return;
        }
        for (const id of ids) if (!seen.has(id)) seen.set(id, r);
      }
    },
  ),
];
