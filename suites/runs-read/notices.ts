// Notices of a real run: refs that fit their slot, codes possible in v1, function_error's placement,
// and title and body in the request's language.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject, JsonValue } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { IMPOSSIBLE_IN_V1 } from '../../src/spec/notice-codes.js';
import { S } from '../../src/spec/sections.js';
import { obj, objects } from '../support/json-values.js';
import { hasLatin, isHebrew } from '../support/language.js';
import { show } from '../support/messages.js';
import { REAL_RUN_BUDGET_MS } from '../support/runs.js';
import {
  eachRead,
  idKey,
  INT64_MAX,
  INT64_MIN,
  type Read,
  readAgain,
  realRun,
  realRunCheck,
  suite,
  where,
} from './real-runs.js';

/** A JSON integer token within int64 (a number with a fraction or an exponent is not one). */
function isInt64(v: JsonValue | undefined): boolean {
  const i = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined;
  return i !== undefined && i >= INT64_MIN && i <= INT64_MAX;
}

/** The requirement indexes of a run: those its 202 listed and those its candidates carry. */
function requirementIndexes(start: ApiResponse, reads: Read[]): Set<string> {
  const listed = [
    ...objects(obj(start.json)?.requirements),
    ...reads.flatMap((r) => objects(r.run.candidates).flatMap((c) => objects(c.requirements))),
  ];
  return new Set(listed.map((q) => idKey(q.index)).filter((x): x is string => x !== undefined));
}

/** One ref against its slot: a requirement index of the run, or an int64 candidate id. */
function judgeRef(
  t: CheckContext,
  r: Read,
  at: string,
  ni: number,
  n: JsonObject,
  indexes: Set<string>,
  known: string,
): boolean {
  const ref = obj(n.ref);
  if (n.slot === 'on_requirement') {
    const raw = ref?.requirement_index;
    const i = isInt64(raw) ? BigInt(raw as number | bigint) : undefined;
    return t.expect.that(
      i !== undefined && i >= 0n && indexes.has(i.toString()),
      {
        message: `notice ${show(n.code)} in slot on_requirement on ${at} has ref ${show(n.ref)}; a ref on on_requirement carries requirement_index, an integer >= 0 naming one of the run's requirements (${known})`,
        spec: S.notice,
        expected: `ref.requirement_index in ${known}`,
        received: show(n.ref),
        pointer: `/notices/${ni}/ref`,
      },
      r.res,
    );
  }
  return t.expect.that(
    isInt64(ref?.candidate_id),
    {
      message: `notice ${show(n.code)} in slot on_candidate on ${at} has ref ${show(n.ref)}; a ref on on_candidate carries candidate_id, an int64 integer`,
      spec: S.notice,
      expected: 'ref.candidate_id, an int64 integer',
      received: show(n.ref),
      pointer: `/notices/${ni}/ref`,
    },
    r.res,
  );
}

export const NOTICE_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-read.notice-ref-matches-slot',
    title:
      'A ref, when present, fits its slot: a requirement index of the run for on_requirement, an int64 candidate_id for on_candidate',
    suite,
    evidence: 'conditional',
    notApplicableWhen: 'no notice of the runs read carried a ref (ref is optional): no ref to match to its slot',
    spec: [S.notice, S.candidateRequirement],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      // ref is "Required: no": a missing ref is no failure. Nor need an on_candidate ref name a listed
      // candidate (no rule says so); only its type is asserted. A requirement index is the run's own.
      // Refs are provoked where the spec states them, cert-notice-unknown's ("ref.candidate_id for
      // on_candidate, ref.requirement_index for on_requirement"), and judged wherever else they appear.
      const sources: Array<{ what: string; reads: Read[]; indexes: Set<string> }> = [];
      if (t.target.environment === 'sandbox') {
        const { runId, start } = await t.setup.fixtureRun('cert-notice-unknown');
        const r = await readAgain(t, runId, 'read cert-notice-unknown');
        if (r) sources.push({ what: 'cert-notice-unknown', reads: [r], indexes: requirementIndexes(start, [r]) });
      }
      // A real run that never ends (read until the polling window closed) is judged on what was read.
      const v = await realRun(t);
      sources.push({ what: 'the shared real run', reads: v.reads, indexes: requirementIndexes(v.start, []) });
      let judged = 0;
      for (const { what, reads, indexes } of sources) {
        const known = [...indexes].join(', ') || 'none';
        let held = true;
        eachRead(reads, (r) => {
          for (const [ni, n] of objects(r.run.notices).entries()) {
            if (n.ref === undefined || n.ref === null) continue;
            if (n.slot !== 'on_requirement' && n.slot !== 'on_candidate') continue;
            judged += 1;
            held = judgeRef(t, r, `${where(r)} of ${what}`, ni, n, indexes, known);
            if (!held) return false;
          }
          return true;
        });
        if (!held) return;
      }
      if (judged > 0) return;
      const readCount = sources.reduce((sum, s) => sum + s.reads.length, 0);
      if (t.target.environment === 'sandbox') {
        // The fixture table states cert-notice-unknown's refs: their absence is the fixture checks' finding.
        t.skip(
          `no notice in slot on_requirement or on_candidate carried a ref on cert-notice-unknown (whose refs the fixture table states) nor on the ${readCount - 1} read(s) of the shared real run, so no ref could be judged`,
          'inconclusive',
        );
        return;
      }
      t.skip(
        `no notice in slot on_requirement or on_candidate carried a ref on the ${readCount} read(s) of the shared real run; a ref is optional (Notice: ref "Required: no"), so there was none to judge`,
        'not-applicable',
      );
    },
  },
  realRunCheck(
    {
      id: 'runs-read.notice-codes-possible-in-v1',
      title:
        'A real run never shows widen_hint, relaxation_ladder, global_relaxed or lean_search_failed, which cannot occur in v1',
      spec: [S.notice, S.versioning],
    },
    async (t, v) => {
      // New, unknown codes are allowed (they appear without warning); the four known-but-impossible ones are not.
      eachRead(v.reads, (r) => {
        const bad = objects(r.run.notices)
          .map((n) => n.code)
          .filter((c): c is string => typeof c === 'string' && IMPOSSIBLE_IN_V1.includes(c));
        return t.expect.that(
          bad.length === 0,
          {
            message: `${where(r)} shows notice code ${bad.join(', ')}; the spec says ${IMPOSSIBLE_IN_V1.join(', ')} cannot occur in v1`,
            spec: S.notice,
            expected: 'none of the four codes impossible in v1',
            received: bad.join(', '),
            pointer: '/notices',
          },
          r.res,
        );
      });
    },
  ),
  {
    id: 'runs-read.function-error-blocking-empty-state',
    title: 'function_error on a failed run has severity blocking and slot empty_state',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      'no run read failed with a function_error notice (a failed run is "typically" explained by one; a production run cannot be made to fail)',
    spec: [S.notice, S.runStatus],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const reads: Read[] = [];
      if (t.target.environment === 'sandbox') {
        // A failed run on demand: the cert-failed fixture (free); its notices come from the same code as real runs'.
        const { runId } = await t.setup.fixtureRun('cert-failed');
        const r = await readAgain(t, runId, 'read cert-failed');
        if (r) reads.push(r);
      }
      reads.push(...(await realRun(t)).reads);
      if (!reads.some((r) => r.run.status === 'failed')) {
        // Production cannot be asked to fail a run: with none failed there is no such notice to judge.
        // The sandbox's cert-failed should have been one: then the target left nothing to judge.
        const kind = t.target.environment === 'sandbox' ? 'inconclusive' : 'not-applicable';
        t.skip(
          'no run read during the certification failed (a production run cannot be made to fail), so no function_error notice of a failed run could be seen',
          kind,
        );
        return;
      }
      const notices = reads.filter((r) => r.run.status === 'failed').flatMap((r) => objects(r.run.notices));
      if (!notices.some((n) => n.code === 'function_error')) {
        // "typically function_error": a failed run may explain itself with another notice, a conformant
        // choice, so there is nothing to judge rather than something left untried.
        t.skip(
          'the failed run(s) carried no function_error notice (the spec says a notice typically function_error explains a failure), so none could be judged',
          'not-applicable',
        );
        return;
      }
      for (const r of reads) {
        if (r.run.status !== 'failed') continue;
        for (const n of objects(r.run.notices).filter((x) => x.code === 'function_error')) {
          t.expect.that(
            n.severity === 'blocking' && n.slot === 'empty_state',
            {
              message: `function_error on a failed run (${where(r)}) is ${show(n.severity)}/${show(n.slot)}; the spec requires severity blocking, slot empty_state`,
              spec: S.notice,
              expected: 'blocking, empty_state',
              received: `${show(n.severity)}, ${show(n.slot)}`,
            },
            r.res,
          );
        }
      }
    },
  },
  {
    id: 'runs-read.notice-language',
    title: 'Notice title and body follow the request language: Hebrew with x-svc-lang he, English with en',
    suite,
    evidence: 'conditional',
    notApplicableWhen: 'the shared real run showed no notice: no notice language to judge',
    spec: [S.notice, S.commonHeaders],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      const he = await readAgain(t, v.runId, 'read in Hebrew', 'he');
      const en = await readAgain(t, v.runId, 'read in English', 'en');
      for (const n of he ? objects(he.run.notices) : []) {
        const text = `${String(n.title)} ${String(n.body)}`;
        t.expect.that(
          isHebrew(text),
          {
            message: `with x-svc-lang: he, notice ${show(n.code)} reads ${show(n.title)} / ${show(n.body)}, with no Hebrew letter; title and body follow the request language`,
            spec: S.notice,
            expected: 'Hebrew title/body',
            received: text,
          },
          he!.res,
        );
      }
      // Only the script is judged, as for the fixtures: English text may quote Hebrew data (a place, a
      // requirement as the recruiter wrote it), so it needs some Latin text, not a Latin majority.
      for (const n of en ? objects(en.run.notices) : []) {
        const text = `${String(n.title)} ${String(n.body)}`;
        t.expect.that(
          hasLatin(text),
          {
            message: `with x-svc-lang: en, notice ${show(n.code)} reads ${show(n.title)} / ${show(n.body)}, with no Latin letter; title and body follow the request language`,
            spec: S.notice,
            expected: 'English title/body',
            received: text,
          },
          en!.res,
        );
      }
    },
  },
];
