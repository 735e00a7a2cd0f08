// The explored properties as checks: mismatched bodies refused, valid bodies accepted, answers in
// schema, stored shapes kept.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { ExploreInputs } from '../../src/api-setup/check.js';
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
import type { SpecSection } from '../../src/spec/section-names.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { FIRST_FIXTURE_CANDIDATE } from './common.js';
import type { Endpoint, Prepared } from './endpoints.js';
import { classesOf, integralTopLevel, judgeMismatch, judgeSchema, judgeValid, storedShape } from './judges.js';
import { MIN_SHRINK_TRIES, type Property, send, type Sent, shareOf, sweepOf } from './sending.js';
import { nothingSent } from './spare-budget.js';

const suite = 'explore';

interface Explored {
  t: CheckContext;
  ep: Endpoint;
  /** The property the check explores: its sweep and its share of the cap. */
  property: Property;
  ex: ExploreInputs;
  p: Prepared;
  seed: number;
}

/** What one case came to: a failure's reason (undefined: the property held) and the exchange. */
type Attempt = { verdict: string | undefined; sent?: Sent } | 'unsent';

/**
 * Runs the sweep, then the drawn cases, in order until one fails; a failure of a drawn case is shrunk
 * (fast-check, replaying its class's stream) and reported with the minimal request's exchange. A case
 * `tolerated` says is not a failure (an input the spec leaves open) goes to it and the exploration goes
 * on. Returns how many cases were judged.
 */
async function exploreCases(
  x: Explored,
  classes: CaseClass[],
  count: number,
  attempt: (m: Mutation, label: string) => Promise<Attempt>,
  report: (m: Mutation, failed: Sent, verdict: string, note: string) => void,
  tolerated?: (m: Mutation, sent: Sent, verdict: string, note: string) => boolean,
): Promise<number> {
  const { t, ex, seed, ep, property } = x;
  let judged = 0;
  for (const c of drawCases(classes, count, seed, sweepOf(ep, property))) {
    if (t.signal.aborted) break;
    const i = judged;
    t.progress(`explore: case ${i + 1}/${count} (${c.mutation.kind})`);
    const out = await attempt(c.mutation, `case ${i + 1}: ${describeMutation(c.mutation)}`);
    if (out === 'unsent') break;
    judged++;
    if (out.verdict === undefined || !out.sent) continue;
    let note = `case ${i + 1} of seed ${ex.seed} (replay: --seed ${ex.seed})`;
    if (tolerated?.(c.mutation, out.sent, out.verdict, note)) continue;
    const cls = classes[c.classIndex];
    let last: { m: Mutation; sent: Sent; verdict: string } = { m: c.mutation, sent: out.sent, verdict: out.verdict };
    if (cls) {
      const budget = Math.max(MIN_SHRINK_TRIES, count - i - 1);
      const shrunk = await shrinkCase(
        cls,
        seed,
        c,
        async (m) => {
          // A shrink keeps the kind of input that failed: an ordinary failure is not shrunk into an open one.
          if ((m.open === undefined) !== (c.mutation.open === undefined)) return false;
          const tried = await attempt(m, `shrink: ${describeMutation(m)}`);
          if (tried === 'unsent' || tried.verdict === undefined || !tried.sent) return false;
          last = { m, sent: tried.sent, verdict: tried.verdict };
          return true;
        },
        budget,
      );
      if (shrunk.tries > 0) note += `, shrunk in ${shrunk.tries} tries from: ${describeMutation(c.mutation)}`;
    } else
      note = `case ${i + 1}, of the fixed sweep sent before the seeded cases with every seed (replay: --seed ${ex.seed})`;
    report(last.m, last.sent, last.verdict, note);
    return judged;
  }
  return judged;
}

function startCheck(t: CheckContext, ep: Endpoint, property: Property): ExploreInputs | undefined {
  const ex = t.inputs.explore;
  if (!ex) {
    t.skip(
      "off: the exploration's cap is 0 (--explore 0, or the default where the catalogue alone fills the rate budget of the critical path at this --rate-limit); --explore N turns it on",
      'not-applicable',
    );
    return undefined;
  }
  if (shareOf(ex, ep, property) === 0) {
    t.skip(`--explore ${ex.requests} leaves this check no request of its own`, 'not-applicable');
    return undefined;
  }
  return ex;
}

function kindsLine(ep: Endpoint, property: Property, classes: CaseClass[], judged: number): string {
  const sweep = sweepOf(ep, property).length;
  const drawn = classes
    .slice(0, Math.max(0, Math.min(judged - sweep, classes.length)))
    .map((c) => c.kind)
    .join(', ');
  const swept = `the fixed sweep of every field (${Math.min(judged, sweep)} of ${sweep})`;
  return drawn === '' ? swept : `${swept}, then ${drawn}`;
}

/**
 * A check of one explored property of one endpoint: it runs only when --explore leaves the property
 * requests of its own and the endpoint's input (a recruiter, a run) is prepared; `explore` then draws,
 * sends and judges its cases on a stream of the seed of its own.
 */
function exploreCheck(
  ep: Endpoint,
  property: Property,
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec' | 'warns'>,
  explore: (x: Explored) => Promise<void>,
): CheckDefinition {
  return {
    ...def,
    suite,
    evidence: 'provoked',
    needs: ep.needs,
    run: async (t) => {
      const ex = startCheck(t, ep, property);
      if (!ex) return;
      const p = await ep.prepare(t);
      if (!p) return;
      await explore({ t, ep, property, ex, p, seed: streamSeed(ex.seed, def.id) });
    },
  };
}

/** The endpoint's valid base body (fresh ids) with `m` applied, sent on spare budget; 'unsent' when none came. */
async function sendMutated(
  x: Explored,
  m: Mutation,
  label: string,
): Promise<{ res: ApiResponse; body: ReturnType<typeof applyMutation> } | 'unsent'> {
  const { t, ep, p } = x;
  const body = applyMutation(ep.base(t, p, t.setup.uniqueId('svc-certify-explore')), m);
  const res = await send(t, x, body, label);
  return res === 'unsent' ? 'unsent' : { res, body };
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
        shareOf(ex, ep, 'mismatch'),
        async (m, label) => {
          const sent = await sendMutated(x, m, label);
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
      t.expect.that(true, {
        message: `${judged} mismatches refused (${kindsLine(ep, 'mismatch', classes, judged)})`,
        spec: S.errors,
      });
    },
  );
}

/** The sentence of the reading: a 5xx on an input the spec does not address is a warning, not a failure. */
export const OPEN_INPUT_WARNING = 'a service-side failure on an input the spec does not address';

export function validCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.valid-input-never-5xx`;
  return exploreCheck(
    ep,
    'valid',
    {
      id,
      title: `Generated valid ${ep.request} bodies with unusual values (outside the BMP, combining marks, RTL, control characters, long text, boundary lengths and integers, empty arrays) are never answered 5xx`,
      spec: [S.crossCutting, ep.spec],
      warns: [
        `${OPEN_INPUT_WARNING}: a 5xx, twice, to control characters in text, a length the spec bounds nowhere, an id beyond any listed candidate or a field the spec does not name`,
      ],
    },
    async (x) => {
      const { t, ex, p } = x;
      const classes = classesOf(ep, 'valid');
      let warned = false;
      const judged = await exploreCases(
        x,
        classes,
        shareOf(ex, ep, 'valid'),
        async (m, label) => {
          const sent = await sendMutated(x, m, label);
          if (sent === 'unsent') return 'unsent';
          const { res, body } = sent;
          const verdict = judgeValid(res, body);
          if (verdict === undefined) return { verdict, sent: { res, body } };
          // A 5xx may be transient: the same request once more (the endpoints explored are retry-safe, or a
          // fixture start). Unsent (the other checks ended): unconfirmed, so not judged.
          const again = await send(t, x, body, `${label} (second attempt: a 5xx may be transient)`);
          if (again === 'unsent') return { verdict: undefined };
          const confirmed = judgeValid(again, body);
          return {
            verdict: confirmed === undefined ? undefined : `${verdict}, and ${confirmed} again on a second attempt`,
            sent: { res: again, body },
          };
        },
        (m, failed, verdict, note) =>
          t.expect.fail(
            {
              message: `POST ${ep.path(p)} with a valid body, ${describeMutation(m)}, ${verdict}; a 5xx is a service-side failure, nothing in this request is outside the ${ep.request} schema, and the input is ordinary (the body is "JSON (UTF-8)": any UTF-8 text is ordinary) [${note}; the case as drawn answered a 5xx twice]`,
              spec: S.crossCutting,
              expected: 'any answer but a 5xx (a 4xx refusal of an unusual value is fine: limits are not shown)',
              received: failed.res.status,
            },
            failed.res,
          ),
        (m, sent, verdict, note) => {
          if (m.open === undefined) return false;
          // One warning says it; the exploration goes on looking for a failure on ordinary input.
          if (!warned)
            t.expect.warn(
              false,
              {
                message: `POST ${ep.path(p)} with a valid body, ${describeMutation(m)}, ${verdict}: ${OPEN_INPUT_WARNING} [${note}]`,
                spec: S.crossCutting,
                reading: `${m.open} is an input whose handling the spec leaves open: a 5xx there is a warning`,
                otherReading:
                  'the body is valid by the schema, and "5xx: service-side failure" names a defect whatever the input',
              },
              sent.res,
            );
          warned = true;
          return true;
        },
      );
      if (judged === 0) return nothingSent(t, ex);
      t.expect.that(true, {
        message: `${judged} valid bodies answered without a 5xx on ordinary input`,
        spec: S.crossCutting,
      });
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
        shareOf(ex, ep, 'schema'),
        async (m, label) => {
          const sent = await sendMutated(x, m, label);
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

/** The sentence of the reading: "nothing stored" is promised for 422 answers, not for every 4xx. */
export const NON_422_STORED_WARNING =
  'a refusal other than 422 stored the write; "nothing stored" is promised for 422 answers only';

/** The spec's "nothing stored" promise for the endpoint's refused writes, and its section. */
function storedPromise(ep: Endpoint): { spec: SpecSection; promise: string } {
  return ep.name === 'decisions'
    ? { spec: S.decisions, promise: '"Any 422 means nothing of the request was stored"' }
    : { spec: S.jobs, promise: '"422 job_rejected … (nothing stored)"' };
}

/** A batch of the valid first decision and a second one (the one mutated) after it. */
function withSecondDecision(t: CheckContext, valid: JsonObject, first: JsonObject[string]): JsonObject {
  return {
    ...valid,
    decisions: [
      first,
      { candidate_id: FIRST_FIXTURE_CANDIDATE + 1n, decision: 'contacted', occurred_at: t.setup.occurredAt() },
    ],
  };
}

/** What the valid write sent after a refusal says of the refused one: why it had been stored, or undefined. */
function storedVerdict(decisions: boolean, refusedStatus: number, res: ApiResponse): string | undefined {
  const b = obj(integralTopLevel(res.json));
  if (decisions)
    return b?.duplicates === 0 || b?.duplicates === undefined
      ? undefined
      : `after the ${refusedStatus} refusal of the batch, its valid first decision sent alone counted duplicates: ${show(b.duplicates)}, so it had been stored`;
  return b?.created === true
    ? undefined
    : `after the ${refusedStatus} refusal, the valid upsert of the same external_id answered created: ${show(b?.created)}, so the refused job had been stored`;
}

/** Another 4xx stored the write: the spec promises nothing of what it stored, so a warning, which judges nothing. */
function warnNon422Stored(x: Explored, m: Mutation, message: string, refusedStatus: number, res: ApiResponse): void {
  const { spec, promise } = storedPromise(x.ep);
  x.t.expect.warn(
    false,
    {
      message: `POST ${x.ep.path(x.p)} with ${describeMutation(m)}: ${message}`,
      spec,
      reading: `${promise} names 422; a ${refusedStatus} refusal may have stored the write`,
      otherReading:
        'a refusal is a refusal: a 4xx that stored what it refused misleads the client, who fixes and resends',
    },
    res,
  );
}

export function storedCheck(ep: Endpoint): CheckDefinition {
  const decisions = ep.name === 'decisions';
  const { spec, promise } = storedPromise(ep);
  return exploreCheck(
    ep,
    'stored',
    {
      id: `explore.${ep.name}.refused-write-stored-nothing`,
      title: decisions
        ? 'A generated batch refused 422 for one mismatched decision stored nothing: its valid decision, sent again alone, is no duplicate'
        : 'A generated job refused 422 for a schema mismatch stored nothing: the valid upsert of its external_id then answers created: true',
      spec: [spec],
      warns: [`${NON_422_STORED_WARNING} (the spec promises it for 422 only)`],
    },
    async (x) => {
      const { t, ex, p } = x;
      const shape = storedShape(ep);
      let readBack = 0;
      let warned = false;
      const judged = await exploreCases(
        x,
        mismatchClasses(shape),
        Math.max(1, Math.floor(shareOf(ex, ep, 'stored') / 2)),
        async (m, label) => {
          const valid = ep.base(t, p, t.setup.uniqueId('svc-certify-explore-job'));
          const first = Array.isArray(valid.decisions) ? valid.decisions[0] : undefined;
          const body = applyMutation(decisions && first !== undefined ? withSecondDecision(t, valid, first) : valid, m);
          const refused = await send(t, x, body, label);
          if (refused === 'unsent') return 'unsent';
          // Accepted mismatches are the mismatch check's to judge; only a refusal says "nothing stored".
          if (refused.status < 400 || refused.status >= 500) return { verdict: undefined };
          const again = decisions ? { ...valid, decisions: first !== undefined ? [first] : [] } : valid;
          const res = await send(
            t,
            x,
            again,
            `${label}: the valid ${decisions ? 'first decision alone' : 'upsert'} afterwards`,
          );
          if (res === 'unsent' || res.status < 200 || res.status >= 300) return { verdict: undefined };
          const verdict = storedVerdict(decisions, refused.status, res);
          if (refused.status === 422) {
            readBack++;
            return { verdict, sent: { res, body } };
          }
          // Another 4xx: the spec promises nothing of what it stored (a warning, once), and judges nothing.
          if (verdict !== undefined && !warned) {
            warned = true;
            warnNon422Stored(x, m, `${verdict}; ${NON_422_STORED_WARNING}`, refused.status, res);
          }
          return { verdict: undefined };
        },
        (m, failed, verdict, note) =>
          t.expect.fail(
            {
              message: `POST ${ep.path(p)} with ${describeMutation(m)}: ${verdict}; ${promise} [${note}]`,
              spec,
              expected: decisions ? 'duplicates: 0' : 'created: true',
              received: failed.res.json,
            },
            failed.res,
          ),
      );
      if (judged === 0) return nothingSent(t, ex);
      if (readBack === 0) {
        if (warned) return;
        t.skip(
          `none of ${judged} generated mismatches was refused 422 and then read back; "nothing stored" is promised for 422 answers only`,
          'not-applicable',
        );
        return;
      }
      t.expect.that(true, { message: `${readBack} writes refused 422 read back: nothing stored`, spec });
    },
  );
}
