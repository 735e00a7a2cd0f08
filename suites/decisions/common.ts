// What the decisions checks share: the fixture run they decide on, sending a batch, and judging its
// counts.

import type { ApiResponse } from '../../src/http/types.js';
import { JsonDecimal, type JsonObject, type JsonValue } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { int, obj, objects } from '../support/json-values.js';
import { twoStepCheck } from '../support/two-step-check.js';

export const suite = 'decisions';

const FIXTURE = 'cert-notices-all';

/**
 * Distinct fixture runs (the setup memoizes per target_count) for checks whose counts matter. The
 * fixture lists "up to 6" whatever the target, so how many candidates each run names is read, not assumed.
 */
export const RUN = {
  schema: 15,
  duplicates: 20,
  newEntry: 19,
  nullReason: 18,
  everyReason: 17,
  storesNothing: 16,
  errors: 15,
  mismatch: 14,
} as const;

export interface DecisionRun {
  runId: string;
  /** Candidates the run lists on a read (at least one). */
  ids: bigint[];
}

export function listedIds(read: ApiResponse): bigint[] {
  return objects(obj(read.json)?.candidates).flatMap((c) => {
    const id = int(c.id);
    return id === undefined ? [] : [id];
  });
}

export async function decisionRun(t: CheckContext, targetCount: number): Promise<DecisionRun | undefined> {
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
    // A run may end with none ("it may hold fewer than target candidates"): the engine's outcome.
    t.skip('the shared real run lists no candidate to decide on (a run may end with none)', 'not-applicable');
    return undefined;
  }
  return { runId: run.runId, ids };
}

/**
 * What a check that reads the counts may warn of: expectStored reads `1.0` as the integer it denotes,
 * and says so.
 */
export const COUNT_WARNS = [
  'accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse',
];

/**
 * A check that sends decisions on a run of its own target_count (see RUN): provoked, with an
 * organization; it stops where decisionRun gives no run (a failure or a skip it recorded).
 */
export function decisionCheck(
  def: Omit<CheckDefinition, 'suite' | 'evidence' | 'needs' | 'run'>,
  targetCount: number,
  decide: (t: CheckContext, run: DecisionRun) => Promise<void>,
): CheckDefinition {
  return twoStepCheck(
    { ...def, suite, evidence: 'provoked', needs: ['org'] },
    (t) => decisionRun(t, targetCount),
    decide,
  );
}

export interface Item {
  candidate_id: bigint;
  decision: string;
  occurred_at: string;
  reject_reason?: string | null;
  note?: string | null;
}

export async function send(
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
export function expectStored(t: CheckContext, res: ApiResponse): JsonObject | undefined {
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

export function expectCount(
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

/**
 * Sends a batch none of whose decisions was sent before: it is stored and each of its decisions is
 * counted in accepted (rule 1).
 */
export async function sendNew(
  t: CheckContext,
  runId: string,
  batch: Item[],
  label: string,
  why: string,
): Promise<void> {
  const res = await send(t, runId, batch, label);
  const b = expectStored(t, res);
  if (b) expectCount(t, res, b, 'accepted', batch.length, why);
}

/** A stored answer that counts every decision of the batch as a new entry: accepted n, duplicates 0. */
export function expectNewEntries(t: CheckContext, res: ApiResponse, b: JsonObject, n: number, why: string): void {
  expectCount(t, res, b, 'accepted', n, why);
  expectCount(t, res, b, 'duplicates', 0, why);
}
