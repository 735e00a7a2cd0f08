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
import { createRedactor, type Redactor } from '../config/redact.js';
import type { Redacted } from '../config/redacted.js';
import { namedSecret, rememberSecrets, secretsOfConfig } from '../config/secret-options.js';
import { createHttpEngine } from '../http/client.js';
import type { ProgressListener } from '../runner/progress.js';
import { isSchemaName, judgeAgainst } from '../schema/validator.js';
import { gateLargeAnswers } from '../runner/answer-gate.js';
import type { ReceivedDelivery, WebhookReceiver } from '../webhook/receiver.js';
import type { CheckDefinition, CheckInputs, TargetInfo } from './check.js';
import type { ClientFactory } from '../runner/client-factory.js';
import { needStateOf, planCertification, primaryOnlyPlan } from './certify-plan.js';
import { certificationOnlyOf } from './gate-profile.js';
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
import { checkInputsOf } from './check-inputs.js';
import { executePlan, othersEndedCue, skippedResult } from './execute-plan.js';
import { SharedSetupCore } from './shared-setup.js';
import { journalRunReads, RunReadJournal } from './run-read-journal.js';
import { loadSpec } from '../spec/spec-file.js';
import { EXPLORE_SUITE, explorationRequests, explorationCuts } from './exploration.js';
import { specDigest } from '../spec/spec-digest.js';
import { runStats } from './run-stats.js';

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

export async function certify(options: CertifyOptions): Promise<Redacted<RunResult>> {
  const { config } = options;
  if (!config.baseUrl || !config.partnerKey)
    throw new Error('certify: config.baseUrl and config.partnerKey are required');
  const baseUrl = config.baseUrl;
  const startedAt = new Date();
  // Read (and cached) now, so a package without its spec copy fails before the first request.
  loadSpec();
  // The suites and the text of --suite and --grep.
  const selected = createRunRegistry(options.checks, options.suiteOrder).select(config);
  const signal = abortSignalOf(options);

  let setup: SharedSetupCore | undefined;
  const { redactor, engine, gated, journal, journaled } = openHttp(config, baseUrl, config.partnerKey, () =>
    setup?.orgToken(),
  );

  let ownReceiver: WebhookReceiver | undefined;
  try {
    // Through the gate: a large pre-flight answer closes it before the 64 checks start.
    const preflightClient = gated.client(() => undefined, { signal });
    const pre = await preflightUnlessInterrupted(preflightClient, baseUrl, signal);
    if (!pre) return redactor.value(interruptedBeforeStart(options, config, baseUrl, startedAt, selected));
    const own =
      options.webhooks || !config.webhookSecret ? undefined : await startOwnReceiver(config, config.webhookSecret);
    ownReceiver = own?.receiver;
    const webhooks = options.webhooks ?? own;
    setup = sharedSetupFor(config, baseUrl, { journaled, journal, redactor }, webhooks, signal);
    const { environment, environmentEvidence } = await learnEnvironment(config, engine, setup, pre, selected, signal);

    const plan = planCertification({
      checks: selected,
      state: needStateOf(config, { environment, webhookReceiver: webhooks !== undefined }),
      codes: config.activationCodes,
      ...(config.gate ? { gate: true } : {}),
    });
    setup.replan(plan.codes, environment);

    const { target, resultTarget } = targetsOf(options, baseUrl, environment, environmentEvidence);
    const cue = othersEndedCue(plan.run);
    const cuts = explorationCuts();
    const inputs = checkInputsOf(config, config.partnerKey, cue.signal, cuts.onCut);
    const reporters = options.reporters ?? [];
    // Only suites with a selected check, so reports show no empty groups.
    const suites = options.suiteOrder.filter((s) => selected.some((c) => c.suite === s));
    announceStart(reporters, selected, suites, resultTarget);

    const results = await executePlan({
      plan,
      reporters,
      redactor,
      gate: config.gate === true,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      signal,
      force: options.force,
      onEnded: cue.ended,
      run: checkRunner({ options, target, inputs, journaled, setup, webhooks, redactor, reporters, startedAt, signal }),
    });

    const result = runResultOf({
      options,
      selected,
      resultTarget,
      startedAt,
      suites,
      results,
      engine,
      setup,
      webhooks,
      cuts,
    });
    // The one redaction of what is written, over the whole result once every check has ended: an org
    // token is learned when a certification code is redeemed, which may happen after other checks
    // recorded exchanges carrying it (a shared setup step, a late redemption, a check that echoes a
    // token another check obtained), so a check redacted as it ended could still hold it in clear.
    // The caller writes the reports (src/cli/report-options.ts), after applying the baseline.
    return redactor.value(result);
  } finally {
    await ownReceiver?.close().catch(() => undefined);
    await engine.close().catch(() => undefined);
  }
}

/** The certification's abort signal (a never-aborted one without a caller's). */
function abortSignalOf(options: CertifyOptions): AbortSignal {
  const signal = options.signal ?? new AbortController().signal;
  // Every running check and setup step listens for the abort: far more than the default 10.
  setMaxListeners(0, signal);
  return signal;
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

/**
 * The certification's HTTP side: the redactor (which knows every secret, org tokens learned later
 * included), the paced engine, the gate for large answers and the journal of real-run reads.
 */
function openHttp(config: Config, baseUrl: string, partnerKey: string, orgToken: () => string | undefined) {
  const redactor = createRedactor(secretsOfConfig(config));
  // The CLI's last-resort scrub of an unexpected error knows them too, org tokens learned later included.
  rememberSecrets(redactor.secrets());
  redactor.onAdd((secret) => rememberSecrets([secret]));
  const version = toolVersion();
  const engine = createHttpEngine({
    baseUrl,
    partnerKey,
    orgToken,
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
  return { redactor, engine, gated, journal, journaled };
}

function sharedSetupFor(
  config: Config,
  baseUrl: string,
  http: Pick<ReturnType<typeof openHttp>, 'journaled' | 'journal' | 'redactor'>,
  webhooks: CertifyOptions['webhooks'],
  signal: AbortSignal,
): SharedSetupCore {
  const { journaled, journal, redactor } = http;
  const hasOrgToken = config.orgToken !== undefined;
  return new SharedSetupCore({
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
}

/** The environment as configured, or (with --environment auto) as the header and the behaviour say. */
async function learnEnvironment(
  config: Config,
  engine: ReturnType<typeof createHttpEngine>,
  setup: SharedSetupCore,
  pre: PreflightResult,
  selected: readonly CheckDefinition[],
  signal: AbortSignal,
): Promise<{ environment: 'sandbox' | 'production'; environmentEvidence?: EnvironmentEvidence }> {
  if (config.environment !== 'auto') return { environment: config.environment };
  const environmentEvidence = await gatherEvidence(
    engine,
    setup,
    pre,
    config.partnerKey!, // certify() refuses a configuration without one
    selected.some((c) => c.needs?.includes('org')),
    signal,
  );
  return { environment: decideEnvironment(environmentEvidence), environmentEvidence };
}

/** The RunResult of the checks that ran: assembled as every command's, plus what only `run` records. */
function runResultOf(input: {
  options: CertifyOptions;
  selected: readonly CheckDefinition[];
  resultTarget: RunResult['target'];
  startedAt: Date;
  suites: string[];
  results: CheckResult[];
  engine: ReturnType<typeof createHttpEngine>;
  setup: SharedSetupCore;
  webhooks: CertifyOptions['webhooks'];
  cuts: ReturnType<typeof explorationCuts>;
}): RunResult {
  const { options, engine, results } = input;
  const { config } = options;
  const http = engine.stats();
  return {
    ...assembleResult({
      spec: specDigest(),
      certification: 'run',
      config: redactedConfig(config),
      target: input.resultTarget,
      startedAt: input.startedAt,
      suites: input.suites,
      checks: sortChecks(results, options.suiteOrder),
    }),
    // Real runs as the shared setup counted them where they were started (its own, and checks' startRun).
    stats: runStats(http, { realRuns: input.setup.realRunCount(), exploreRequests: explorationRequests(results) }),
    // Only where the exploration was selected: a selection without it has no seed to replay.
    ...(results.some((r) => r.suite === EXPLORE_SUITE)
      ? { exploration: { seed: config.seed, cap: config.explore, sent: explorationRequests(results) } }
      : {}),
    ...selectionOf(config, options.checks.length, input.selected.length),
    // The gate's certification-only checks, as every report lists them (api-setup/gate-profile.ts).
    ...(config.gate
      ? { gate: { certificationOnly: certificationOnlyOf(sortChecks(results, options.suiteOrder)) } }
      : {}),
    ...noticesOf([...engine.notices(), input.cuts.notice(explorationRequests(results), config.explore)]),
    timeline: runTimeline(
      engine.sendTimes(),
      input.webhooks?.receiver.deliveries() ?? [],
      input.startedAt,
      config.timeScale,
    ),
  };
}

/** Runs one planned check of `run` on the engine, with its start time in the certification. */
function checkRunner(c: {
  options: CertifyOptions;
  target: TargetInfo;
  inputs: CheckInputs;
  journaled: ClientFactory;
  setup: SharedSetupCore;
  webhooks: CertifyOptions['webhooks'];
  redactor: Redactor;
  reporters: readonly ProgressListener[];
  startedAt: Date;
  signal: AbortSignal;
}): (check: CheckDefinition, reservedCodes: string[], onlyWatching: () => void) => Promise<CheckResult> {
  const { options, target, inputs, journaled, setup: core, webhooks, redactor, reporters, startedAt, signal } = c;
  return async (check, reservedCodes, onlyWatching) => {
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
      onlyWatching,
    });
    return { ...result, startedMs };
  };
}

/** The pre-flight's answer, or undefined when a signal came during it. */
async function preflightUnlessInterrupted(...args: Parameters<typeof preflight>): Promise<PreflightResult | undefined> {
  try {
    return await preflight(...args);
  } catch (e) {
    if (!(e instanceof PreflightInterrupted)) throw e;
    return undefined;
  }
}

/** The target as checks see it, and as the RunResult records it. */
function targetsOf(
  options: CertifyOptions,
  baseUrl: string,
  environment: 'sandbox' | 'production',
  environmentEvidence: EnvironmentEvidence | undefined,
): { target: TargetInfo; resultTarget: RunResult['target'] } {
  const { config } = options;
  const target: TargetInfo = {
    baseUrl,
    environment,
    timeScale: config.timeScale,
    embedded: options.embedded ?? false,
    rateLimit: config.rateLimit,
    ...(environmentEvidence ? { environmentEvidence } : {}),
  };
  const resultTarget: RunResult['target'] = {
    baseUrl,
    environment,
    embedded: target.embedded,
    ...(environmentEvidence ? { environmentEvidence } : {}),
  };
  return { target, resultTarget };
}

function announceStart(
  reporters: readonly ProgressListener[],
  selected: readonly CheckDefinition[],
  suites: string[],
  target: RunResult['target'],
): void {
  for (const r of reporters) {
    r.onRunStart?.({
      checks: selected.map((c) => ({ id: c.id, title: c.title, suite: c.suite })),
      suites,
      target,
    });
  }
}

/** The notices given, absent when there are none (results.json carries `notices` only when some bound was reached). */
function noticesOf(given: ReadonlyArray<Notice | undefined>): Pick<RunResult, 'notices'> {
  const notices = given.filter((n): n is Notice => n !== undefined);
  return notices.length > 0 ? { notices } : {};
}
