// `svc-certify partner`: the reference sandbox as `serve` runs it, plus a recorder of the partner's
// traffic, the documented injections and a judge; ends on SIGINT/SIGTERM or after --duration, writes
// the usual reports and exits 0/1 (2 for bad usage). The only place where the partner judge meets the
// sandbox (through its public entry and generic hooks).

import { resolve } from 'node:path';
import { INJECTION_POINTS } from '../partner/injections.js';
import type { InjectionId } from '../partner/traffic.js';
import { createPartnerConsole } from '../partner/live-checklist.js';
import { createPartnerSession, type PartnerSession } from '../partner/session.js';
import { consoleModeOf } from '../report/console-mode.js';
import type { Reporter } from '../report/reporter.js';
import type { RunResult } from '../runner/results.js';
import type { Provision, RunningSandbox } from '../sandbox/index.js';
import { consoleStreamOf, createSettingsReporters, finishCertification, prepareReports, resolveReportSettings, settleResult, type ReportSettings } from './report-options.js';
import { exitCodeOfSignal, watchSignals, type StopSignal } from './signals.js';
import { parseSandboxFlags, writeProvisionFile, type SandboxSettings } from './sandbox-options.js';
import { COMMAND_OPTIONS } from './command-options.js';
import { MAX_DURATION_MS, parseDuration } from '../config/duration.js';
import { resolveOptions, type Env } from '../config/resolve-options.js';
import { namedSecret, rememberSecrets } from '../config/secret-options.js';
import { UsageError } from './usage-error.js';

export interface PartnerOptions extends SandboxSettings {
  provision: string;
  /** Real ms; undefined: until SIGINT/SIGTERM. */
  durationMs?: number;
  inject: boolean;
  /** Injections turned off one by one (--skip-injection). */
  skipInjections: InjectionId[];
  report: ReportSettings;
}

export { MAX_DURATION_MS, parseDuration };

/** Validates every flag and variable of partner's table before anything starts: a bad one exits 2 with one line. */
export async function parsePartnerFlags(flags: Record<string, unknown>, env: Env = process.env): Promise<PartnerOptions> {
  const o = resolveOptions(COMMAND_OPTIONS.partner, { flags, env });
  const sandbox = parseSandboxFlags(flags, env);
  const provision = o.get('provision');
  if (provision === undefined) {
    throw new UsageError("partner needs --provision FILE: the partner key and activation codes are written there for the partner's staging to read");
  }
  const durationMs = o.get('duration');
  const isInjectionId = (id: string): id is InjectionId => INJECTION_POINTS.some((p) => p.id === id);
  const skipped = o.get('skipInjection') ?? [];
  const unknown = skipped.filter((id) => !isInjectionId(id));
  if (unknown.length > 0) throw new UsageError(`--skip-injection ${unknown.join(', ')}: no such injection; the injections are ${INJECTION_POINTS.map((p) => p.id).join(', ')}`);
  const report = await resolveReportSettings(flags, { env });
  await prepareReports(report);
  return {
    ...sandbox,
    provision: resolve(provision),
    ...(durationMs !== undefined ? { durationMs } : {}),
    inject: o.get('inject') ?? true,
    skipInjections: skipped.filter(isInjectionId),
    report,
  };
}

export interface RunningPartner {
  baseUrl: string;
  provision: Provision;
  session: PartnerSession;
  /**
   * Ends the session: closes the sandbox, judges, writes the reports. `cut` (a second signal): when it
   * fires before the verdict is decided, the session is recorded interrupted (the reports are still
   * written, exit 130/143); it also stops waiting for the sandbox to close.
   */
  stop(cut?: Promise<StopSignal>): Promise<{ result: RunResult; code: number }>;
}

export interface PartnerIo {
  stream: NodeJS.WritableStream;
  interactive: boolean;
  color: boolean;
}

/** Starts the sandbox with the recorder and injector in its hooks and provisions the partner. */
export async function startPartner(opts: PartnerOptions, io: PartnerIo): Promise<RunningPartner> {
  const { startSandbox } = await import('../sandbox/index.js');
  // --quiet: the plain console's few lines at the end instead of the live checklist.
  const wantConsole = opts.report.reporters.includes('console') && !opts.report.quiet;

  // The session needs the secrets before the console starts, and the sandbox's hooks need the session:
  // the hooks call through this late-bound reference.
  let session: PartnerSession | undefined;
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      host: opts.host,
      port: opts.port,
      mode: opts.mode,
      timeScale: opts.timeScale,
      rateLimitPerMinute: opts.rateLimit,
      allowLoopbackWebhooks: opts.allowLoopbackWebhooks,
      hooks: {
        simulate: (req) => session?.injector.simulate(req),
        deliver: (req, res) => session?.injector.deliver(req, res) ?? 'send',
        observe: (o) => session?.observe(o),
      },
    });
  } catch (e) {
    throw new UsageError(`cannot start the sandbox on ${opts.host}:${opts.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let provision: Provision;
  try {
    provision = sandbox.provision({ ...(opts.webhookUrl ? { webhookUrl: opts.webhookUrl } : {}), rateLimitPerMinute: opts.rateLimit });
    writeProvisionFile(opts.provision, opts.provision, provision);
  } catch (e) {
    await sandbox.close();
    throw e instanceof UsageError ? e : new UsageError(`cannot provision the sandbox: ${(e as Error).message}`);
  }

  // Learned in the session: the provisioned credentials, each named like the run option that carries it.
  const secrets = [
    namedSecret('partnerKey', provision.partner_key),
    namedSecret('webhookSecret', provision.webhook_secret),
    namedSecret('disabledOrgToken', provision.disabled_org_token),
    namedSecret('disabledPartnerKey', provision.disabled_partner_key),
  ];
  rememberSecrets(secrets);
  const partial = createPartnerSession({
    timeScale: opts.timeScale,
    webhookRegistered: opts.webhookUrl !== undefined,
    inject: opts.inject,
    skipInjections: opts.skipInjections,
    secrets,
    config: {
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
    },
  });
  session = partial;
  const live = wantConsole ? createPartnerConsole({ stream: consoleStreamOf(opts.report, io.stream), interactive: io.interactive, color: io.color, rules: partial.rules }) : undefined;
  if (live) partial.attach(live);
  // The partner checklist stands in for the console reporter; the file reporters are run's own.
  const reporters: Reporter[] = await createSettingsReporters(opts.report, io.stream, live);

  let stopped: Promise<{ result: RunResult; code: number }> | undefined;
  return {
    baseUrl: sandbox.baseUrl,
    provision,
    session: partial,
    stop(cut) {
      stopped ??= (async () => {
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
        const finished = partial.finish({ baseUrl: sandbox.baseUrl, environment: opts.mode });
        await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
        const result = cutBy.signal ? { ...finished, interrupted: { signal: cutBy.signal } } : finished;
        const knownIds = partial.rules.map((r) => r.id);
        const code = await finishCertification(result, opts.report, { reporters, knownIds });
        return { result: settleResult(result, opts.report, { knownIds }), code };
      })();
      return stopped;
    },
  };
}

export async function partnerCommand(flags: Record<string, unknown>, out: (line: string) => void): Promise<number> {
  const opts = await parsePartnerFlags(flags);
  const partner = await startPartner(opts, { stream: process.stdout, ...consoleModeOf(process.stdout) });
  out(`provision written to ${opts.provision}`);
  if (opts.webhookUrl) out(`webhooks go to ${opts.webhookUrl}`);
  out(`svc-certify partner (${opts.mode}, time scale ${opts.timeScale}) listening on ${partner.baseUrl}`);
  if (opts.inject) for (const p of INJECTION_POINTS) out(`injection ${p.id}: ${opts.skipInjections.includes(p.id) ? 'off (--skip-injection)' : p.summary}`);
  else out('injections off (--no-inject)');
  out(opts.durationMs !== undefined ? `judging until Ctrl-C or for ${Math.round(opts.durationMs / 1000)} s` : 'judging until Ctrl-C');
  // The first signal, or the end of --duration, is the normal end of the session; a second signal
  // during the shutdown interrupts it (the reports are still written).
  const signals = watchSignals();
  const duration = opts.durationMs !== undefined ? sleepLong(opts.durationMs) : undefined;
  try {
    await Promise.race([signals.first, ...(duration ? [duration.done] : [])]);
    duration?.cancel();
    const { code, result } = await partner.stop(signals.second);
    return result.interrupted ? exitCodeOfSignal(result.interrupted.signal) : code;
  } finally {
    duration?.cancel();
    signals.dispose();
  }
}

/** A wait of up to 30 days: Node's timers overflow past 2^31-1 ms (24.8 days) and fire at once. */
function sleepLong(ms: number): { done: Promise<void>; cancel(): void } {
  const MAX_TIMER_MS = 2 ** 31 - 1;
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const done = new Promise<void>((resolve) => {
    const until = Date.now() + ms;
    const step = (): void => {
      if (cancelled) return;
      const left = until - Date.now();
      if (left <= 0) return resolve();
      timer = setTimeout(step, Math.min(left, MAX_TIMER_MS));
    };
    step();
  });
  return {
    done,
    cancel() {
      cancelled = true;
      if (timer) clearTimeout(timer);
    },
  };
}
