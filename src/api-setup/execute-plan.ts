// The execute step of a certification: the plan's skips settled and reported at once, then its checks
// run concurrently (those with `afterOthers` once every other has ended), each result shown to the live
// console as it ends (a redacted preview, never written) and kept as it is for the one redaction of
// the whole result (certify.ts). A forced end records the checks still running `interrupted`.

import { setMaxListeners } from 'node:events';
import type { Redactor } from '../config/redact.js';
import { decideOutcome, outcomeFields, type SkipDecision } from '../runner/outcome.js';
import type { ProgressListener } from '../runner/progress.js';
import type { CheckResult } from '../runner/results.js';
import { runConcurrently } from '../runner/schedule.js';
import type { CertificationPlan } from './certify-plan.js';
import type { CheckDefinition } from './check.js';
import { EXPLORE_SUITE } from './exploration.js';
import { asGateResult } from './gate-profile.js';

/**
 * When every check but the exploration's has ended, the exploration sends the rest of its cases within
 * its grace from that moment, and nothing after it (suites/explore/spare-budget.ts). `signal` is
 * absent when no other check runs (nothing to protect).
 */
export function othersEndedCue(run: CertificationPlan['run']): {
  signal: AbortSignal | undefined;
  ended(id: string): void;
} {
  const othersEnded = new AbortController();
  // Every generated request waiting for spare budget listens for it.
  setMaxListeners(0, othersEnded.signal);
  // The checks that start after all others are not waited for: they start only once the exploration ended.
  const others = new Set(
    run.filter(({ check }) => check.suite !== EXPLORE_SUITE && !check.afterOthers).map(({ check }) => check.id),
  );
  let othersLeft = others.size;
  return {
    ...(othersLeft > 0 ? { signal: othersEnded.signal } : { signal: undefined }),
    // The reason is the time: the exploration's grace (spare-budget.ts) runs from it.
    // Told twice for a check that said it only watches, then ended: counted once.
    ended: (id) => void (others.delete(id) && --othersLeft === 0 && othersEnded.abort(Date.now())),
  };
}

export interface ExecuteInput {
  plan: CertificationPlan;
  reporters: readonly ProgressListener[];
  redactor: Redactor;
  gate: boolean;
  concurrency: number;
  signal: AbortSignal;
  force: AbortSignal | undefined;
  /** Told of each check's end, before its preview is shown, and earlier when it says it only watches. */
  onEnded(id: string): void;
  /** Runs one check of the plan (the caller adds when it started); `onlyWatching` is the check's own. */
  run(check: CheckDefinition, reservedCodes: string[], onlyWatching: () => void): Promise<CheckResult>;
}

export async function executePlan(input: ExecuteInput): Promise<CheckResult[]> {
  const { plan, reporters, signal } = input;
  const results: CheckResult[] = [];
  const ended = new Set<string>();
  let closed = false;
  const finish = (result: CheckResult): void => {
    // After a forced end, a check that finishes late is not recorded twice.
    if (closed || ended.has(result.id)) return;
    ended.add(result.id);
    input.onEnded(result.id);
    const kept = input.gate ? asGateResult(result) : result;
    results.push(kept);
    // The console's preview: redacted with the secrets known so far. Only the live console reads
    // it; what is written is redacted once, as a whole, when every secret is known.
    const preview = input.redactor.value(kept);
    for (const r of reporters) r.onCheckEnd?.(preview);
  };
  // Skips are settled up front and reported at once.
  for (const { check, skip } of plan.skipped) {
    for (const r of reporters) r.onCheckStart?.(check.id);
    finish(skippedResult(check, skip));
  }
  const all = runAfterOthersLast(plan.run, input.concurrency, async ({ check, reservedCodes }, quiet) => {
    for (const r of reporters) r.onCheckStart?.(check.id);
    if (signal.aborted) {
      const reason = 'not run: the certification was interrupted (SIGINT/SIGTERM)';
      finish(skippedResult(check, { kind: 'interrupted', reason }));
      return;
    }
    const onlyWatching = (): void => {
      quiet();
      input.onEnded(check.id);
    };
    finish(await input.run(check, reservedCodes, onlyWatching));
  });
  await untilForced(all, input.force);
  for (const { check } of plan.run) {
    if (!ended.has(check.id))
      finish(
        skippedResult(check, {
          kind: 'interrupted',
          reason: 'interrupted: a second signal ended the certification before this check did',
        }),
      );
  }
  closed = true;
  return results;
}

/** Resolves when every check ended, or at once on a second signal (the checks still running are left behind). */
function untilForced(all: Promise<void>, force: AbortSignal | undefined): Promise<void> {
  if (!force) return all;
  if (force.aborted) return Promise.resolve();
  return Promise.race([
    all,
    new Promise<void>((done) => force.addEventListener('abort', () => done(), { once: true })),
  ]);
}

export function skippedResult(c: CheckDefinition, skip: SkipDecision): CheckResult {
  return {
    id: c.id,
    title: c.title,
    suite: c.suite,
    spec: [...c.spec],
    ...outcomeFields(decideOutcome({ declaration: c, ending: { kind: 'done' }, asserted: 0, observations: [], skip })),
    durationMs: 0,
    observations: [],
    exchanges: [],
    ...(c.advisory ? { advisory: true as const } : {}),
    evidence: c.evidence,
  };
}

/**
 * Runs the plan's checks concurrently, those with `afterOthers` only once all the others have ended or
 * said they only watch (`quiet`): a quiet window of one then runs beside those of the last ones.
 */
async function runAfterOthersLast<T extends { check: { afterOthers?: true } }>(
  items: readonly T[],
  limit: number,
  run: (item: T, quiet: () => void) => Promise<void>,
): Promise<void> {
  const first = items.filter(({ check }) => !check.afterOthers);
  let left = first.length;
  let openGate = (): void => undefined;
  const othersQuiet = new Promise<void>((resolve) => (openGate = resolve));
  if (left === 0) openGate();
  const firstDone = runConcurrently(first, limit, async (item) => {
    let counted = false;
    const quiet = (): void => {
      if (counted) return;
      counted = true;
      if (--left === 0) openGate();
    };
    try {
      await run(item, quiet);
    } finally {
      quiet();
    }
  });
  // A first check that throws ends the wait as well (firstDone rejects; the error is the engine's).
  await Promise.race([othersQuiet, firstDone]);
  await Promise.all([
    firstDone,
    runConcurrently(
      items.filter(({ check }) => check.afterOthers),
      limit,
      (item) => run(item, () => undefined),
    ),
  ]);
}
