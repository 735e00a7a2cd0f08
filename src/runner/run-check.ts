// Runs one check: its own recorder, assertions, budget and abort signal, then lets decideOutcome
// (outcome.ts, shared by every command) decide its status from how it ended: a SetupFailure is a
// failure observation (the one deliberate exception), a SkipCheck a skip of its kind, the
// certification's signal an `interrupted` skip, any other exception or an overrun budget an error, and
// a check that asserted nothing an error too. Never throws.

import type { ApiClient, ApiResponse, RequestSpec } from '../http/types.js';
import { Budget } from './budget.js';
import { withLazyJson } from './lazy-json.js';
import type { CheckContext, CheckDefinition, SetupProvider, TargetInfo } from './check.js';
import { createExpect, type SchemaIssueLike } from './expect.js';
import { MAX_OBSERVATIONS_PER_CHECK } from './limits.js';
import { boundedObservation, boundedText } from './observation-text.js';
import { ObservationOverflow } from './observation-overflow.js';
import { decideOutcome, outcomeFields, type Ending, type SkipDecision } from './outcome.js';
import type { CheckResult, Observation, RecordedExchange, SkipKind } from './results.js';
import type { ClientFactory } from './client-factory.js';
import { abortableSleep } from './abortable-sleep.js';
import { SetupFailure } from './setup-failure.js';
import { SkipCheck } from './skip-check.js';
import { TargetKeptItsLimit } from '../http/limit-kept.js';

/** What runs a check the target's own rate limit stopped: the limit it keeps, as --rate-limit. */
const RATE_LIMIT_UNLOCK = "--rate-limit at the target's limit for this partner";

export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;
/** Added to every budget: the check's own bookkeeping and a slow machine. */
export const DEFAULT_MARGIN_MS = 30_000;

export interface CheckRunEnv<Setup> {
  target: TargetInfo;
  inputs: CheckContext['inputs'];
  engine: ClientFactory;
  setup: SetupProvider<Setup>;
  reservedCodes: string[];
  webhooks?: CheckContext['webhooks'];
  validate(schemaName: string, value: unknown): SchemaIssueLike[];
  marginMs: number;
  onProgress(id: string, message: string): void;
  /** The certification's signal (Ctrl-C). */
  signal: AbortSignal;
}

/** What a settled check's requests await: nothing, ever (the promise and its waiters are collected). */
const NEVER = new Promise<never>(() => undefined);

function budgetMs(check: CheckDefinition, timeScale: number, marginMs: number): number {
  return (check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) / timeScale + marginMs;
}

export async function runCheck<Setup>(check: CheckDefinition<Setup>, env: CheckRunEnv<Setup>): Promise<CheckResult> {
  const started = Date.now();
  const exchanges: RecordedExchange[] = [];
  const indexOf = new Map<RecordedExchange, number>();
  const observations: Observation[] = [];
  const overflow = new ObservationOverflow();
  let skip: SkipDecision | undefined;
  let asserted = 0;
  /** Observations recorded before the certification's signal: what came after is the abort's doing. */
  let beforeInterrupt: number | undefined;

  const record = (ex: RecordedExchange, setupLabel: boolean): void => {
    // A spare request that found no budget before the other checks ended never reached the target (the
    // exploration sends the same case again in its grace): recording it would list the case twice in
    // runs where the others happened to end while it waited, and once in the rest.
    if (indexOf.has(ex) || ex.transportError?.code === 'no_spare_budget') return;
    const index = exchanges.length;
    const label = setupLabel && !(ex.label ?? '').startsWith('setup') ? `setup: ${ex.label ?? ''}` : ex.label;
    indexOf.set(ex, index);
    exchanges.push({ ...ex, index, ...(label !== undefined ? { label } : {}) });
  };

  const controller = new AbortController();
  const onOuterAbort = (): void => {
    beforeInterrupt ??= observations.length;
    controller.abort(env.signal.reason);
  };
  if (env.signal.aborted) onOuterAbort();
  else env.signal.addEventListener('abort', onOuterAbort, { once: true });

  const total = budgetMs(check, env.target.timeScale, env.marginMs);
  const budget = new Budget(total);

  const inner = withLazyJson(
    env.engine.client((ex) => record(ex, false), { signal: controller.signal }),
    controller.signal,
  );
  // Once the check is settled (interrupted, overrun) its code may still be unwinding: it sends
  // nothing more and is handed no answer to judge, so it cannot hold the CPU from the reports.
  const settled = (): boolean => controller.signal.aborted;
  const request = (spec: RequestSpec): Promise<ApiResponse> =>
    settled() ? NEVER : budget.paused(() => inner.request(spec)).then((res) => (settled() ? NEVER : res));
  const api: ApiClient = {
    request,
    get: (path, opts) => request({ ...opts, method: 'GET', path }),
    post: (path, body, opts) => request({ ...opts, method: 'POST', path, body }),
  };

  // Checks waiting on one shared step resume each in its own turn of the event loop, not all in one
  // job: twenty checks judging every read of a hostile real run held the CPU for seconds at once,
  // and a signal is seen between them.
  const paused = <T>(step: () => Promise<T>): Promise<T> =>
    budget.paused(step).then((value) => new Promise<T>((resume) => setImmediate(resume, value)));
  const setup = env.setup.forCheck((list) => list.forEach((ex) => record(ex, true)), env.reservedCodes, api, paused);

  const expect = createExpect({
    baseUrl: env.target.baseUrl,
    validate: env.validate,
    onAssert: () => {
      asserted += 1;
    },
    observe(obs, ex) {
      const index = ex ? indexOf.get(ex) : undefined;
      if (observations.length < MAX_OBSERVATIONS_PER_CHECK)
        observations.push({ ...boundedObservation(obs), ...(index !== undefined ? { exchange: index } : {}) });
      else overflow.add(obs);
    },
  });

  const ctx: CheckContext<Setup> = {
    target: env.target,
    inputs: env.inputs,
    api,
    setup,
    expect,
    skip(reason: string | SkipDecision, kind?: SkipKind, unlock?: string) {
      skip ??=
        typeof reason === 'string'
          ? { reason, kind: kind ?? 'inconclusive', ...(unlock !== undefined ? { unlock } : {}) }
          : reason;
    },
    sleep: (specMs) => abortableSleep(specMs / env.target.timeScale, controller.signal),
    progress: (message) => env.onProgress(check.id, message),
    signal: controller.signal,
    ...(env.webhooks ? { webhooks: env.webhooks } : {}),
  };

  type Raw = { kind: 'done' } | { kind: 'threw'; error: unknown } | { kind: 'timeout' } | { kind: 'interrupted' };
  // Signals always win: an interrupted check ends now, not when its code next yields (a judge busy
  // with a 6 MB answer, or a wait), so the reports are written within the 2 s of docs/design.md.
  let stopWaiting: (() => void) | undefined;
  const interrupted = new Promise<Raw>((resolve) => {
    stopWaiting = () => resolve({ kind: 'interrupted' });
    if (env.signal.aborted) stopWaiting();
    else env.signal.addEventListener('abort', stopWaiting, { once: true });
  });
  let raw: Raw;
  try {
    raw = await Promise.race([
      interrupted,
      Promise.resolve()
        .then(() => check.run(ctx))
        .then(
          (): Raw => ({ kind: 'done' }),
          (error: unknown): Raw => ({ kind: 'threw', error }),
        ),
      budget.expired.then((): Raw => ({ kind: 'timeout' })),
    ]);
  } finally {
    budget.stop();
    env.signal.removeEventListener('abort', onOuterAbort);
    if (stopWaiting) env.signal.removeEventListener('abort', stopWaiting);
  }
  if (raw.kind === 'timeout') controller.abort(new Error('time budget overrun'));

  const base = {
    id: check.id,
    title: check.title,
    suite: check.suite,
    spec: [...check.spec],
    durationMs: Date.now() - started,
    observations,
    exchanges,
    ...(check.advisory ? { advisory: true as const } : {}),
    evidence: check.evidence,
  };

  let ending: Ending;
  if (beforeInterrupt !== undefined) ending = { kind: 'interrupted' };
  else if (raw.kind === 'timeout') {
    const specS = (check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) / 1000;
    const message =
      `check overran its time budget of ${fmtSeconds(total)} (${specS} s of spec time ÷ time scale ${env.target.timeScale} + ${fmtSeconds(env.marginMs)} margin; ` +
      'time waiting for HTTP answers and shared setup not counted)';
    ending = { kind: 'timeout', message };
  } else if (raw.kind === 'threw') {
    const e = raw.error;
    if (e instanceof SetupFailure) {
      // The one deliberate exception: the target answered a shared setup step wrongly.
      if (e.response) record(e.response.exchange, true);
      const index = e.response ? indexOf.get(e.response.exchange) : undefined;
      observations.unshift({
        message: boundedText(e.message),
        spec: e.spec,
        ...(index !== undefined ? { exchange: index } : {}),
      });
      ending = { kind: 'done' };
    } else if (e instanceof TargetKeptItsLimit) {
      // The target keeping its limit is set-up (--rate-limit above it), never the target's failure.
      skip ??= { reason: boundedText(e.message), kind: 'needs-input', unlock: RATE_LIMIT_UNLOCK };
      ending = { kind: 'done' };
    } else if (e instanceof SkipCheck) {
      skip ??= {
        reason: boundedText(e.message),
        kind: e.kind,
        ...(e.unlock !== undefined ? { unlock: e.unlock } : {}),
      };
      ending = { kind: 'done' };
    } else ending = { kind: 'threw', error: e instanceof Error ? e : new Error(String(e)) };
  } else ending = { kind: 'done' };

  const more = overflow.observation(observations.length);
  if (more) observations.push(more);
  const outcome = decideOutcome({
    declaration: check,
    ending,
    asserted,
    observations,
    observationsBeforeInterrupt: beforeInterrupt ?? 0,
    ...(skip ? { skip } : {}),
  });
  // Copies: an interrupted check's code may still be unwinding and must not change its result.
  return { ...base, observations: [...observations], exchanges: [...exchanges], ...outcomeFields(outcome) };
}

function fmtSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
