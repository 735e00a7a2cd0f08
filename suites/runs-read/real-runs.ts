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
  /**
   * For reads from the journal of every read (everyRead): when the read was sent and answered, as
   * positions in one sequence. Without them the reads are one after another in the order given.
   */
  sent?: number;
  answered?: number;
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

/** The 200 reads of a watched run (the shared and the short real run) the certification made so far, in order. */
export function journalReads(t: CheckContext, runId: string): Read[] {
  return t.setup
    .runReads(runId)
    .filter((j) => j.res.status === 200 && isJsonObject(j.res.json))
    .map((j, i) => ({ res: j.res, run: j.res.json as JsonObject, n: i + 1, sent: j.sent, answered: j.answered }));
}

/**
 * Every read of the shared real run that the setup or any check made (the check runs after all others:
 * `afterOthers`), after `own` more reads of its own, in the order the answers came.
 */
async function everyRead(t: CheckContext, own = 1): Promise<Read[]> {
  const v = await realRun(t);
  for (let i = 1; i <= own; i++) await readAgain(t, v.runId, `read the run again (${i} of ${own})`);
  return journalReads(t, v.runId);
}

/**
 * Whether `a` is known to come before `b`: answered before `b` was sent. Two reads in flight together
 * may have been served in either order, so neither is known to come first.
 */
export function before(a: Read, b: Read): boolean {
  if (a.answered !== undefined && b.sent !== undefined) return a.answered < b.sent;
  return a.n < b.n;
}

/**
 * The first read whose counter is below that of a read known to come before it: the pair (highest
 * earlier, later), or undefined when the counter never goes down. Reads without the counter are left
 * to the schema check.
 */
export function firstDecrease(
  reads: readonly Read[],
  value: (r: Read) => bigint | undefined,
): { prev: Counted; now: Counted } | undefined {
  const counted = reads.flatMap((r) => {
    const v = value(r);
    return v === undefined ? [] : [{ value: v, r }];
  });
  for (const now of counted) {
    let prev: Counted | undefined;
    for (const c of counted) if (before(c.r, now.r) && (prev === undefined || c.value > prev.value)) prev = c;
    if (prev !== undefined && now.value < prev.value) return { prev, now };
  }
  return undefined;
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

/**
 * A check that judges every read of the shared real run the certification made, by the setup and by
 * every other check, after `own` reads of its own (everyRead): it starts once all others have ended.
 */
export function everyReadCheck(
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec'>,
  judge: (t: CheckContext, reads: Read[]) => Promise<void> | void,
  own = 1,
): CheckDefinition {
  return { ...realRunCheckOf(def, (t) => everyRead(t, own), judge), afterOthers: true };
}

/** A progress counter's value at one read of a run. */
export interface Counted {
  value: bigint;
  r: Read;
}

/**
 * A progress counter never decreases over `reads` (the journal of every read): one assertion, failed
 * with the first read below a read known to come before it.
 */
export function expectNoDecrease(
  t: CheckContext,
  counter: 'screened' | 'confirmed',
  counts: string,
  reads: readonly Read[],
): boolean {
  const drop = firstDecrease(reads, (r) => progressOf(r.run)[counter]);
  return t.expect.that(
    drop === undefined,
    {
      message: drop
        ? `progress.${counter} went from ${drop.prev.value} (${where(drop.prev.r)}) down to ${drop.now.value} (${where(drop.now.r)}), over the ${reads.length} reads of the run the certification made; ${counter} counts ${counts}`
        : '',
      spec: S.run,
      expected: `>= ${drop?.prev.value ?? 0n}`,
      received: (drop?.now.value ?? 0n).toString(),
      pointer: `/progress/${counter}`,
    },
    drop?.now.r.res,
  );
}

export function where(r: Read): string {
  if (r.n <= 0) return 'a later read';
  const label = r.sent === undefined ? undefined : r.res.exchange.label;
  return label ? `read #${r.n} ("${label}")` : `read #${r.n}`;
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
