// The explored properties as checks: mismatched bodies refused, valid bodies accepted, answers in
// schema, stored shapes kept.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { ExploreInputs } from '../../src/runner/check.js';
import {
  applyMutation,
  describeMutation,
  drawCases,
  mismatchClasses,
  shrinkCase,
  streamSeed,
  type CaseClass,
  type Mutation,
} from '../../src/schema/explore-cases.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { FIRST_FIXTURE_CANDIDATE } from './common.js';
import type { Endpoint, Prepared } from './endpoints.js';
import { classesOf, integralTopLevel, judgeMismatch, judgeSchema, judgeValid, storedShape } from './judges.js';
import { MIN_SHRINK_TRIES, type Property, send, type Sent, shareOf } from './sending.js';
import { nothingSent, spareOpts, unsent } from './spare-budget.js';

const suite = 'explore';

interface Explored {
  t: CheckContext;
  ep: Endpoint;
  ex: ExploreInputs;
  p: Prepared;
  seed: number;
}

/**
 * Runs the cases in order until one fails; a failure is shrunk (fast-check, replaying its class's
 * stream) and reported with the minimal request's exchange. Returns how many cases were judged.
 */
async function exploreCases(
  x: Explored,
  classes: CaseClass[],
  count: number,
  attempt: (
    m: Mutation,
    label: string,
    spare: boolean,
  ) => Promise<{ verdict: string | undefined; sent?: Sent } | 'unsent'>,
  report: (m: Mutation, failed: Sent, verdict: string, note: string) => void,
): Promise<number> {
  const { t, ex, seed } = x;
  const cases = drawCases(classes, count, seed);
  let judged = 0;
  for (const [i, c] of cases.entries()) {
    if (t.signal.aborted) break;
    t.progress(`explore: case ${i + 1}/${cases.length} (${c.mutation.kind})`);
    const out = await attempt(c.mutation, `case ${i + 1}: ${describeMutation(c.mutation)}`, true);
    if (out === 'unsent') break;
    judged++;
    if (out.verdict === undefined || !out.sent) continue;
    const cls = classes[c.classIndex];
    let last: { m: Mutation; sent: Sent; verdict: string } = { m: c.mutation, sent: out.sent, verdict: out.verdict };
    let note = `case ${i + 1} of seed ${ex.seed} (replay: --seed ${ex.seed})`;
    if (cls) {
      const budget = Math.max(MIN_SHRINK_TRIES, count - i - 1);
      const shrunk = await shrinkCase(
        cls,
        seed,
        c,
        async (m) => {
          const tried = await attempt(m, `shrink: ${describeMutation(m)}`, false);
          if (tried === 'unsent' || tried.verdict === undefined || !tried.sent) return false;
          last = { m, sent: tried.sent, verdict: tried.verdict };
          return true;
        },
        budget,
      );
      if (shrunk.tries > 0) note += `, shrunk in ${shrunk.tries} tries from: ${describeMutation(c.mutation)}`;
    }
    report(last.m, last.sent, last.verdict, note);
    return judged;
  }
  return judged;
}

function startCheck(t: CheckContext, property: Property): ExploreInputs | undefined {
  const ex = t.inputs.explore;
  if (!ex) {
    t.skip('off: --explore 0 turns the exploration off', 'not-applicable');
    return undefined;
  }
  if (shareOf(ex, property) === 0) {
    t.skip(`--explore ${ex.requests} leaves this check no request of its own`, 'not-applicable');
    return undefined;
  }
  return ex;
}

function kindsLine(classes: CaseClass[], judged: number): string {
  return classes
    .slice(0, Math.min(judged, classes.length))
    .map((c) => c.kind)
    .join(', ');
}

/**
 * A check of one explored property of one endpoint: it runs only when --explore leaves the property
 * requests of its own and the endpoint's input (a recruiter, a run) is prepared; `explore` then draws,
 * sends and judges its cases on a stream of the seed of its own.
 */
function exploreCheck(
  ep: Endpoint,
  property: Property,
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec'>,
  explore: (x: Explored) => Promise<void>,
): CheckDefinition {
  return {
    ...def,
    suite,
    evidence: 'provoked',
    needs: ep.needs,
    run: async (t) => {
      const ex = startCheck(t, property);
      if (!ex) return;
      const p = await ep.prepare(t);
      if (!p) return;
      await explore({ t, ep, ex, p, seed: streamSeed(ex.seed, def.id) });
    },
  };
}

/**
 * The endpoint's valid base body (fresh ids) with `m` applied, sent on spare budget unless it is a
 * shrinking step; 'unsent' when no spare budget came.
 */
async function sendMutated(
  x: Explored,
  m: Mutation,
  label: string,
  spare: boolean,
): Promise<{ res: ApiResponse; body: ReturnType<typeof applyMutation> } | 'unsent'> {
  const { t, ep, ex, p } = x;
  const body = applyMutation(ep.base(t, p, t.setup.uniqueId('svc-certify-explore')), m);
  const res = await send(t, ep, p, body, spare ? spareOpts(ex, label) : { label });
  return unsent(res) ? 'unsent' : { res, body };
}

export function mismatchCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.schema-mismatch-answered-4xx`;
  return exploreCheck(
    ep,
    'mismatch',
    {
      id,
      title: `Generated bodies that break the ${ep.request} schema are answered 4xx with the error envelope, never 2xx or 5xx`,
      spec: [S.errors, ep.spec],
    },
    async (x) => {
      const { t, ex, p } = x;
      const classes = classesOf(ep, 'mismatch');
      const judged = await exploreCases(
        x,
        classes,
        shareOf(ex, 'mismatch'),
        async (m, label, spare) => {
          const sent = await sendMutated(x, m, label, spare);
          if (sent === 'unsent') return 'unsent';
          const { res, body } = sent;
          return { verdict: judgeMismatch(res, body), sent: { res, body } };
        },
        (m, failed, verdict, note) =>
          t.expect.fail(
            {
              message: `POST ${ep.path(p)} with ${describeMutation(m)} ${verdict}; a schema mismatch gives a 4xx with the JSON envelope {"error", "message"} [${note}]`,
              spec: S.errors,
              expected: '4xx with {"error": "…", "message": "…"}',
              received: `${failed.res.status}${failed.res.json !== undefined ? ` ${show(failed.res.json).slice(0, 200)}` : ''}`,
            },
            failed.res,
          ),
      );
      if (judged === 0) return nothingSent(t, ex);
      t.expect.that(true, { message: `${judged} mismatches refused (${kindsLine(classes, judged)})`, spec: S.errors });
    },
  );
}

export function validCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.valid-input-never-5xx`;
  return exploreCheck(
    ep,
    'valid',
    {
      id,
      title: `Generated valid ${ep.request} bodies with unusual values (outside the BMP, combining marks, RTL, control characters, long text, boundary integers, empty arrays) are never answered 5xx`,
      spec: [S.crossCutting, ep.spec],
    },
    async (x) => {
      const { t, ex, p } = x;
      const classes = classesOf(ep, 'valid');
      const judged = await exploreCases(
        x,
        classes,
        shareOf(ex, 'valid'),
        async (m, label, spare) => {
          const sent = await sendMutated(x, m, label, spare);
          if (sent === 'unsent') return 'unsent';
          const { res, body } = sent;
          const verdict = judgeValid(res, body);
          if (verdict === undefined || !spare) return { verdict, sent: { res, body } };
          // A 5xx may be transient: the same request once more (the endpoints explored are retry-safe, or a fixture start).
          const again = await send(t, ep, p, body, { label: `${label} (second attempt: a 5xx may be transient)` });
          const confirmed = judgeValid(again, body);
          return {
            verdict: confirmed === undefined ? undefined : `${verdict}, and ${confirmed} again on a second attempt`,
            sent: { res: again, body },
          };
        },
        (m, failed, verdict, note) =>
          t.expect.fail(
            {
              message: `POST ${ep.path(p)} with a valid body, ${describeMutation(m)}, ${verdict}; a 5xx is a service-side failure, and nothing in this request is outside the ${ep.request} schema [${note}; the case as drawn answered a 5xx twice]`,
              spec: S.crossCutting,
              expected: 'any answer but a 5xx (a 4xx refusal of an unusual value is fine: limits are not shown)',
              received: failed.res.status,
            },
            failed.res,
          ),
      );
      if (judged === 0) return nothingSent(t, ex);
      t.expect.that(true, { message: `${judged} valid bodies answered without a 5xx`, spec: S.crossCutting });
    },
  );
}

export function schemaCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.success-matches-response-schema`;
  return exploreCheck(
    ep,
    'schema',
    {
      id,
      title: `Every 2xx to a generated valid ${ep.request} body (unusual text included) matches ${ep.response}`,
      spec: [ep.spec],
    },
    async (x) => {
      const { t, ex, p } = x;
      const judge = judgeSchema(ep);
      let successes = 0;
      const judged = await exploreCases(
        x,
        classesOf(ep, 'schema'),
        shareOf(ex, 'schema'),
        async (m, label, spare) => {
          const sent = await sendMutated(x, m, label, spare);
          if (sent === 'unsent') return 'unsent';
          const { res, body } = sent;
          if (res.status >= 200 && res.status < 300) successes++;
          return { verdict: judge(res, body), sent: { res, body } };
        },
        (m, failed, verdict, note) => {
          t.expect.fail(
            { message: `POST ${ep.path(p)} with ${describeMutation(m)} ${verdict} [${note}]`, spec: ep.spec },
            failed.res,
          );
          // Every issue of the body, as the catalogue's schema checks list them.
          t.expect.schema(failed.res.json, ep.response, ep.spec, failed.res);
        },
      );
      if (judged === 0) return nothingSent(t, ex);
      if (successes === 0) {
        t.skip(`none of ${judged} generated valid bodies was answered 2xx: no success body to judge`, 'inconclusive');
        return;
      }
      t.expect.that(true, { message: `${successes} success bodies matched ${ep.response}`, spec: ep.spec });
    },
  );
}

export function storedCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.refused-write-stored-nothing`;
  const decisions = ep.name === 'decisions';
  const spec = decisions ? S.decisions : S.jobs;
  return exploreCheck(
    ep,
    'stored',
    {
      id,
      title: decisions
        ? 'A generated batch refused for one mismatched decision stored nothing: its valid decision, sent again alone, is no duplicate'
        : 'A generated job refused for a schema mismatch stored nothing: the valid upsert of its external_id then answers created: true',
      spec: [spec],
    },
    async (x) => {
      const { t, ex, p } = x;
      const shape = storedShape(ep);
      let readBack = 0;
      const judged = await exploreCases(
        x,
        mismatchClasses(shape),
        Math.max(1, Math.floor(shareOf(ex, 'stored') / 2)),
        async (m, label, spare) => {
          const opts = spare ? spareOpts(ex, label) : { label };
          const valid = ep.base(t, p, t.setup.uniqueId('svc-certify-explore-job'));
          // Decisions: a second decision (the one mutated) after the valid first one.
          const first = Array.isArray(valid.decisions) ? valid.decisions[0] : undefined;
          const base: JsonObject =
            decisions && first !== undefined
              ? {
                  ...valid,
                  decisions: [
                    first,
                    {
                      candidate_id: FIRST_FIXTURE_CANDIDATE + 1n,
                      decision: 'contacted',
                      occurred_at: t.setup.occurredAt(),
                    },
                  ],
                }
              : valid;
          const body = applyMutation(base, m);
          const refused = await send(t, ep, p, body, opts);
          if (unsent(refused)) return 'unsent';
          // Accepted mismatches are the mismatch check's to judge; only a refusal says "nothing stored".
          if (refused.status < 400 || refused.status >= 500) return { verdict: undefined };
          const again = decisions ? { ...valid, decisions: first !== undefined ? [first] : [] } : valid;
          const res = await send(t, ep, p, again, {
            label: `${label}: the valid ${decisions ? 'first decision alone' : 'upsert'} afterwards`,
          });
          if (res.status < 200 || res.status >= 300) return { verdict: undefined };
          readBack++;
          const b = obj(integralTopLevel(res.json));
          const verdict = decisions
            ? b?.duplicates === 0 || b?.duplicates === undefined
              ? undefined
              : `after the ${refused.status} refusal of the batch, its valid first decision sent alone counted duplicates: ${show(b.duplicates)}, so it had been stored`
            : b?.created === true
              ? undefined
              : `after the ${refused.status} refusal, the valid upsert of the same external_id answered created: ${show(b?.created)}, so the refused job had been stored`;
          return { verdict, sent: { res, body } };
        },
        (m, failed, verdict, note) =>
          t.expect.fail(
            {
              message: `POST ${ep.path(p)} with ${describeMutation(m)}: ${verdict}; ${decisions ? '"Any 422 means nothing of the request was stored"' : 'a refused job stores nothing'} [${note}]`,
              spec,
              expected: decisions ? 'duplicates: 0' : 'created: true',
              received: failed.res.json,
            },
            failed.res,
          ),
      );
      if (judged === 0) return nothingSent(t, ex);
      if (readBack === 0) {
        t.skip(`none of ${judged} generated mismatches was refused and then read back`, 'inconclusive');
        return;
      }
      t.expect.that(true, { message: `${readBack} refused writes read back: nothing stored`, spec });
    },
  );
}
