// One partner certification session, apart from the sandbox it watches: the recorder and the injector
// (which the CLI plugs into the sandbox's hooks), live re-judging for the console, and the final
// RunResult (the same shape and reporters as `run`).

import { createRedactor, type Redactor } from '../config/redact.js';
import { namedSecret } from '../config/secret-options.js';
import { assembleResult } from '../runner/assemble-result.js';
import type { Notice, RunResult, RunTimeline } from '../runner/results.js';
import { trafficTimeline } from '../runner/timeline-record.js';
import { INJECTION_POINTS } from './injection-points.js';
import { createInjector, type Injector } from './injections.js';
import { judgeAll, toCheckResult, type Judged } from './judge.js';
import type { PartnerConsole } from './live-checklist.js';
import { createRecorder, type Observation, type Recorder } from './recorder.js';
import { PARTNER_SUITES, partnerRegistry, type Rule } from './rules/index.js';
import { orgTokenRule } from './rules/org-token.js';
import { issuedTokens } from './rules/secrets.js';
import type { InjectionId, JudgeContext, Traffic } from './traffic.js';
import { specDigest } from '../spec/spec-digest.js';
import type { Redacted } from '../config/redacted.js';

/** The live checklist is re-judged at most this often (ms): a busy partner must not keep the CPU busy. */
const REJUDGE_INTERVAL_MS = 250;

/**
 * …and never sooner after a judgement than this many times what it took (a judgement of 200 ms waits
 * 800 ms): under a flood the judgement grows with the traffic, and the sandbox keeps at least 4/5 of
 * the time to answer (re-judging on every request slowed it to about one request a second).
 */
const REJUDGE_COST_FACTOR = 4;

/**
 * Without a console the session judges only to learn when the one customer's other duties are judged
 * (org-token-revoked): once a second is soon enough for that, and leaves the client its CPU.
 */
const DUTIES_REJUDGE_INTERVAL_MS = 1_000;

/** The wait before the next live judgement, given what the last one took (ms). */
export function rejudgeDelayMs(lastJudgementMs: number): number {
  return Math.max(REJUDGE_INTERVAL_MS, lastJudgementMs * REJUDGE_COST_FACTOR);
}

export interface SessionOptions {
  timeScale: number;
  webhookRegistered: boolean;
  inject: boolean;
  /** Injections turned off one by one (`--skip-injection`). */
  skipInjections?: readonly InjectionId[];
  /** The provisioned secrets (partner keys, webhook secret, org tokens): redacted everywhere, looked for in URLs and bodies. */
  secrets: Array<{ value: string; envVar: string }>;
  /** Redacted configuration to record in results.json. */
  config: Record<string, unknown>;
  /** The bound on recorded (and judged) requests; MAX_RECORDED_REQUESTS unless a test sets a small one. */
  maxRecordedRequests?: number;
}

export interface PartnerSession {
  rules: readonly Rule[];
  recorder: Recorder;
  injector: Injector;
  /** Feed a sandbox observation (the CLI's `hooks.observe`). */
  observe(o: Observation): void;
  judge(final: boolean): Judged[];
  /** Shows the verdicts live: now, and again after new traffic (at most every 250 ms, and 4× the last judgement's cost apart). */
  attach(live: PartnerConsole): void;
  /** Judges every rule a last time (the live console shows the final verdicts) and returns the RunResult, redacted; the CLI writes the reports. */
  finish(opts: { baseUrl: string; environment: RunResult['target']['environment'] }): Redacted<RunResult>;
}

/** Real runs the client started (fixtures' runs, `cert-…`, are not real runs). */
function realRunsOf(traffic: Traffic): number {
  return traffic.requests.filter(
    (r) =>
      r.endpoint === 'runs-start' &&
      r.status === 202 &&
      !String((r.json as { job_external_id?: unknown } | undefined)?.job_external_id ?? '').startsWith('cert-'),
  ).length;
}

/** The session's RunResult from its final verdicts, redacted with the provisioned secrets and the issued org tokens. */
function sessionResult(
  opts: SessionOptions,
  recorder: Recorder,
  traffic: Traffic,
  judged: Judged[],
  redactor: Redactor,
  run: { startedAt: Date; baseUrl: string; environment: RunResult['target']['environment'] },
): Redacted<RunResult> {
  const { startedAt, baseUrl, environment } = run;
  const origin = new URL(baseUrl).origin;
  const durationMs = Date.now() - startedAt.getTime();
  const checks = judged.map((j) => toCheckResult(j, traffic, { origin, redactor, durationMs }));
  const beyond = recorder.unrecorded();
  const notice = judgingBoundNotice(traffic.requests.length, beyond.requests);
  const result: RunResult = {
    ...assembleResult({
      spec: specDigest(),
      certification: 'partner',
      config: opts.config,
      target: { baseUrl, environment, embedded: true },
      startedAt,
      suites: PARTNER_SUITES.filter((s) => checks.some((c) => c.suite === s)),
      checks,
    }),
    ...(notice ? { notices: [notice] } : {}),
    timeline: partnerTimeline(traffic, startedAt.getTime(), Date.now(), opts.timeScale),
    stats: {
      requests: traffic.requests.length + beyond.requests,
      realRuns: realRunsOf(traffic),
      rateLimited: traffic.requests.filter((r) => r.status === 429).length + beyond.rateLimited,
    },
  };
  return redactor.value(result);
}

/**
 * Live re-judging, never on the hot path of a request: a new record only marks the checklist stale
 * and arms one timer; the judgement runs in that timer, no sooner than rejudgeDelayMs after the end
 * of the last one. Judged live for the console, and, while org-token-revoked waits for the one
 * customer's other duties, to tell the injector when they are all judged (without a console, only until then).
 */
function createLiveJudging(
  recorder: Recorder,
  injector: Injector,
  judge: (final: boolean) => Judged[],
  liveJudged: () => Judged[],
): { attach(view: PartnerConsole): void; stop(): PartnerConsole | undefined } {
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  let live: PartnerConsole | undefined;
  let stale = false;
  let lastEnded = 0;
  let lastCostMs = 0;
  const wanted = (): boolean => live !== undefined || injector.awaitsDutiesJudged();
  const runLive = (): void => {
    const began = performance.now();
    stale = false;
    // Without a console nobody reads the verdicts' texts: only their states, unredacted, are wanted.
    const judged = live ? liveJudged() : judge(false);
    live?.update(judged);
    if (injector.awaitsDutiesJudged() && otherDutiesJudged(judged)) injector.dutiesJudged();
    lastEnded = performance.now();
    lastCostMs = lastEnded - began;
  };
  const schedule = (): void => {
    if (timer || finished || !stale || !wanted()) return;
    const wait = Math.max(0, lastEnded + rejudgeDelayMs(lastCostMs) - performance.now());
    timer = setTimeout(
      () => {
        timer = undefined;
        if (finished) return;
        runLive();
        // Traffic that came during the judgement waits for the next turn.
        schedule();
      },
      Math.max(wait, live ? REJUDGE_INTERVAL_MS : DUTIES_REJUDGE_INTERVAL_MS),
    );
    timer.unref();
  };
  recorder.onChange(() => {
    stale = true;
    schedule();
  });
  return {
    attach(view) {
      live = view;
      runLive();
    },
    stop() {
      finished = true;
      if (timer) clearTimeout(timer);
      return live;
    },
  };
}

export function createPartnerSession(opts: SessionOptions): PartnerSession {
  const startedAt = new Date();
  const known = opts.secrets.map((s) => s.value);
  // Validated like every command's checks; in the rules' own order, the report's.
  const rules = partnerRegistry(() => known, 'as-declared').checks;
  const recorder = createRecorder(
    opts.maxRecordedRequests !== undefined ? { maxRequests: opts.maxRecordedRequests } : {},
  );
  const injector = createInjector({
    timeScale: opts.timeScale,
    enabled: opts.inject,
    ...(opts.skipInjections ? { skip: opts.skipInjections } : {}),
  });
  const ctx = (final: boolean): JudgeContext => ({
    timeScale: opts.timeScale,
    webhookRegistered: opts.webhookRegistered,
    inject: opts.inject,
    final,
    now: Date.now(),
  });
  const judge = (final: boolean): Judged[] => judgeAll(rules, recorder.traffic(), ctx(final));

  // The live console prints rule messages as they are judged: redacted before they reach the
  // terminal or the CI log, with the org tokens the sandbox has issued so far.
  const liveRedactor: Redactor = createRedactor(opts.secrets);
  const liveJudged = (): Judged[] => {
    for (const token of issuedTokens(recorder.traffic())) liveRedactor.add(namedSecret('orgToken', token));
    return redactJudged(judge(false), liveRedactor);
  };
  const liveJudging = createLiveJudging(recorder, injector, judge, liveJudged);
  return {
    rules,
    recorder,
    injector,
    observe(o) {
      recorder.add(o, o.kind === 'exchange' ? injector.injectedFor(o.request.id) : undefined);
      if (o.kind === 'webhook-attempt' && !o.wrongSignature) injector.delivered(o.runId, o.startedAt);
    },
    judge,
    attach: (view) => liveJudging.attach(view),
    finish({ baseUrl, environment }) {
      const live = liveJudging.stop();
      const traffic = recorder.traffic();
      const judged = judge(true);
      const redactor: Redactor = createRedactor(opts.secrets);
      for (const token of issuedTokens(traffic)) redactor.add(namedSecret('orgToken', token));
      live?.showFinal(redactJudged(judged, redactor));
      return sessionResult(opts, recorder, traffic, judged, redactor, { startedAt, baseUrl, environment });
    },
  };
}

/** The client's traffic on the session's clock: its requests per rate window, the deliveries, the injections. */
export function partnerTimeline(traffic: Traffic, startedAtMs: number, endMs: number, timeScale: number): RunTimeline {
  const seen = traffic.deliveries.map((d) => ({
    eventId: d.eventId,
    event: d.event,
    sentAt: d.startedAt,
    receivedAt: d.answeredAt,
    status: d.status ?? 0,
  }));
  const armed = new Map(INJECTION_POINTS.map((p) => [p.id, p.arms]));
  const injections = traffic.requests
    .filter((r) => r.injected !== undefined)
    .map((r) => ({ id: r.injected!, atMs: r.at - startedAtMs, request: r.id, rule: armed.get(r.injected!) ?? '' }));
  const sendTimes = traffic.requests.map((r) => r.at);
  return {
    ...trafficTimeline(sendTimes, seen, startedAtMs, endMs, timeScale),
    ...(injections.length > 0 ? { injections } : {}),
  };
}

/**
 * Every duty but the org token's is judged (passed, warned or failed): the one customer's token may now be
 * revoked without costing a duty its evidence. Guidance, conditional rules and rules waiting for a flag
 * do not wait.
 */
function otherDutiesJudged(judged: readonly Judged[]): boolean {
  return judged.every(
    ({ rule, verdict }) =>
      rule.id === orgTokenRule.id ||
      rule.advisory === true ||
      rule.evidence === 'conditional' ||
      verdict.unlock !== undefined ||
      verdict.state !== 'pending',
  );
}

/** Verdict texts as the console shows them: every message, expectation and reception redacted. */
function redactJudged(judged: Judged[], redactor: Redactor): Judged[] {
  return judged.map((j) => ({ ...j, verdict: redactor.value(j.verdict) }));
}

/**
 * Said with the verdict when the partner sent more requests than the session records: the judgement is
 * of the first ones only, never silently of all.
 */
export function judgingBoundNotice(judged: number, unjudged: number): Notice | undefined {
  if (unjudged === 0) return undefined;
  // Thousands grouped by hand: the first toLocaleString loads ICU's data (over 100 ms, after a signal).
  const n = (x: number): string => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return {
    id: 'partner.requests-past-recording-bound',
    message: `judged the first ${n(judged)} of ${n(judged + unjudged)} requests the partner sent: a session records and judges at most ${n(judged)} (a bound on memory and on the time from a signal to the reports); the ${n(unjudged)} after them were answered and counted, not judged`,
  };
}
