// One certification, usable in-process (tests, the fault matrix) and by `svc-certify run`: the thin
// orchestrator of a plan. It learns what only the target can tell (pre-flight, the environment),
// plans (src/api-setup/certify-plan.ts: a pure function of the checks and what this certification has),
// then executes: settles the skips, runs the checks against the shared setup, assembles the RunResult
// and feeds the reporters live events. It lives beside the API's setup, not in the engine, because it
// builds that setup and asks the target API questions (pre-flight, environment probes) of its own. The target must already exist: the CLI starts the embedded sandbox
// before calling this, and writes the reports after it.

import { setMaxListeners } from 'node:events';
import type { Config } from '../config/config.js';
import { redactedConfig } from '../config/redacted-config.js';
import { createRedactor } from '../config/redact.js';
import { namedSecret, rememberSecrets, secretsOfConfig } from '../config/secret-options.js';
import { createHttpEngine } from '../http/client.js';
import type { ProgressListener } from '../runner/progress.js';
import { isSchemaName, judgeAgainst } from '../schema/validator.js';
import { gateLargeAnswers } from '../runner/answer-gate.js';
import type { ReceivedDelivery, WebhookReceiver } from '../webhook/receiver.js';
import type { CheckContext, CheckDefinition, TargetInfo } from './check.js';
import { needStateOf, planCertification, primaryOnlyPlan } from './certify-plan.js';
import { asGateResult, certificationOnlyOf } from './gate-profile.js';
import { toolVersion } from '../runner/tool-files.js';
import { startOwnReceiver } from './own-receiver.js';
import { behaviourOf, decideEnvironment, probeBehaviour } from './environment-evidence.js';
import { preflight, PreflightInterrupted, type PreflightResult } from './preflight.js';
import { sortChecks } from '../runner/registry.js';
import { createRunRegistry } from './run-registry.js';
import { assembleResult } from '../runner/assemble-result.js';
import type { CheckResult, EnvironmentEvidence, Notice, RunResult, RunTimeline } from '../runner/results.js';
import { envelopeOf, trafficTimeline } from '../runner/timeline-record.js';
import { DEFAULT_MARGIN_MS } from '../runner/run-check.js';
import { runApiCheck } from './run-api-check.js';
import { decideOutcome, outcomeFields, type SkipDecision } from '../runner/outcome.js';
import { runConcurrently } from '../runner/schedule.js';
import { SharedSetupCore } from './shared-setup.js';
import { journalRunReads, RunReadJournal } from './run-read-journal.js';
import { loadSpec } from '../spec/spec-file.js';
import { EXPLORE_SUITE, explorationCuts, explorationRequests } from './exploration.js';
import { specDigest } from '../spec/spec-digest.js';

// Checks spend their time waiting (on the target, on polls, on webhook deliveries); the request rate
// is bounded by the shared pacer, not by this cap. A low cap queued the checks that follow the real
// run behind long webhook waits and stretched the wall time far past the critical path.
const DEFAULT_CONCURRENCY = 64;

export interface CertifyOptions {
  /** Resolved configuration; `baseUrl` and `partnerKey` must be set (the CLI fills them for the embedded sandbox). */
  config: Config;
  checks: readonly CheckDefinition[];
  suiteOrder: readonly string[];
  /** Told of every start, progress and end while the checks run (the reporters). */
  reporters?: ProgressListener[];
  /** The target is the sandbox this process started. */
  embedded?: boolean;
  /** A receiver already running and registered (embedded mode); otherwise one is started when config.webhookSecret is set. */
  webhooks?: { receiver: WebhookReceiver; publicUrl: string };
  concurrency?: number;
  /** Added to every check's time budget (default 30 s). */
  marginMs?: number;
  /** SIGINT/SIGTERM: start nothing new, abort running checks, end them `interrupted`. */
  signal?: AbortSignal;
  /** A second signal: stop waiting for running checks; those not ended yet are recorded `interrupted`. */
  force?: AbortSignal;
}

export async function certify(options: CertifyOptions): Promise<RunResult> {
  const { config } = options;
  if (!config.baseUrl || !config.partnerKey)
    throw new Error('certify: config.baseUrl and config.partnerKey are required');
  const baseUrl = config.baseUrl;
  const startedAt = new Date();
  // Read (and cached) now, so a package without its spec copy fails before the first request.
  loadSpec();
  const registry = createRunRegistry(options.checks, options.suiteOrder);
  const selected = registry.select({ suites: config.suites, grep: config.grep });
  const signal = options.signal ?? new AbortController().signal;
  // Every running check and setup step listens for the abort: far more than the default 10.
  setMaxListeners(0, signal);

  const redactor = createRedactor(secretsOfConfig(config));
  // The CLI's last-resort scrub of an unexpected error knows them too, org tokens learned later included.
  rememberSecrets(redactor.secrets());
  redactor.onAdd((secret) => rememberSecrets([secret]));
  let setup: SharedSetupCore | undefined;
  const version = toolVersion();
  const engine = createHttpEngine({
    baseUrl,
    partnerKey: config.partnerKey,
    orgToken: () => setup?.orgToken(),
    redactor,
    ratePerMinute: config.rateLimit,
    timeScale: config.timeScale,
    userAgent: `svc-certify/${version}`,
  });
  // Checks and shared setup share one gate: a target of huge answers is read a few at a time.
  const gated = gateLargeAnswers(engine);
  // Every read of the shared real run, by the setup or any check, for the checks that judge them all.
  const journal = new RunReadJournal();
  const journaled = journalRunReads(gated, journal);

  let ownReceiver: WebhookReceiver | undefined;
  try {
    let pre: PreflightResult;
    try {
      // Through the gate: a large pre-flight answer closes it before the 64 checks start.
      pre = await preflight(
        gated.client(() => undefined, { signal }),
        baseUrl,
        signal,
      );
    } catch (e) {
      if (!(e instanceof PreflightInterrupted)) throw e;
      return interruptedBeforeStart(options, config, baseUrl, startedAt, selected);
    }
    let webhooks = options.webhooks;
    if (!webhooks && config.webhookSecret) {
      webhooks = await startOwnReceiver(config, config.webhookSecret);
      ownReceiver = webhooks.receiver;
    }
    const hasOrgToken = config.orgToken !== undefined;
    setup = new SharedSetupCore({
      engine: journaled,
      journal,
      baseUrl,
      orgToken: config.orgToken,
      // The primary code only, until the checks are planned (replan below): the probes may need its organization.
      codes: primaryOnlyPlan(config.activationCodes, hasOrgToken),
      ...(config.userRole !== undefined ? { userRole: config.userRole } : {}),
      onSecret: (token) => redactor.add(namedSecret('orgToken', token)),
      timeScale: config.timeScale,
      ...(webhooks
        ? {
            receiver: webhooks.receiver,
            webhookPath: { publicUrl: webhooks.publicUrl, announcedUnregistered: config.noWebhookRegistered === true },
          }
        : {}),
      signal,
      ...(config.gate ? { gate: true } : {}),
    });
    let environmentEvidence: EnvironmentEvidence | undefined;
    let environment: 'sandbox' | 'production';
    if (config.environment === 'auto') {
      environmentEvidence = await gatherEvidence(
        engine,
        setup,
        pre,
        config.partnerKey,
        selected.some((c) => c.needs?.includes('org')),
        signal,
      );
      environment = decideEnvironment(environmentEvidence);
    } else {
      environment = config.environment;
    }

    const plan = planCertification({
      checks: selected,
      state: needStateOf(config, { environment, webhookReceiver: webhooks !== undefined }),
      codes: config.activationCodes,
      ...(config.gate ? { gate: true } : {}),
    });
    setup.replan(plan.codes, environment);

    const target: TargetInfo = {
      baseUrl,
      environment,
      timeScale: config.timeScale,
      embedded: options.embedded ?? false,
      rateLimit: config.rateLimit,
      ...(environmentEvidence ? { environmentEvidence } : {}),
    };
    // When every check but the exploration's has ended, the exploration sends the rest of its cases
    // within its grace from that moment, and nothing after it (suites/explore/spare-budget.ts).
    const othersEnded = new AbortController();
    // Every generated request waiting for spare budget listens for it.
    setMaxListeners(0, othersEnded.signal);
    // The checks that start after all others are not waited for: they start only once the exploration ended.
    const others = new Set(
      plan.run.filter(({ check }) => check.suite !== EXPLORE_SUITE && !check.afterOthers).map(({ check }) => check.id),
    );
    let othersLeft = others.size;
    const cuts = explorationCuts();
    const inputs: CheckContext['inputs'] = {
      partnerKey: config.partnerKey,
      ...(config.expiredCode ? { expiredCode: config.expiredCode } : {}),
      ...(config.disabledOrgToken ? { disabledOrgToken: config.disabledOrgToken } : {}),
      ...(config.disabledPartnerKey ? { disabledPartnerKey: config.disabledPartnerKey } : {}),
      ...(config.otherPartnerKey ? { otherPartnerKey: config.otherPartnerKey } : {}),
      ...(config.webhookSecret ? { webhookSecret: config.webhookSecret } : {}),
      maxSpendCredits: config.maxSpendCredits,
      ...(config.realNamesEnabled ? { realNamesEnabled: true } : {}),
      ...(config.watchRetries ? { watchRetries: true } : {}),
      // The exploration fills what the other checks leave of the rate budget, while they run.
      ...(config.explore > 0
        ? {
            explore: {
              requests: config.explore,
              seed: config.seed,
              ...(othersLeft > 0 ? { stop: othersEnded.signal } : {}),
              onCut: cuts.onCut,
            },
          }
        : {}),
    };
    const reporters = options.reporters ?? [];
    const resultTarget: RunResult['target'] = {
      baseUrl,
      environment,
      embedded: target.embedded,
      ...(environmentEvidence ? { environmentEvidence } : {}),
    };
    // Only suites with a selected check, so reports show no empty groups.
    const suites = options.suiteOrder.filter((s) => selected.some((c) => c.suite === s));
    for (const r of reporters) {
      r.onRunStart?.({
        checks: selected.map((c) => ({ id: c.id, title: c.title, suite: c.suite })),
        suites,
        target: resultTarget,
      });
    }

    const results: CheckResult[] = [];
    const ended = new Set<string>();
    let closed = false;
    const finish = (result: CheckResult): void => {
      // After a forced end, a check that finishes late is not recorded twice.
      if (closed || ended.has(result.id)) return;
      ended.add(result.id);
      // The reason is the time: the exploration's grace runs from it.
      if (others.has(result.id) && --othersLeft === 0) othersEnded.abort(Date.now());
      const clean = redactor.value(config.gate ? asGateResult(result) : result);
      results.push(clean);
      for (const r of reporters) r.onCheckEnd?.(clean);
    };
    // Skips are settled up front and reported at once.
    for (const { check, skip } of plan.skipped) {
      for (const r of reporters) r.onCheckStart?.(check.id);
      finish(skippedResult(check, skip));
    }

    const core = setup;
    // The checks with afterOthers start once every other check has ended (they judge what the others did).
    const all = runAfterOthersLast(
      plan.run,
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async ({ check, reservedCodes }) => {
        for (const r of reporters) r.onCheckStart?.(check.id);
        if (signal.aborted) {
          finish(
            skippedResult(check, {
              kind: 'interrupted',
              reason: 'not run: the certification was interrupted (SIGINT/SIGTERM)',
            }),
          );
          return;
        }
        const startedMs = Date.now() - startedAt.getTime();
        const result = await runApiCheck(check, {
          target,
          inputs,
          engine: journaled,
          setup: core,
          reservedCodes,
          ...(webhooks ? { webhooks } : {}),
          validate: (name, value) => {
            if (!isSchemaName(name)) throw new Error(`check ${check.id} names unknown schema "${name}"`);
            return judgeAgainst(name, value);
          },
          marginMs: options.marginMs ?? DEFAULT_MARGIN_MS,
          onProgress: (id, message) => {
            const clean = redactor.text(message);
            for (const r of reporters) r.onCheckProgress?.(id, clean);
          },
          signal,
        });
        finish({ ...result, startedMs });
      },
    );
    await untilForced(all, options.force);
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

    const stats = engine.stats();
    const result: RunResult = {
      ...assembleResult({
        spec: specDigest(),
        certification: 'run',
        config: redactedConfig(config),
        target: resultTarget,
        startedAt,
        suites,
        checks: sortChecks(results, options.suiteOrder),
      }),
      // Real runs as the shared setup counted them where they were started (its own, and checks' startRun).
      stats: {
        requests: stats.requests,
        realRuns: core.realRunCount(),
        rateLimited: stats.rateLimited,
        exploreRequests: explorationRequests(results),
      },
      // Only where the exploration was selected: a selection without it has no seed to replay.
      ...(results.some((r) => r.suite === EXPLORE_SUITE)
        ? { exploration: { seed: config.seed, cap: config.explore, sent: explorationRequests(results) } }
        : {}),
      ...selectionOf(config, options.checks.length, selected.length),
      // The gate's certification-only checks, as every report lists them (api-setup/gate-profile.ts).
      ...(config.gate
        ? { gate: { certificationOnly: certificationOnlyOf(sortChecks(results, options.suiteOrder)) } }
        : {}),
      ...noticesOf([...engine.notices(), cuts.notice(explorationRequests(results), config.explore)]),
      timeline: runTimeline(engine.sendTimes(), webhooks?.receiver.deliveries() ?? [], startedAt, config.timeScale),
    };
    // Redacted once more as a whole: org tokens learned late must not survive in early records.
    // The caller writes the reports (src/cli/report-options.ts), after applying the baseline.
    return redactor.value(result);
  } finally {
    await ownReceiver?.close().catch(() => undefined);
    await engine.close().catch(() => undefined);
  }
}

/**
 * The header's word and the behaviour's. The probes need the primary organization: with --org-token it
 * exists; otherwise its code is redeemed now (the shared setup's org step, memoized, so no code is
 * spent twice), but only when some selected check needs the organization anyway.
 */
async function gatherEvidence(
  engine: ReturnType<typeof createHttpEngine>,
  setup: SharedSetupCore,
  pre: PreflightResult,
  partnerKey: string,
  orgNeeded: boolean,
  signal: AbortSignal,
): Promise<EnvironmentEvidence> {
  const signals = [
    `the pre-flight answer (${pre.status}) ${pre.environment === 'sandbox' ? 'carries' : 'lacks'} x-svc-environment: sandbox`,
  ];
  const evidence: EnvironmentEvidence = { header: pre.environment, signals };
  if (!orgNeeded && setup.orgToken() === undefined) return evidence;
  const org = await setup.orgStep().promise.catch(() => undefined);
  if (!org) return evidence;
  // The probes carry the certification's signal: a target that stops answering after the pre-flight
  // must not hold an interrupt for the whole request time-out. Cut short, they tell nothing, and every
  // check then ends interrupted.
  const probe = await probeBehaviour(
    engine.client(() => undefined, { signal }),
    org.orgToken,
    partnerKey,
  ).catch((e: unknown) => {
    if (signal.aborted) return undefined;
    throw e;
  });
  if (!probe) return evidence;
  signals.push(...probe.signals);
  const behaviour = behaviourOf(probe.votes);
  return behaviour ? { ...evidence, behaviour } : evidence;
}

/** The requests per rate window and the deliveries the receiver saw, on the certification's clock. */
function runTimeline(
  sendTimes: readonly number[],
  received: readonly ReceivedDelivery[],
  startedAt: Date,
  timeScale: number,
): RunTimeline {
  const seen = received.map((d) => {
    const { eventId, event, occurredAt } = envelopeOf(d.json);
    return {
      eventId,
      event,
      ...(occurredAt !== undefined ? { sentAt: occurredAt } : {}),
      receivedAt: d.receivedAt,
      status: d.answeredStatus,
    };
  });
  return trafficTimeline(sendTimes, seen, startedAt.getTime(), Date.now(), timeScale);
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

/** The notices given, absent when there are none (results.json carries `notices` only when some bound was reached). */
function noticesOf(given: ReadonlyArray<Notice | undefined>): Pick<RunResult, 'notices'> {
  const notices = given.filter((n): n is Notice => n !== undefined);
  return notices.length > 0 ? { notices } : {};
}

function selectionOf(config: Config, catalogue: number, selected: number): Pick<RunResult, 'selection'> {
  const deselected = catalogue - selected;
  if (deselected <= 0) return {};
  return { selection: { suites: [...config.suites], ...(config.grep ? { grep: config.grep } : {}), deselected } };
}

/** A signal during the pre-flight: nothing ran, every selected check is interrupted. */
function interruptedBeforeStart(
  options: CertifyOptions,
  config: Config,
  baseUrl: string,
  startedAt: Date,
  selected: readonly CheckDefinition[],
): RunResult {
  const suites = options.suiteOrder.filter((s) => selected.some((c) => c.suite === s));
  const checks = selected.map((c) =>
    skippedResult(c, {
      kind: 'interrupted',
      reason: 'not run: the certification was interrupted during the pre-flight',
    }),
  );
  return assembleResult({
    spec: specDigest(),
    certification: 'run',
    config: redactedConfig(config),
    target: { baseUrl, environment: 'unknown', embedded: options.embedded ?? false },
    startedAt,
    suites,
    checks: sortChecks(checks, options.suiteOrder),
  });
}

function skippedResult(c: CheckDefinition, skip: SkipDecision): CheckResult {
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

/** Runs the plan's checks concurrently, those with `afterOthers` only once all the others have ended. */
async function runAfterOthersLast<T extends { check: { afterOthers?: true } }>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  await runConcurrently(
    items.filter(({ check }) => !check.afterOthers),
    limit,
    run,
  );
  await runConcurrently(
    items.filter(({ check }) => check.afterOthers),
    limit,
    run,
  );
}
