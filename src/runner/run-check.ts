// Runs one check: its own recorder, assertions, budget and abort signal. Maps the outcome to a
// status: a failure observation → failed; t.skip or SkipCheck → skipped; only warning observations →
// warning; SetupFailure → failed (the one deliberate exception); any other exception or an overrun
// budget → error. Never throws.

import type { ApiClient, RequestSpec } from '../http/types.js';
import { Budget } from './budget.js';
import type { CheckContext, CheckDefinition, SharedSetup, TargetInfo } from './check.js';
import { createExpect, type SchemaIssueLike } from './expect.js';
import type { CheckResult, Observation, RecordedExchange } from './results.js';
import { abortableSleep, type SharedSetupCore, type SetupClientFactory } from './shared-setup.js';
import { SetupFailure } from './setup-failure.js';
import { SkipCheck } from './skip-check.js';

export const DEFAULT_CHECK_TIMEOUT_MS = 60_000;
/** Added to every budget: the check's own bookkeeping and a slow machine. */
export const DEFAULT_MARGIN_MS = 30_000;

export interface CheckRunEnv {
  target: TargetInfo;
  inputs: CheckContext['inputs'];
  engine: SetupClientFactory;
  setup: SharedSetupCore;
  reservedCodes: string[];
  webhooks?: CheckContext['webhooks'];
  validate(schemaName: string, value: unknown): SchemaIssueLike[];
  marginMs: number;
  onProgress(id: string, message: string): void;
  /** The certification's signal (Ctrl-C). */
  signal: AbortSignal;
}

function budgetMs(check: CheckDefinition, timeScale: number, marginMs: number): number {
  return (check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) / timeScale + marginMs;
}

export async function runCheck(check: CheckDefinition, env: CheckRunEnv): Promise<CheckResult> {
  const started = Date.now();
  const exchanges: RecordedExchange[] = [];
  const indexOf = new Map<RecordedExchange, number>();
  const observations: Observation[] = [];
  let skipReason: string | undefined;

  const record = (ex: RecordedExchange, setupLabel: boolean): void => {
    if (indexOf.has(ex)) return;
    const index = exchanges.length;
    const label = setupLabel && !(ex.label ?? '').startsWith('setup') ? `setup: ${ex.label ?? ''}` : ex.label;
    indexOf.set(ex, index);
    exchanges.push({ ...ex, index, ...(label !== undefined ? { label } : {}) });
  };

  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(env.signal.reason);
  if (env.signal.aborted) controller.abort(env.signal.reason);
  else env.signal.addEventListener('abort', onOuterAbort, { once: true });

  const total = budgetMs(check, env.target.timeScale, env.marginMs);
  const budget = new Budget(total);

  const inner = env.engine.client((ex) => record(ex, false), { signal: controller.signal });
  const request = (spec: RequestSpec) => budget.paused(() => inner.request(spec));
  const api: ApiClient = {
    request,
    get: (path, opts) => request({ ...opts, method: 'GET', path }),
    post: (path, body, opts) => request({ ...opts, method: 'POST', path, body }),
  };

  const view = env.setup.forCheck((list) => list.forEach((ex) => record(ex, true)), env.reservedCodes, api);
  const setup: SharedSetup = {
    org: () => budget.paused(view.org),
    secondOrg: () => budget.paused(view.secondOrg),
    user: () => budget.paused(view.user),
    job: () => budget.paused(view.job),
    fixtureRun: (fixture, o) => budget.paused(() => view.fixtureRun(fixture, o)),
    realRun: () => budget.paused(view.realRun),
    // Through the check's api: its request is paused like any other.
    startRun: view.startRun,
    webhookTrio: () => budget.paused(view.webhookTrio),
    typedRedemption: () => budget.paused(view.typedRedemption),
    plannedCode: view.plannedCode,
    codeShortage: view.codeShortage,
    takeActivationCode: view.takeActivationCode,
    uniqueId: view.uniqueId,
    occurredAt: view.occurredAt,
  };

  const expect = createExpect({
    baseUrl: env.target.baseUrl,
    validate: env.validate,
    observe(obs, ex) {
      const index = ex ? indexOf.get(ex) : undefined;
      observations.push({ ...obs, ...(index !== undefined ? { exchange: index } : {}) });
    },
  });

  const ctx: CheckContext = {
    target: env.target,
    inputs: env.inputs,
    api,
    setup,
    expect,
    skip(reason) {
      skipReason ??= reason;
    },
    sleep: (specMs) => abortableSleep(specMs / env.target.timeScale, controller.signal),
    progress: (message) => env.onProgress(check.id, message),
    signal: controller.signal,
    ...(env.webhooks ? { webhooks: env.webhooks } : {}),
  };

  type Outcome = { kind: 'done' } | { kind: 'threw'; error: unknown } | { kind: 'timeout' };
  let outcome: Outcome;
  try {
    outcome = await Promise.race([
      Promise.resolve()
        .then(() => check.run(ctx))
        .then(
          (): Outcome => ({ kind: 'done' }),
          (error: unknown): Outcome => ({ kind: 'threw', error }),
        ),
      budget.expired.then((): Outcome => ({ kind: 'timeout' })),
    ]);
  } finally {
    budget.stop();
    env.signal.removeEventListener('abort', onOuterAbort);
  }
  if (outcome.kind === 'timeout') controller.abort(new Error('time budget overrun'));

  const base = {
    id: check.id,
    title: check.title,
    suite: check.suite,
    spec: [...check.spec],
    durationMs: Date.now() - started,
    observations,
    exchanges,
  };

  if (outcome.kind === 'timeout') {
    const specS = (check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) / 1000;
    const message =
      `check overran its time budget of ${fmtSeconds(total)} (${specS} s of spec time ÷ time scale ${env.target.timeScale} + ${fmtSeconds(env.marginMs)} margin; ` +
      'time waiting for HTTP answers and shared setup not counted)';
    return { ...base, status: 'error', message, error: { name: 'CheckTimeout', message } };
  }
  if (outcome.kind === 'threw') {
    const e = outcome.error;
    if (e instanceof SetupFailure) {
      if (e.response) record(e.response.exchange, true);
      const index = e.response ? indexOf.get(e.response.exchange) : undefined;
      observations.unshift({ message: e.message, spec: e.spec, ...(index !== undefined ? { exchange: index } : {}) });
      return { ...base, status: 'failed', message: e.message };
    }
    if (e instanceof SkipCheck) return { ...base, status: 'skipped', message: e.message };
    const err = e instanceof Error ? e : new Error(String(e));
    return {
      ...base,
      status: 'error',
      message: `engine error: ${err.name}: ${err.message}`,
      error: { name: err.name, message: err.message, ...(err.stack ? { stack: err.stack } : {}) },
    };
  }
  // Any failure wins; a skip (the check could not finish) wins over warnings seen before it.
  const firstFailure = observations.find((o) => o.severity !== 'warning');
  if (firstFailure) return { ...base, status: 'failed', message: firstFailure.message };
  if (skipReason !== undefined) return { ...base, status: 'skipped', message: skipReason };
  if (observations.length > 0) return { ...base, status: 'warning', message: observations[0]!.message };
  return { ...base, status: 'passed', message: '' };
}

function fmtSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
