// The real runs the runs-read checks share: the shared real run read to its end, a second read of it,
// the helpers that walk its reads (a progress counter that never decreases among them), and the
// suite name.

import type { ApiResponse } from '../../src/http/types.js';
import { isJsonObject, parseJsonLossless, type JsonObject, type JsonValue } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { int, obj, objects } from '../support/json-values.js';
import { REAL_RUN_BUDGET_MS } from '../support/runs.js';

export const suite = 'runs-read';

export const TERMINAL = new Set(['completed', 'failed']);
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export interface Read {
  res: ApiResponse;
  run: JsonObject;
  /** 1-based position among the run's reads, for messages. */
  n: number;
}

export interface RealRunView {
  runId: string;
  start: ApiResponse;
  /** The 200 reads, in order. */
  reads: Read[];
  targetCount: number | undefined;
  /** Requirements of the 202, by position. */
  requirements: JsonObject[];
}

export function requestBody(res: ApiResponse): JsonObject | undefined {
  const text = res.exchange.request.body;
  if (text === undefined) return undefined;
  try {
    const v = parseJsonLossless(text);
    return isJsonObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export async function realRun(t: CheckContext): Promise<RealRunView> {
  const { run, reads } = await t.setup.realRun();
  const ok = reads.filter((r) => r.status === 200 && isJsonObject(r.json));
  const target = int(requestBody(run.start)?.target_count);
  return {
    runId: run.runId,
    start: run.start,
    reads: ok.map((res, i) => ({ res, run: res.json as JsonObject, n: i + 1 })),
    targetCount: target === undefined ? undefined : Number(target),
    requirements: objects(obj(run.start.json)?.requirements),
  };
}

/** One more read of the run after the setup's last one (a terminal run must read the same). */
export async function readAgain(
  t: CheckContext,
  runId: string,
  label: string,
  lang?: 'he' | 'en',
): Promise<Read | undefined> {
  const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, { label, ...(lang ? { lang } : {}) });
  if (!t.expect.status(res, 200, S.runsRead)) return undefined;
  if (!isJsonObject(res.json)) return undefined;
  return { res, run: res.json, n: 0 };
}

/**
 * Every read of the shared real run in order: the setup's, then one more made now (left out when it
 * does not answer 200 with an object), for the properties that hold from one read to the next.
 */
export async function readsThenOneMore(t: CheckContext): Promise<Read[]> {
  const v = await realRun(t);
  const later = await readAgain(t, v.runId, 'read the run again');
  return later ? [...v.reads, later] : v.reads;
}

/** A check of the shared real run: provoked, with an organization, within the real-run budget. */
function realRunCheckOf<T>(
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec'>,
  view: (t: CheckContext) => Promise<T>,
  judge: (t: CheckContext, view: T) => Promise<void> | void,
): CheckDefinition {
  return {
    ...def,
    suite,
    evidence: 'provoked',
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      await judge(t, await view(t));
    },
  };
}

/** A check that judges the shared real run as the setup read it to its end. */
export function realRunCheck(
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec'>,
  judge: (t: CheckContext, v: RealRunView) => Promise<void> | void,
): CheckDefinition {
  return realRunCheckOf(def, realRun, judge);
}

/** A check that judges every read of the shared real run, then one more made now (readsThenOneMore). */
export function readsCheck(
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec'>,
  judge: (t: CheckContext, reads: Read[]) => Promise<void> | void,
): CheckDefinition {
  return realRunCheckOf(def, readsThenOneMore, judge);
}

/** A progress counter's value at one read of a run. */
export interface Counted {
  value: bigint;
  r: Read;
}

/**
 * A progress counter never decreases from one read of a run to the next: whether `now` is at least
 * `prev` (true when there is no earlier read), recorded as a failure when it is not.
 */
export function expectNeverDecreases(
  t: CheckContext,
  counter: 'screened' | 'confirmed',
  counts: string,
  prev: Counted | undefined,
  now: Counted,
): boolean {
  return (
    prev === undefined ||
    t.expect.that(
      now.value >= prev.value,
      {
        message: `progress.${counter} went from ${prev.value} (${where(prev.r)}) down to ${now.value} (${where(now.r)}); ${counter} counts ${counts}`,
        spec: S.run,
        expected: `>= ${prev.value}`,
        received: now.value.toString(),
        pointer: `/progress/${counter}`,
      },
      now.r.res,
    )
  );
}

export function where(r: Read): string {
  return r.n > 0 ? `read #${r.n}` : 'a later read';
}

export function progressOf(run: JsonObject): { confirmed?: bigint; target?: bigint; screened?: bigint } {
  const p = obj(run.progress);
  return { confirmed: int(p?.confirmed), target: int(p?.target), screened: int(p?.screened) };
}

export function idKey(v: JsonValue | undefined): string | undefined {
  const i = int(v);
  return i === undefined ? undefined : i.toString();
}

/** Stops a per-read loop at the first read that failed: one proof is enough, fifty repeats are noise. */
export function eachRead(reads: Read[], judge: (r: Read) => boolean): void {
  for (const r of reads) if (!judge(r)) return;
}
