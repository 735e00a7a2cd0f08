// Decisions: every recruiter action is stored once per (run, candidate, decision, occurred_at), a 422
// stores nothing, and reject reasons come from a closed list of seven. Each check uses its own
// occurred_at values (and, where it counts, its own fixture run) so checks never see each other's entries;
// where a check needs more entries than the run lists candidates, it varies decision or occurred_at
// instead (the key is run, candidate, decision, occurred_at).

import type { ApiResponse } from '../src/http/types.js';
import { JsonDecimal, type JsonObject, type JsonValue } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { rejectReasons } from '../src/schema/reject-reasons.js';
import { S } from '../src/spec/sections.js';
import {
  acceptedRunId,
  arr,
  errorSuffix,
  expectErrorEnvelope,
  int,
  obj,
  objects,
  randomUUID,
  secondOrgWithRecruiter,
  TWO_POW_53,
} from './support.js';

const suite = 'decisions';

/** The spec's reject reasons (schemas/decision.schema.json). */
export const REJECT_REASONS = rejectReasons();

const FIXTURE = 'cert-notices-all';
/** cert-slow runs 3 minutes; the spec advises polling every 5 s. */
const SLOW_FIXTURE_SPEC_MS = 3 * 60_000;
const POLL_SPEC_MS = 5_000;
/** The first synthetic id of every fixture; the rest ascend from it (Sandbox behaviour). */
const FIRST_FIXTURE_ID = 990000000001n;
/** Only names a candidate on a run that does not exist: any int64 will do there. */
const ANY_CANDIDATE_ID = 990000000001n;

/**
 * Distinct fixture runs (the setup memoizes per target_count) for checks whose counts matter. The
 * fixture lists "up to 6" whatever the target, so how many candidates each run names is read, not assumed.
 */
const RUN = {
  schema: 15,
  duplicates: 20,
  newEntry: 19,
  nullReason: 18,
  everyReason: 17,
  storesNothing: 16,
  errors: 15,
  mismatch: 14,
} as const;

interface DecisionRun {
  runId: string;
  /** Candidates the run lists on a read (at least one). */
  ids: bigint[];
}

function listedIds(read: ApiResponse): bigint[] {
  return objects(obj(read.json)?.candidates).flatMap((c) => {
    const id = int(c.id);
    return id === undefined ? [] : [id];
  });
}

async function decisionRun(t: CheckContext, targetCount: number): Promise<DecisionRun | undefined> {
  if (t.target.environment === 'sandbox') {
    // The ids are read, never made up: the error for a candidate not in the run is not shown.
    const { runId } = await t.setup.fixtureRun(FIXTURE, { targetCount });
    const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`, { label: 'read the run for candidate ids' });
    if (!t.expect.status(read, 200, S.runsRead)) return undefined;
    const ids = listedIds(read);
    if (ids.length === 0) {
      t.skip(`the ${FIXTURE} run (target_count ${targetCount}) lists no candidate to decide on`, 'inconclusive');
      return undefined;
    }
    return { runId, ids };
  }
  const { run, final } = await t.setup.realRun();
  const ids = listedIds(final);
  if (ids.length === 0) {
    t.skip('the shared real run lists no candidate to decide on', 'inconclusive');
    return undefined;
  }
  return { runId: run.runId, ids };
}

interface Item {
  candidate_id: bigint;
  decision: string;
  occurred_at: string;
  reject_reason?: string | null;
  note?: string | null;
}

async function send(
  t: CheckContext,
  runId: string,
  decisions: Item[],
  label: string,
  opts: { user?: string; notices?: string[]; orgToken?: string } = {},
): Promise<ApiResponse> {
  const acting = opts.user ?? (await t.setup.user()).externalId;
  const payload: Record<string, unknown> = { acting_user_external_id: acting, decisions };
  if (opts.notices) payload.notices_shown = opts.notices;
  return t.api.post(`/runs/${encodeURIComponent(runId)}/decisions`, payload, {
    label,
    ...(opts.orgToken ? { auth: { partnerKey: t.inputs.partnerKey, orgToken: opts.orgToken } } : {}),
  });
}

/**
 * Any 2xx (the success status is not shown) with a decisions response; the body, or undefined. A
 * count written with a zero fraction (`3.0`) is read as the integer it denotes, with a warning.
 */
function expectStored(t: CheckContext, res: ApiResponse): JsonObject | undefined {
  if (!t.expect.status(res, '2xx', S.decisions)) return undefined;
  const body = integralCounts(t, res, ['accepted', 'duplicates']);
  if (!t.expect.schema(body, 'decisions-response', S.decisions, res)) return undefined;
  return obj(body);
}

/** The body with `3.0`-style counts replaced by their integers; a warning for each one found. */
function integralCounts(t: CheckContext, res: ApiResponse, fields: string[]): JsonValue | undefined {
  const body = obj(res.json);
  if (!body) return res.json;
  const out: JsonObject = { ...body };
  for (const field of fields) {
    const v = body[field];
    if (!(v instanceof JsonDecimal) || !Number.isSafeInteger(v.value)) continue;
    out[field] = v.value;
    t.expect.warn(
      false,
      {
        message: `the decisions answer writes ${field} as ${v.raw}`,
        spec: S.decisions,
        reading: `a count is an integer, and a JSON integer has no fraction part: strict decoders (Go int, Rust serde i64, Jackson with ACCEPT_FLOAT_AS_INT off) refuse ${v.raw}`,
        otherReading: `JSON (RFC 8259) has one number type, and ${v.raw} is the integer ${v.value}`,
        expected: String(v.value),
        received: v.raw,
        pointer: `/${field}`,
      },
      res,
    );
  }
  return out;
}

function expectCount(
  t: CheckContext,
  res: ApiResponse,
  b: JsonObject,
  field: 'accepted' | 'duplicates',
  want: number,
  why: string,
): boolean {
  return t.expect.that(
    int(b[field]) === BigInt(want),
    {
      message: `${why}: the response has ${field} ${String(b[field])}, expected ${want} (rule 1)`,
      spec: S.decisions,
      expected: want,
      received: b[field],
      pointer: `/${field}`,
    },
    res,
  );
}

export const DECISIONS_CHECKS: CheckDefinition[] = [
  {
    id: 'decisions.response-schema',
    title: 'Reporting a decision answers 2xx with integer accepted and duplicates',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisions, S.decisionItem],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.schema);
      if (!run) return;
      const res = await send(
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
      );
      const b = expectStored(t, res);
      // A fresh occurred_at: never sent before, so it is stored and counted (rule 1).
      if (b) expectCount(t, res, b, 'accepted', 1, 'one decision with an occurred_at never sent before');
    },
  },
  {
    id: 'decisions.duplicates-counted',
    title: 'Two new decisions count accepted 2, duplicates 0; the same batch again counts duplicates 2',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisions, S.decisionItem, S.sandbox],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.duplicates);
      if (!run) return;
      const batch: Item[] = [
        { candidate_id: run.ids[0]!, decision: 'shortlisted', occurred_at: t.setup.occurredAt() },
        { candidate_id: run.ids[1] ?? run.ids[0]!, decision: 'contacted', occurred_at: t.setup.occurredAt() },
      ];
      const first = await send(t, run.runId, batch, 'report two decisions');
      const a = expectStored(t, first);
      if (!a) return;
      expectCount(t, first, a, 'accepted', 2, 'two decisions never sent before');
      expectCount(t, first, a, 'duplicates', 0, 'two decisions never sent before');
      const again = await send(t, run.runId, batch, 'report the same two decisions again');
      const b = expectStored(t, again);
      if (!b) return;
      // Whether `accepted` also counts the repeats is not shown; `duplicates` counts them.
      expectCount(t, again, b, 'duplicates', 2, 'the same two decisions (same occurred_at) sent again');
    },
  },
  {
    id: 'decisions.new-occurred-at-is-new-entry',
    title: 'The same decision on the same candidate with a new occurred_at is a new entry (accepted 1, duplicates 0)',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisions, S.decisionItem],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.newEntry);
      if (!run) return;
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
      expectCount(t, later, b, 'accepted', 1, why);
      expectCount(t, later, b, 'duplicates', 0, why);
    },
  },
  {
    id: 'decisions.same-occurred-at-distinct-entries',
    title:
      'Decisions reported at the same occurred_at on two candidates, and two decisions on one candidate, are distinct entries (all accepted, duplicates 0)',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisions, S.decisionItem],
    needs: ['org'],
    async run(t) {
      // The shared errors run: its other checks' entries carry occurred_at values of their own.
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
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
      expectCount(t, res, body, 'accepted', batch.length, why);
      expectCount(t, res, body, 'duplicates', 0, why);
    },
  },
  {
    id: 'decisions.fixture-candidate-not-yet-listed-accepted',
    title: 'A decision on a cert-slow candidate the run has not listed yet (but will) is accepted',
    suite,
    evidence: 'provoked',
    warns: [
      'accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse',
      'the completed cert-slow run does not list the candidate guessed from ascending fixture ids',
    ],
    spec: [S.sandbox, S.decisions],
    needs: ['sandbox', 'org'],
    // A refusal is judged on the completed run: up to twice cert-slow's 3 minutes.
    timeoutMs: 7 * 60_000,
    async run(t) {
      const user = (await t.setup.user()).externalId;
      // A cert-slow run of its own, as large as allowed: its last candidate appears only at the end of
      // its 3 minutes, and "decisions may name any candidate the fixture will ever list" (ids ascending
      // from 990000000001, all target_count of them listed on completion).
      const target = 20;
      const started = await t.setup.startRun(
        { job_external_id: 'cert-slow', acting_user_external_id: user, target_count: target },
        { label: 'start cert-slow (20 candidates over 3 minutes)' },
      );
      const runId = acceptedRunId(t, started, 'the cert-slow start');
      if (runId === undefined) return;
      const last = FIRST_FIXTURE_ID + BigInt(target - 1);
      // A read first says whether it is still unlisted, the case the rule is about; on a target so fast
      // that cert-slow's 3 minutes are already over it is listed, and must be accepted all the same.
      const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
        label: 'read cert-slow before the decision',
      });
      if (!t.expect.status(read, 200, S.runsRead)) return;
      const state = listedIds(read).includes(last) ? 'already listed' : 'not listed yet';
      const res = await send(
        t,
        runId,
        [{ candidate_id: last, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        `shortlist candidate ${last} (${state}), the last cert-slow will list`,
      );
      if (res.status < 400 || res.status > 499) {
        const b = expectStored(t, res);
        if (b)
          expectCount(
            t,
            res,
            b,
            'accepted',
            1,
            `a decision on cert-slow candidate ${last} (${state} on the read just before), which the fixture lists by its end`,
          );
        return;
      }
      // Refused: whether the fixture does list that id by its end decides between blame and a reading
      // ("ascending from 990000000001" need not mean one by one). Polled every 5 s of spec time.
      let final: ApiResponse | undefined;
      for (let waited = 0; waited <= SLOW_FIXTURE_SPEC_MS * 2 && !t.signal.aborted; waited += POLL_SPEC_MS) {
        final = await t.api.get(`/runs/${encodeURIComponent(runId)}`, { label: 'read cert-slow until it completes' });
        if (final.status !== 200 || obj(final.json)?.status !== 'running') break;
        await t.sleep(POLL_SPEC_MS);
      }
      if (!final || !t.expect.status(final, 200, S.runsRead)) return;
      const listedAtEnd = listedIds(final).includes(last);
      const message = `a decision on cert-slow candidate ${last} (${state} when sent) answered ${res.status}${errorSuffix(res)}`;
      if (listedAtEnd) {
        t.expect.fail(
          {
            message: `${message}, and the fixture lists that candidate by its end; decisions may name any candidate the fixture will ever list`,
            spec: S.sandbox,
            expected: '2xx, accepted 1',
            received: String(res.status),
          },
          res,
        );
      } else {
        t.expect.warn(
          false,
          {
            message: `${message}; the completed run does not list it (${listedIds(final).length} listed), so the ids were not the ones guessed`,
            spec: S.sandbox,
            reading: `fixture ids ascend one by one from 990000000001, so a run of ${target} lists ${last}`,
            otherReading: 'the ids only ascend from 990000000001; which ones a fixture lists is its own',
            received: String(res.status),
          },
          res,
        );
      }
    },
  },
  {
    id: 'decisions.reject-reason-null-accepted',
    title: 'A rejection with reject_reason null (no reason picked) is accepted',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisionItem, S.decisions],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.nullReason);
      if (!run) return;
      const res = await send(
        t,
        run.runId,
        [{ candidate_id: run.ids[0]!, decision: 'rejected', reject_reason: null, occurred_at: t.setup.occurredAt() }],
        'reject with reject_reason null',
      );
      const b = expectStored(t, res);
      if (b) expectCount(t, res, b, 'accepted', 1, 'a rejection with reject_reason null, never sent before');
    },
  },
  {
    id: 'decisions.every-reject-reason-accepted',
    title: 'Each of the seven reject reasons is accepted on a rejected decision',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisionItem, S.decisions],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.everyReason);
      if (!run) return;
      const batch: Item[] = REJECT_REASONS.map((reason, i) => ({
        candidate_id: run.ids[i % run.ids.length]!,
        decision: 'rejected',
        reject_reason: reason,
        occurred_at: t.setup.occurredAt(),
      }));
      const res = await send(t, run.runId, batch, 'reject once with every reason');
      const b = expectStored(t, res);
      if (b)
        expectCount(
          t,
          res,
          b,
          'accepted',
          REJECT_REASONS.length,
          `seven rejections, one per allowed reason (${REJECT_REASONS.join(', ')})`,
        );
    },
  },
  {
    id: 'decisions.unknown-reject-reason',
    title:
      'A reject_reason outside the list answers 422 unknown_reject_reason with allowed[] equal to the seven reasons',
    suite,
    evidence: 'provoked',
    spec: [S.decisions, S.decisionItem, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
      const res = await send(
        t,
        run.runId,
        [
          {
            candidate_id: run.ids[0]!,
            decision: 'rejected',
            reject_reason: 'zz_not_a_reason',
            occurred_at: t.setup.occurredAt(),
          },
        ],
        'reject with an unknown reason',
      );
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
  },
  {
    id: 'decisions.reason-on-non-rejected-invalid',
    title: 'A reject_reason on a decision other than rejected answers 422 invalid_decision',
    suite,
    evidence: 'provoked',
    spec: [S.decisions, S.decisionItem, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
      const res = await send(
        t,
        run.runId,
        [
          {
            candidate_id: run.ids[0]!,
            decision: 'shortlisted',
            reject_reason: 'location',
            occurred_at: t.setup.occurredAt(),
          },
        ],
        'shortlist with a reject_reason',
      );
      t.expect.error(res, 422, 'invalid_decision', S.decisions);
    },
  },
  {
    id: 'decisions.rejection-stores-nothing',
    title: 'A batch refused with 422 stores nothing: its good decision sent alone afterwards is new (duplicates 0)',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisions],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.storesNothing);
      if (!run) return;
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
  },
  {
    id: 'decisions.schema-mismatch-refused',
    title:
      'An unknown decision value or a missing occurred_at is refused with a 4xx and the error envelope; after a 422 the corrected batch is stored whole',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisions, S.decisionItem, S.errors],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.mismatch);
      if (!run) return;
      const [a, b] = [run.ids[0]!, run.ids[1] ?? run.ids[0]!];
      const good1: Item = { candidate_id: a, decision: 'shortlisted', occurred_at: t.setup.occurredAt() };
      const unknownValue = { candidate_id: b, decision: 'zz_maybe_later', occurred_at: t.setup.occurredAt() };
      const good2: Item = { candidate_id: a, decision: 'contacted', occurred_at: t.setup.occurredAt() };
      const noTime = { candidate_id: b, decision: 'interviewing' };
      // A schema mismatch is a 4xx whose error code v1 leaves open: judged by status and envelope only.
      const refusals: Array<{ res: ApiResponse; what: string }> = [];
      for (const [batch, what] of [
        [[good1, unknownValue], 'a decision value outside shortlisted, rejected, contacted, interviewing, hired'],
        [[good2, noTime], 'a decision without the required occurred_at'],
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
  },
  {
    id: 'decisions.notices-shown-unknown-codes-accepted',
    title: 'notices_shown accepts unrecognized codes (zz_certification_probe) and repeats harmlessly',
    suite,
    evidence: 'provoked',
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.decisions],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
      const notices = ['zz_certification_probe', 'run_progress', 'zz_certification_probe'];
      const first = await send(t, run.runId, [], 'report shown notices, one unknown and repeated', { notices });
      if (!expectStored(t, first)) return;
      const again = await send(t, run.runId, [], 'report the same shown notices again', { notices });
      expectStored(t, again);
    },
  },
  {
    id: 'decisions.unknown-run-404',
    title: 'Decisions on a run id that does not exist answer 404 run_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.decisions, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const res = await send(
        t,
        randomUUID(),
        [{ candidate_id: ANY_CANDIDATE_ID, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        'decisions on an unknown run',
      );
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'decisions.unknown-user-404',
    title: 'Decisions with an acting_user_external_id nobody registered answer 404 user_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.decisions, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
      const res = await send(
        t,
        run.runId,
        [{ candidate_id: run.ids[0]!, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        'decisions as an unregistered user',
        {
          user: t.setup.uniqueId('svc-certify-unregistered'),
        },
      );
      t.expect.error(res, 404, 'user_not_found', S.byEndpoint);
    },
  },
  {
    id: 'decisions.other-organization-run-404',
    title: "Decisions and notices_shown on another organization's run answer 404 run_not_found, never 403",
    suite,
    evidence: 'input',
    spec: [S.decisions, S.byEndpoint],
    needs: ['org', 'second-org'],
    async run(t) {
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
      const second = await secondOrgWithRecruiter(t);
      if (!second) return;
      const { user } = second;
      // notices_shown rides along: the run's notices are the first organization's to report, not another's.
      const res = await send(
        t,
        run.runId,
        [{ candidate_id: run.ids[0]!, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        "decisions and notices_shown on the first organization's run",
        {
          user,
          orgToken: second.orgToken,
          notices: ['run_progress'],
        },
      );
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'decisions.candidate-id-above-2-53',
    title: 'A decision naming a listed candidate whose id exceeds 2^53, sent as an exact integer token, is accepted',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      "no candidate the shared real run listed has an id above 2^53 (the ids are the target's choice): none needs its exact digits",
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.identifiers, S.decisionItem, S.decisions],
    needs: ['org'],
    timeoutMs: 10 * 60_000,
    async run(t) {
      const { run, final } = await t.setup.realRun();
      const huge = objects(obj(final.json)?.candidates)
        .map((c) => int(c.id))
        .find((id): id is bigint => id !== undefined && id > TWO_POW_53);
      if (huge === undefined)
        // Which ids a service issues is its own choice ("may exceed 2^31", Identifier conventions):
        // with none above 2^53 on the run there is no such id to carry, and nothing to judge.
        return t.skip(
          "the shared real run lists no candidate with an id above 2^53 (ids are the service's own: none that large to carry)",
          'not-applicable',
        );
      const res = await send(
        t,
        run.runId,
        [{ candidate_id: huge, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        `shortlist candidate ${huge}`,
      );
      const b = expectStored(t, res);
      if (b) expectCount(t, res, b, 'accepted', 1, `a decision on listed candidate ${huge}, never sent before`);
    },
  },
];
