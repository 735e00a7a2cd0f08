// A partner certification session around a running sandbox: the recorder and injector in its hooks,
// the live checklist, the reporters, and the end (judge, write the reports, exit code). The sandbox is
// handed in by the caller (the CLI, or a test through the sandbox's public entry), because nothing but
// src/cli/ and src/embedded/ reaches the sandbox: this layer names only the slice of it that it uses.

import type { SandboxSettings } from '../config/sandbox-settings.js';
import type { NamedSecret } from '../config/redact.js';
import { namedSecret, rememberSecrets } from '../config/secret-options.js';
import {
  consoleStreamOf,
  createSettingsReporters,
  finishCertification,
  type ReportSettings,
} from '../report/finish-certification.js';
import type { Reporter } from '../report/reporter.js';
import type { RunResult } from '../runner/results.js';
import { resultWithVerdict } from '../runner/result-with-verdict.js';
import type { Answer, InjectableRequest, SimulateAnswer } from './injections.js';
import { createPartnerConsole } from './live-checklist.js';
import type { Observation } from './recorder.js';
import type { InjectionId } from './traffic.js';
import { createPartnerSession, type PartnerSession } from './session.js';

/** The settings of a session (the CLI's parsePartnerFlags makes them). */
export interface PartnerOptions extends SandboxSettings {
  /** Where the provision was written. */
  provision: string;
  /** Real ms; undefined: until SIGINT/SIGTERM. */
  durationMs?: number;
  inject: boolean;
  /** Injections turned off one by one (--skip-injection). */
  skipInjections: InjectionId[];
  report: ReportSettings;
}

/** The sandbox's generic hooks, as the session fills them (structurally the sandbox's SandboxHooks). */
export interface PartnerHooks {
  simulate(req: InjectableRequest): SimulateAnswer | undefined;
  deliver(req: InjectableRequest, res: Answer): 'send' | 'drop' | { replace: Answer };
  observe(o: Observation): void;
  terminalEventDelayMs(runId: string): number | undefined;
  redeliverAfterMs(delivered: { eventId: string; event: string; runId: string }): number | undefined;
}

/** The secrets of a provision, redacted everywhere and looked for in the partner's URLs and bodies. */
export interface PartnerProvision {
  partner_key: string;
  webhook_secret: string;
  disabled_org_token: string;
  disabled_partner_key: string;
  /** A second, enabled partner (isolation checks of `run`): a key like the first, so a secret too. */
  other_partner_key?: string;
  /** An organization already connected: a token like any other, so a secret too. */
  org_token?: string;
}

/** A sandbox started with the given hooks and provisioned for the partner. */
export interface PartnerSandbox<P extends PartnerProvision> {
  baseUrl: string;
  provision: P;
  close(): Promise<void>;
}

export interface RunningPartner<P extends PartnerProvision> {
  baseUrl: string;
  provision: P;
  session: PartnerSession;
  /**
   * Ends the session: closes the sandbox, judges, writes the reports. `cut` (a second signal): when it
   * fires before the verdict is decided, the session is recorded interrupted (the reports are still
   * written, exit 130/143); it also stops waiting for the sandbox to close.
   */
  stop(cut?: Promise<StopSignal>): Promise<{ result: RunResult; code: number }>;
}

/** The signals that end or cut a session (RunResult's `interrupted`). */
type StopSignal = NonNullable<RunResult['interrupted']>['signal'];

export interface PartnerIo {
  stream: NodeJS.WritableStream;
  interactive: boolean;
  color: boolean;
}

/** The provisioned credentials, each named like the run option that carries it. */
function provisionedSecrets(provision: PartnerProvision): NamedSecret[] {
  return [
    namedSecret('partnerKey', provision.partner_key),
    namedSecret('webhookSecret', provision.webhook_secret),
    namedSecret('disabledOrgToken', provision.disabled_org_token),
    namedSecret('disabledPartnerKey', provision.disabled_partner_key),
    ...(provision.other_partner_key !== undefined ? [namedSecret('otherPartnerKey', provision.other_partner_key)] : []),
    ...(provision.org_token !== undefined ? [namedSecret('orgToken', provision.org_token)] : []),
  ];
}

/** The session's options as results.json records them. */
function sessionConfig(opts: PartnerOptions): Record<string, unknown> {
  return {
    command: 'partner',
    host: opts.host,
    port: opts.port,
    mode: opts.mode,
    timeScale: opts.timeScale,
    rateLimit: opts.rateLimit,
    ...(opts.webhookUrl ? { webhookUrl: opts.webhookUrl } : {}),
    allowLoopbackWebhooks: opts.allowLoopbackWebhooks,
    ...(opts.durationMs !== undefined ? { durationMs: opts.durationMs } : {}),
    inject: opts.inject,
    ...(opts.skipInjections.length > 0 ? { skipInjections: opts.skipInjections } : {}),
    reportDir: opts.report.reportDir,
    reporters: opts.report.reporters,
    strict: opts.report.strict,
  };
}

/** Closes the sandbox, judges a last time and writes the reports. */
async function stopSession<P extends PartnerProvision>(
  opts: PartnerOptions,
  sandbox: PartnerSandbox<P>,
  session: PartnerSession,
  reporters: Reporter[],
  cut: Promise<StopSignal> | undefined,
): Promise<{ result: RunResult; code: number }> {
  // A second signal at any time before the verdict is decided interrupts the session. The sandbox
  // closes at once (its connections are cut), so most of the shutdown is the final judgement, which
  // is synchronous (about 10 ms for an empty session, seconds for a busy one): a signal that came
  // during it waits in libuv's signal pipe, read only in a poll phase. The first signal was handled
  // in one, so one setImmediate would still run before the next: two go through a poll phase.
  const cutBy: { signal?: StopSignal } = {};
  const cutting = cut?.then((signal) => {
    cutBy.signal ??= signal;
  });
  const closed = sandbox.close();
  await (cutting ? Promise.race([closed, cutting]) : closed);
  const finished = session.finish({ baseUrl: sandbox.baseUrl, environment: opts.mode });
  await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
  const result = cutBy.signal ? { ...finished, interrupted: { signal: cutBy.signal } } : finished;
  const knownIds = session.rules.map((r) => r.id);
  const code = await finishCertification(result, opts.report, { reporters, knownIds });
  return { result: resultWithVerdict(result, opts.report, { knownIds }), code };
}

/** Starts the sandbox (through `startSandbox`) with the recorder and injector in its hooks, and the session around it. */
export async function startPartner<P extends PartnerProvision>(
  opts: PartnerOptions,
  io: PartnerIo,
  startSandbox: (hooks: PartnerHooks) => Promise<PartnerSandbox<P>>,
): Promise<RunningPartner<P>> {
  // --quiet: the plain console's few lines at the end instead of the live checklist.
  const wantConsole = opts.report.reporters.includes('console') && !opts.report.quiet;

  // The session needs the secrets before the console starts, and the sandbox's hooks need the session:
  // the hooks call through this late-bound reference.
  let session: PartnerSession | undefined;
  const sandbox = await startSandbox({
    simulate: (req) => session?.injector.simulate(req),
    deliver: (req, res) => session?.injector.deliver(req, res) ?? 'send',
    observe: (o) => session?.observe(o),
    terminalEventDelayMs: (runId) => session?.injector.terminalEventDelayMs(runId),
    redeliverAfterMs: (delivered) => session?.injector.redeliverAfterMs(delivered),
  });
  const { provision } = sandbox;
  const secrets = provisionedSecrets(provision);
  rememberSecrets(secrets);
  const partial = createPartnerSession({
    timeScale: opts.timeScale,
    webhookRegistered: opts.webhookUrl !== undefined,
    inject: opts.inject,
    skipInjections: opts.skipInjections,
    secrets,
    config: sessionConfig(opts),
  });
  session = partial;
  const live = wantConsole
    ? createPartnerConsole({
        stream: consoleStreamOf(opts.report, io.stream),
        interactive: io.interactive,
        color: io.color,
        rules: partial.rules,
      })
    : undefined;
  if (live) partial.attach(live);
  // The partner checklist stands in for the console reporter; the file reporters are run's own.
  const reporters: Reporter[] = await createSettingsReporters(opts.report, io.stream, live);

  let stopped: Promise<{ result: RunResult; code: number }> | undefined;
  return {
    baseUrl: sandbox.baseUrl,
    provision,
    session: partial,
    stop(cut) {
      stopped ??= stopSession(opts, sandbox, partial, reporters, cut);
      return stopped;
    },
  };
}
