// progress and the candidate list from one read of a run to the next: confirmed never decreases,
// fits the target, and a listed candidate stays listed.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { objects } from '../support/json-values.js';
import {
  before,
  eachRead,
  everyReadCheck,
  expectNoDecrease,
  idKey,
  progressOf,
  type Read,
  realRunCheck,
  where,
} from './real-runs.js';

export const PROGRESS_CHECKS: CheckDefinition[] = [
  everyReadCheck(
    {
      id: 'runs-read.progress-monotonic',
      title:
        'progress.confirmed never decreases over every read of the run any check made, in order, nor falls below the candidates listed',
      spec: [S.run, S.runStatus],
    },
    async (t, reads) => {
      for (const r of reads) {
        const confirmed = progressOf(r.run).confirmed;
        if (confirmed === undefined) continue; // the schema check reports it
        // Listed candidates are confirmed ones: confirmed cannot be below them (a read that sees the run
        // only after its end still shows a drop this way).
        const listed = objects(r.run.candidates).length;
        const ok = t.expect.that(
          BigInt(listed) <= confirmed,
          {
            message: `${where(r)} lists ${listed} candidates with progress.confirmed ${confirmed}; confirmed counts the candidates confirmed so far and the list grows toward it`,
            spec: S.run,
            expected: `>= ${listed}`,
            received: confirmed.toString(),
            pointer: '/progress/confirmed',
          },
          r.res,
        );
        if (!ok) return;
      }
      expectNoDecrease(t, 'confirmed', 'the candidates confirmed so far', reads);
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
  everyReadCheck(
    {
      id: 'runs-read.candidate-list-grows',
      title: 'A candidate listed on one read of a run is still listed on every later read any check made',
      spec: [S.run, S.runStatus],
    },
    async (t, reads) => {
      const listedOn = reads.map(
        (r) =>
          new Set(
            objects(r.run.candidates)
              .map((c) => idKey(c.id))
              .filter((x): x is string => x !== undefined),
          ),
      );
      // The first read that lacks a candidate listed on a read known to come before it (answered
      // before it was sent), with the candidates it lost and where each was first listed.
      let gap: { r: Read; ids: Set<string>; lost: string[]; seen: Map<string, Read> } | undefined;
      for (const [i, r] of reads.entries()) {
        const ids = listedOn[i]!;
        const seen = new Map<string, Read>();
        for (const [j, e] of reads.entries())
          if (before(e, r)) for (const id of listedOn[j]!) if (!seen.has(id)) seen.set(id, e);
        const lost = [...seen.keys()].filter((id) => !ids.has(id));
        if (lost.length > 0) {
          gap = { r, ids, lost, seen };
          break;
        }
      }
      t.expect.that(
        gap === undefined,
        {
          message: gap
            ? `candidate ${gap.lost.join(', ')} listed on ${where(gap.seen.get(gap.lost[0]!)!)} is gone on ${where(gap.r)}; while running the candidates grow, and confirmed candidates stay valid`
            : '',
          spec: S.runStatus,
          expected: gap ? `still listed: ${gap.lost.join(', ')}` : '',
          received: gap ? [...gap.ids].join(', ') || '(none)' : '',
          pointer: '/candidates',
        },
        gap?.r.res,
      );
    },
  ),
];
