// Exploration: properties the spec states for every input, checked on requests generated from the
// request schemas (src/schema/explore-cases.ts, fast-check), seeded (--seed) and shrunk to a minimal
// failing request. Per endpoint:
// - a schema mismatch is answered 4xx with the error envelope ("A malformed JSON body or a schema
//   mismatch gives a 4xx"; "Every non-2xx response has a JSON envelope"): a 2xx accepted the mismatch;
// - a valid request is never answered 5xx (a second attempt confirms it: a 5xx may be transient);
// - every 2xx answer has its documented shape (the response schema);
// - a refused write stored nothing, where the spec says so and it can be read back (jobs: "nothing
//   stored", an upsert then answers `created: true`; decisions: "Any 422 means nothing of the request
//   was stored", the valid part then counts no duplicate).
// What the spec leaves open stays open: a `format` is an annotation, text size limits are not shown (a
// long value refused with a 4xx or accepted are both fine), `role` values are open; the requiredness of
// a field counts only where the spec states it.
//
// Budget: the exploration never starts a real run (run starts name a `cert-*` fixture, or are invalid)
// and sends only on rate budget the other checks leave unused (priority 'spare', and only while some
// other check still runs, so it never lengthens the certification): at most --explore requests in all,
// shared by the checks by weight.

import type { ApiResponse, RequestSpec } from '../src/http/types.js';
import { isJsonObject, JsonDecimal, type JsonObject, type JsonValue } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import type { ExploreInputs, Need } from '../src/runner/check.js';
import type { SpecSection } from '../src/spec/section-names.js';
import {
  applyMutation,
  describeMutation,
  drawCases,
  mismatchClasses,
  shrinkCase,
  streamSeed,
  unusualClasses,
  type CaseClass,
  type ExploreShape,
  type Mutation,
} from '../src/schema/explore-cases.js';
import { requestFields } from '../src/schema/request-fields.js';
import type { SchemaName } from '../src/schema/schema-names.js';
import { validateAgainst } from '../src/schema/validator.js';
import fc from 'fast-check';
import { S } from '../src/spec/sections.js';
import { acceptedRunId, obj, revealPath, roleField, show } from './support.js';

const suite = 'explore';

/** Any fixture: it answers at once and never counts toward the daily run quota. */
const FIXTURE = 'cert-notices-all';
/** The first synthetic id of every fixture; decisions may name any candidate the fixture will list. */
const FIRST_FIXTURE_CANDIDATE = 990000000001n;

/** What an endpoint needs prepared once per check (a recruiter, a fixture run). */
interface Prepared {
  user: string;
  role?: string;
  runId?: string;
}

interface Endpoint {
  name: 'users' | 'jobs' | 'runs-start' | 'decisions' | 'reveal';
  request: SchemaName;
  response: SchemaName;
  spec: SpecSection;
  needs: Need[];
  shape: ExploreShape;
  prepare(t: CheckContext): Promise<Prepared | undefined>;
  /** A valid body; `fresh` is an identifier never sent before. */
  base(t: CheckContext, p: Prepared, fresh: string): JsonObject;
  path(p: Prepared): string;
}

/** A recruiter of the organization, and the role it was accepted with (role values are open). */
async function recruiter(t: CheckContext): Promise<Prepared> {
  const { externalId, role } = await t.setup.user();
  return { user: externalId, ...(role !== undefined ? { role } : {}) };
}

/**
 * A fixture run of this check's own, so its decisions meet no other check's entries; started on spare
 * budget like the cases (undefined, nothing judged, when none came: the check then skips).
 */
async function withFixtureRun(t: CheckContext): Promise<Prepared | undefined> {
  const p = await recruiter(t);
  const ex = t.inputs.explore;
  const label = `start a ${FIXTURE} run to explore on`;
  const started = await t.setup.startRun(
    { job_external_id: FIXTURE, acting_user_external_id: p.user, target_count: 6 },
    ex ? spareOpts(ex, label) : { label },
  );
  if (unsent(started) && ex) {
    nothingSent(t, ex);
    return undefined;
  }
  const runId = acceptedRunId(t, started, `the ${FIXTURE} start`);
  return runId === undefined ? undefined : { ...p, runId };
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'users',
    request: 'user-request',
    response: 'user-response',
    spec: S.users,
    needs: ['org'],
    // The User table states no field required; the upsert key is what the request cannot do without.
    shape: {
      fields: requestFields('user-request'),
      requiredStated: ['external_id'],
      text: ['full_name', 'email', 'role'],
      ids: ['external_id'],
    },
    prepare: recruiter,
    base: (_t, p, fresh) => ({
      external_id: fresh,
      email: `${fresh}@example.com`,
      full_name: 'Noa Cohen',
      ...roleField(p.role),
    }),
    path: () => '/users',
  },
  {
    name: 'jobs',
    request: 'job-request',
    response: 'job-response',
    spec: S.jobs,
    needs: ['org'],
    shape: {
      fields: requestFields('job-request'),
      requiredStated: ['external_id', 'title', 'description_text', 'location_text'],
      text: ['title', 'description_text', 'location_text'],
      ids: ['external_id'],
    },
    prepare: recruiter,
    base: (_t, _p, fresh) => ({
      external_id: fresh,
      title: 'Data Analyst',
      description_text:
        'We are hiring a data analyst to turn product and sales data into decisions. You will write SQL, build dashboards and present findings.',
      location_text: 'Haifa, Israel',
    }),
    path: () => '/jobs',
  },
  {
    name: 'runs-start',
    request: 'run-start-request',
    response: 'run-start-response',
    spec: S.runsStart,
    // Fixtures exist only in the sandbox: elsewhere a valid start would be a real run.
    needs: ['sandbox', 'org'],
    shape: {
      fields: requestFields('run-start-request'),
      requiredStated: [
        'job_external_id',
        'acting_user_external_id',
        'target_count',
        'requirements/*/text',
        'requirements/*/kind',
      ],
      text: ['requirements/*/text'],
      ids: ['job_external_id', 'acting_user_external_id'],
    },
    prepare: recruiter,
    base: (_t, p) => ({
      job_external_id: FIXTURE,
      acting_user_external_id: p.user,
      target_count: 3,
      requirements: [{ text: 'Python and SQL', kind: 'nice' }],
    }),
    path: () => '/runs',
  },
  {
    name: 'decisions',
    request: 'decisions-request',
    response: 'decisions-response',
    spec: S.decisions,
    needs: ['sandbox', 'org'],
    shape: {
      fields: requestFields('decisions-request'),
      // `decisions` itself: "may be empty", its requiredness not stated.
      requiredStated: [
        'acting_user_external_id',
        'decisions/*/candidate_id',
        'decisions/*/decision',
        'decisions/*/occurred_at',
      ],
      text: ['decisions/*/note'],
      ids: ['acting_user_external_id'],
    },
    prepare: withFixtureRun,
    base: (t, p) => ({
      acting_user_external_id: p.user,
      decisions: [
        {
          candidate_id: FIRST_FIXTURE_CANDIDATE,
          decision: 'shortlisted',
          note: 'Strong SQL',
          occurred_at: t.setup.occurredAt(),
        },
      ],
      notices_shown: ['run_funnel'],
    }),
    path: (p) => `/runs/${encodeURIComponent(p.runId ?? '')}/decisions`,
  },
  {
    name: 'reveal',
    request: 'reveal-request',
    response: 'reveal-result',
    spec: S.reveal,
    // Free in the sandbox only: production reveals spend credits.
    needs: ['sandbox', 'org'],
    shape: {
      fields: requestFields('reveal-request'),
      requiredStated: ['acting_user_external_id'],
      ids: ['acting_user_external_id'],
    },
    prepare: withFixtureRun,
    base: (_t, p) => ({ acting_user_external_id: p.user }),
    path: (p) => revealPath(p.runId ?? '', FIRST_FIXTURE_CANDIDATE),
  },
];

type Property = 'mismatch' | 'valid' | 'schema' | 'stored';

/** How the request cap is shared: weight per check of each property (stored: two requests a case). */
const WEIGHT: Record<Property, number> = { mismatch: 12, valid: 8, schema: 4, stored: 6 };
const STORED_ENDPOINTS = ['jobs', 'decisions'] as const;
const TOTAL_WEIGHT =
  ENDPOINTS.length * (WEIGHT.mismatch + WEIGHT.valid + WEIGHT.schema) + STORED_ENDPOINTS.length * WEIGHT.stored;

/**
 * Requests of the cap kept for what the checks send besides their cases: the fixture run each decisions
 * and reveal check starts to explore on (7), and a second attempt confirming a 5xx.
 */
const PREPARE_RESERVE = 8;

/** This check's share of the cap: the same for a given cap whatever else is selected, so a seed replays alike. */
function shareOf(ex: ExploreInputs, property: Property): number {
  return Math.floor((Math.max(0, ex.requests - PREPARE_RESERVE) * WEIGHT[property]) / TOTAL_WEIGHT);
}

/** Shrinking stops after this many candidates (each one request or two), within the check's share. */
const MIN_SHRINK_TRIES = 8;

/** The first class of the response-schema property: the valid body as it is. */
const PLAIN: CaseClass = { kind: 'plain', arb: fc.constant<Mutation>({ kind: 'plain', op: 'none' }) };

interface Sent {
  res: ApiResponse;
  body: unknown;
}

function spareOpts(ex: ExploreInputs, label: string): Omit<RequestSpec, 'method' | 'path' | 'body'> {
  return { label, priority: 'spare', ...(ex.stop ? { spareStop: ex.stop } : {}) };
}

/** Whether the request was not sent: no spare budget came before every other check had ended. */
const unsent = (res: ApiResponse): boolean => res.transportError?.code === 'no_spare_budget';

async function send(
  t: CheckContext,
  ep: Endpoint,
  p: Prepared,
  body: unknown,
  opts: Omit<RequestSpec, 'method' | 'path' | 'body'>,
): Promise<ApiResponse> {
  // A run start goes through startRun, which counts any real run a 2xx would mean (none is meant).
  if (ep.name === 'runs-start' && isJsonObject(body)) return t.setup.startRun(body, opts);
  return t.api.post(ep.path(p), body, opts);
}

/** A failure's one-line reason, or undefined when the answer holds the property. */
type Judge = (res: ApiResponse, body: unknown) => string | undefined;

const isEnvelope = (res: ApiResponse): boolean => {
  const b = obj(res.json);
  return b !== undefined && typeof b.error === 'string' && typeof b.message === 'string';
};

const judgeMismatch: Judge = (res) => {
  if (res.status >= 200 && res.status < 300) return `answered ${res.status}: the mismatch was accepted`;
  if (res.status === 0) return `got no answer (${res.transportError?.code ?? 'transport error'})`;
  if (res.status >= 500) return `answered ${res.status}, a service-side failure`;
  if (res.status < 400) return `answered ${res.status}, not a 4xx`;
  if (!isEnvelope(res)) return `answered ${res.status} without the error envelope {"error", "message"}`;
  return undefined;
};

const judgeValid: Judge = (res) =>
  res.status === 0
    ? `got no answer (${res.transportError?.code ?? 'transport error'})`
    : res.status >= 500
      ? `answered ${res.status}`
      : undefined;

/**
 * An answer's top-level integers written with a zero fraction (`"accepted": 1.0`) read as the integers
 * they denote: how a service writes its numbers is the catalogue's to judge (the decisions checks warn
 * on it, RFC 8259 having one number type); the exploration judges what generated bodies do.
 */
function integralTopLevel(value: JsonValue | undefined): JsonValue | null {
  if (!isJsonObject(value)) return value ?? null;
  const out: JsonObject = { ...value };
  for (const [k, v] of Object.entries(value))
    if (v instanceof JsonDecimal && Number.isSafeInteger(v.value)) out[k] = v.value;
  return out;
}

function judgeSchema(ep: Endpoint): Judge {
  return (res) => {
    if (res.status < 200 || res.status >= 300) return undefined;
    const issues = validateAgainst(ep.response, integralTopLevel(res.json));
    const first = issues[0];
    return first
      ? `answered ${res.status} with a body off ${ep.response} (${first.pointer || '/'}: ${first.message})`
      : undefined;
  };
}

/** The case list a check explores: its classes, drawn in turn from its own seeded streams. */
function classesOf(ep: Endpoint, property: Property): CaseClass[] {
  switch (property) {
    case 'mismatch':
      return mismatchClasses(ep.shape);
    case 'valid':
      return unusualClasses(ep.shape);
    case 'schema':
      return [PLAIN, ...unusualClasses(ep.shape, { textOnly: true })];
    case 'stored':
      return mismatchClasses(storedShape(ep));
  }
}

/**
 * The stored-nothing property mutates only what leaves the write readable back: for jobs every field
 * but the upsert key; for decisions only the second decision of two, the first then resent alone.
 */
function storedShape(ep: Endpoint): ExploreShape {
  if (ep.name === 'decisions')
    return { ...ep.shape, item: 1, keep: ['acting_user_external_id', 'decisions', 'notices_shown', 'notices_shown/*'] };
  return { ...ep.shape, keep: ['external_id'] };
}

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

function nothingSent(t: CheckContext, ex: ExploreInputs): void {
  t.skip(
    `no spare rate budget came before every other check had ended: nothing was sent (seed ${ex.seed})`,
    'not-applicable',
  );
}

function kindsLine(classes: CaseClass[], judged: number): string {
  return classes
    .slice(0, Math.min(judged, classes.length))
    .map((c) => c.kind)
    .join(', ');
}

function mismatchCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.schema-mismatch-answered-4xx`;
  return {
    id,
    title: `Generated bodies that break the ${ep.request} schema are answered 4xx with the error envelope, never 2xx or 5xx`,
    suite,
    evidence: 'provoked',
    spec: [S.errors, ep.spec],
    needs: ep.needs,
    run: async (t) => {
      const ex = startCheck(t, 'mismatch');
      if (!ex) return;
      const p = await ep.prepare(t);
      if (!p) return;
      const x: Explored = { t, ep, ex, p, seed: streamSeed(ex.seed, id) };
      const classes = classesOf(ep, 'mismatch');
      const judged = await exploreCases(
        x,
        classes,
        shareOf(ex, 'mismatch'),
        async (m, label, spare) => {
          const body = applyMutation(ep.base(t, p, t.setup.uniqueId('svc-certify-explore')), m);
          const res = await send(t, ep, p, body, spare ? spareOpts(ex, label) : { label });
          if (unsent(res)) return 'unsent';
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
  };
}

function validCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.valid-input-never-5xx`;
  return {
    id,
    title: `Generated valid ${ep.request} bodies with unusual values (outside the BMP, combining marks, RTL, control characters, long text, boundary integers, empty arrays) are never answered 5xx`,
    suite,
    evidence: 'provoked',
    spec: [S.crossCutting, ep.spec],
    needs: ep.needs,
    run: async (t) => {
      const ex = startCheck(t, 'valid');
      if (!ex) return;
      const p = await ep.prepare(t);
      if (!p) return;
      const x: Explored = { t, ep, ex, p, seed: streamSeed(ex.seed, id) };
      const classes = classesOf(ep, 'valid');
      const judged = await exploreCases(
        x,
        classes,
        shareOf(ex, 'valid'),
        async (m, label, spare) => {
          const body = applyMutation(ep.base(t, p, t.setup.uniqueId('svc-certify-explore')), m);
          const res = await send(t, ep, p, body, spare ? spareOpts(ex, label) : { label });
          if (unsent(res)) return 'unsent';
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
  };
}

function schemaCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.success-matches-response-schema`;
  return {
    id,
    title: `Every 2xx to a generated valid ${ep.request} body (unusual text included) matches ${ep.response}`,
    suite,
    evidence: 'provoked',
    spec: [ep.spec],
    needs: ep.needs,
    run: async (t) => {
      const ex = startCheck(t, 'schema');
      if (!ex) return;
      const p = await ep.prepare(t);
      if (!p) return;
      const x: Explored = { t, ep, ex, p, seed: streamSeed(ex.seed, id) };
      const judge = judgeSchema(ep);
      let successes = 0;
      const judged = await exploreCases(
        x,
        classesOf(ep, 'schema'),
        shareOf(ex, 'schema'),
        async (m, label, spare) => {
          const body = applyMutation(ep.base(t, p, t.setup.uniqueId('svc-certify-explore')), m);
          const res = await send(t, ep, p, body, spare ? spareOpts(ex, label) : { label });
          if (unsent(res)) return 'unsent';
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
  };
}

function storedCheck(ep: Endpoint): CheckDefinition {
  const id = `explore.${ep.name}.refused-write-stored-nothing`;
  const decisions = ep.name === 'decisions';
  const spec = decisions ? S.decisions : S.jobs;
  return {
    id,
    title: decisions
      ? 'A generated batch refused for one mismatched decision stored nothing: its valid decision, sent again alone, is no duplicate'
      : 'A generated job refused for a schema mismatch stored nothing: the valid upsert of its external_id then answers created: true',
    suite,
    evidence: 'provoked',
    spec: [spec],
    needs: ep.needs,
    run: async (t) => {
      const ex = startCheck(t, 'stored');
      if (!ex) return;
      const p = await ep.prepare(t);
      if (!p) return;
      const x: Explored = { t, ep, ex, p, seed: streamSeed(ex.seed, id) };
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
  };
}

export const EXPLORE_CHECKS: CheckDefinition[] = [
  ...ENDPOINTS.flatMap((ep) => [mismatchCheck(ep), validCheck(ep), schemaCheck(ep)]),
  ...ENDPOINTS.filter((ep) => ep.name === 'jobs' || ep.name === 'decisions').map(storedCheck),
];
