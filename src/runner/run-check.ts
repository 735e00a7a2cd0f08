// Runs one check: its own record, budget and abort signal, then lets decideOutcome (outcome.ts, shared
// by every command) decide its status from how it ended: a FailedStep is a failure observation (the one
// deliberate exception), a SkipCheck (or what the command maps to a skip) a skip of its kind, the
// certification's signal an `interrupted` skip, any other exception or an overrun budget an error, and a
// check that asserted nothing an error too. Never throws. What the check's context holds is the
// command's to build from the tools given here (the API's: src/api-setup/run-api-check.ts).

import type { ApiClient, ApiResponse, RequestSpec } from '../http/types.js';
import { Budget } from './budget.js';
import { DEFAULT_CHECK_TIMEOUT_MS, type CheckControls, type CheckDefinition } from './check.js';
import { createCheckRecord, type CheckRecord } from './check-record.js';
import { endingOf, type Raw } from './check-ending.js';
import type { ClientFactory } from './client-factory.js';
import { withLazyJson } from './lazy-json.js';
import { decideOutcome, outcomeFields, type SkipDecision } from './outcome.js';
import type { CheckResult, RecordedExchange, SkipKind } from './results.js';
import { abortableSleep } from './abortable-sleep.js';

/** Added to every budget: the check's own bookkeeping and a slow machine. */
export const DEFAULT_MARGIN_MS = 30_000;

/** What the engine gives a command to build a check's context from. */
interface CheckTools {
  readonly controls: CheckControls;
  /** The check's own client: recorded, outside its budget while waiting, silent once the check is settled. */
  readonly api: ApiClient;
  /** Records the exchanges of a shared step the check awaited, labelled `setup: …`. */
  attachSetup(exchanges: RecordedExchange[]): void;
  observe: CheckRecord['observe'];
  /** Told of every assertion made, held or not: a check that asserted nothing has not passed. */
  asserted(): void;
  /** Wraps a wait on a shared step: the check's budget stops meanwhile. */
  paused<T>(step: () => Promise<T>): Promise<T>;
}

export interface CheckRunEnv<Context> {
  timeScale: number;
  engine: ClientFactory;
  marginMs: number;
  onProgress(id: string, message: string): void;
  /** The certification's signal (Ctrl-C). */
  signal: AbortSignal;
  context(tools: CheckTools): Context;
  /** The command's own exceptions that skip a check (undefined: the exception is an engine error). */
  skipFor?(error: unknown): SkipDecision | undefined;
}

/** What a settled check's requests await: nothing, ever (the promise and its waiters are collected). */
const NEVER = new Promise<never>(() => undefined);

function budgetMs(check: CheckDefinition<never>, timeScale: number, marginMs: number): number {
  return (check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) / timeScale + marginMs;
}

export async function runCheck<Context>(
  check: CheckDefinition<Context>,
  env: CheckRunEnv<Context>,
): Promise<CheckResult> {
  const started = Date.now();
  const rec = createCheckRecord();
  let skip: SkipDecision | undefined;
  let asserted = 0;
  /** Observations recorded before the certification's signal: what came after is the abort's doing. */
  let beforeInterrupt: number | undefined;
  const controller = new AbortController();
  const onOuterAbort = (): void => {
    beforeInterrupt ??= rec.observations.length;
    controller.abort(env.signal.reason);
  };
  if (env.signal.aborted) onOuterAbort();
  else env.signal.addEventListener('abort', onOuterAbort, { once: true });

  const total = budgetMs(check, env.timeScale, env.marginMs);
  const budget = new Budget(total);
  const controls: CheckControls = {
    skip(reason: string | SkipDecision, kind?: SkipKind, unlock?: string) {
      skip ??=
        typeof reason === 'string'
          ? { reason, kind: kind ?? 'inconclusive', ...(unlock !== undefined ? { unlock } : {}) }
          : reason;
    },
    sleep: (specMs) => abortableSleep(specMs / env.timeScale, controller.signal),
    progress: (message) => env.onProgress(check.id, message),
    signal: controller.signal,
  };
  const context = env.context({
    controls,
    api: budgetedClient(env.engine, rec, budget, controller.signal),
    attachSetup: (list) => list.forEach((ex) => rec.record(ex, true)),
    observe: rec.observe,
    asserted: () => void (asserted += 1),
    // Checks waiting on one shared step resume each in its own turn of the event loop, not all in one
    // job: twenty checks judging every read of a hostile real run held the CPU for seconds at once,
    // and a signal is seen between them.
    paused: (step) => budget.paused(step).then((value) => new Promise((resume) => setImmediate(resume, value))),
  });

  let raw: Raw;
  try {
    raw = await raceCheck(() => check.run(context), env.signal, budget);
  } finally {
    budget.stop();
    env.signal.removeEventListener('abort', onOuterAbort);
  }
  if (raw.kind === 'timeout') controller.abort(new Error('time budget overrun'));
  const ended = endingOf(raw, { check, rec, interrupted: beforeInterrupt !== undefined, total, env });
  skip ??= ended.skip;
  rec.closeObservations();
  const outcome = decideOutcome({
    declaration: check,
    ending: ended.ending,
    asserted,
    observations: rec.observations,
    observationsBeforeInterrupt: beforeInterrupt ?? 0,
    ...(skip ? { skip } : {}),
  });
  // Copies: an interrupted check's code may still be unwinding and must not change its result.
  return {
    id: check.id,
    title: check.title,
    suite: check.suite,
    spec: [...check.spec],
    durationMs: Date.now() - started,
    observations: [...rec.observations],
    exchanges: [...rec.exchanges],
    ...(check.advisory ? { advisory: true as const } : {}),
    evidence: check.evidence,
    ...outcomeFields(outcome),
  };
}

/**
 * The check's client. Once the check is settled (interrupted, overrun) its code may still be unwinding:
 * it sends nothing more and is handed no answer to judge, so it cannot hold the CPU from the reports.
 */
function budgetedClient(engine: ClientFactory, rec: CheckRecord, budget: Budget, signal: AbortSignal): ApiClient {
  const inner = withLazyJson(
    engine.client((ex) => rec.record(ex, false), { signal }),
    signal,
  );
  const settled = (): boolean => signal.aborted;
  const request = (spec: RequestSpec): Promise<ApiResponse> =>
    settled() ? NEVER : budget.paused(() => inner.request(spec)).then((res) => (settled() ? NEVER : res));
  return {
    request,
    get: (path, opts) => request({ ...opts, method: 'GET', path }),
    post: (path, body, opts) => request({ ...opts, method: 'POST', path, body }),
  };
}

/**
 * How the check's run ended. Signals always win: an interrupted check ends now, not when its code next
 * yields (a judge busy with a 6 MB answer, or a wait), so the reports are written within the 2 s of
 * docs/design.md.
 */
async function raceCheck(run: () => Promise<void>, signal: AbortSignal, budget: Budget): Promise<Raw> {
  let stopWaiting: (() => void) | undefined;
  const interrupted = new Promise<Raw>((resolve) => {
    stopWaiting = () => resolve({ kind: 'interrupted' });
    if (signal.aborted) stopWaiting();
    else signal.addEventListener('abort', stopWaiting, { once: true });
  });
  try {
    return await Promise.race([
      interrupted,
      Promise.resolve()
        .then(run)
        .then(
          (): Raw => ({ kind: 'done' }),
          (error: unknown): Raw => ({ kind: 'threw', error }),
        ),
      budget.expired.then((): Raw => ({ kind: 'timeout' })),
    ]);
  } finally {
    if (stopWaiting) signal.removeEventListener('abort', stopWaiting);
  }
}
