// `svc-certify partner`: the reference sandbox as `serve` runs it, plus a recorder of the partner's
// traffic, the documented injections and a judge; ends on SIGINT/SIGTERM or after --duration, writes
// the usual reports and exits 0/1 (2 for bad usage). The only place where the partner judge meets the
// sandbox (through its public entry and generic hooks).

import { resolve } from 'node:path';
import { INJECTION_POINTS } from '../partner/injections.js';
import { createPartnerConsole } from '../partner/live-checklist.js';
import { createPartnerSession, type PartnerSession } from '../partner/session.js';
import { consoleModeOf } from '../report/console-mode.js';
import { createReporters } from '../report/index.js';
import type { Reporter } from '../report/reporter.js';
import type { RunResult } from '../runner/results.js';
import type { Provision, RunningSandbox } from '../sandbox/index.js';
import { finishCertification, resolveReportSettings, settleResult, type ReportSettings } from './report-options.js';
import { parseSandboxFlags, writeProvisionFile, type SandboxFlags, type SandboxSettings } from './sandbox-options.js';
import { UsageError } from './usage-error.js';

export interface PartnerFlags extends SandboxFlags {
  duration?: string;
  inject?: boolean;
}

export interface PartnerOptions extends SandboxSettings {
  provision: string;
  /** Real ms; undefined: until SIGINT/SIGTERM. */
  durationMs?: number;
  inject: boolean;
  report: ReportSettings;
}

/** "90", "90s", "1500ms", "5m", "1h": real time. */
function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Number(m[1]) * unit;
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}

/** Validates every flag before anything starts: a bad one exits 2 with one line. */
export async function parsePartnerFlags(flags: PartnerFlags & Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Promise<PartnerOptions> {
  const sandbox = parseSandboxFlags(flags);
  if (flags.provision === undefined) {
    throw new UsageError('partner needs --provision FILE: the partner key and activation codes are written there for the partner\'s staging to read');
  }
  let durationMs: number | undefined;
  if (flags.duration !== undefined) {
    durationMs = parseDuration(flags.duration);
    if (durationMs === undefined) throw new UsageError(`--duration must be a positive time such as 90s, 15m or 1h (got "${flags.duration}")`);
  }
  const report = await resolveReportSettings(flags, { env });
  return {
    ...sandbox,
    provision: resolve(flags.provision),
    ...(durationMs !== undefined ? { durationMs } : {}),
    inject: flags.inject !== false,
    report,
  };
}

export interface RunningPartner {
  baseUrl: string;
  provision: Provision;
  session: PartnerSession;
  /** Ends the session: closes the sandbox, judges, writes the reports. */
  stop(): Promise<{ result: RunResult; code: 0 | 1 }>;
}

export interface PartnerIo {
  stream: NodeJS.WritableStream;
  interactive: boolean;
  color: boolean;
}

/** Starts the sandbox with the recorder and injector in its hooks and provisions the partner. */
export async function startPartner(opts: PartnerOptions, io: PartnerIo): Promise<RunningPartner> {
  const { startSandbox } = await import('../sandbox/index.js');
  const wantConsole = opts.report.reporters.includes('console');

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

  const secrets = [
    { value: provision.partner_key, envVar: 'SVC_PARTNER_KEY' },
    { value: provision.webhook_secret, envVar: 'SVC_WEBHOOK_SECRET' },
    { value: provision.disabled_org_token, envVar: 'SVC_DISABLED_ORG_TOKEN' },
    { value: provision.disabled_partner_key, envVar: 'SVC_DISABLED_PARTNER_KEY' },
  ];
  const partial = createPartnerSession({
    timeScale: opts.timeScale,
    webhookRegistered: opts.webhookUrl !== undefined,
    inject: opts.inject,
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
      reportDir: opts.report.reportDir,
      reporters: opts.report.reporters,
      strict: opts.report.strict,
    },
  });
  session = partial;
  const live = wantConsole ? createPartnerConsole({ stream: io.stream, interactive: io.interactive, color: io.color, rules: partial.rules }) : undefined;
  if (live) partial.attach(live);
  // The partner checklist stands in for the console reporter; the file reporters are run's own.
  const reporters: Reporter[] = opts.report.reporters.flatMap((name) =>
    name === 'console' ? (live ? [live] : []) : createReporters([name], { stream: io.stream, interactive: false, color: false }),
  );

  let stopped: Promise<{ result: RunResult; code: 0 | 1 }> | undefined;
  return {
    baseUrl: sandbox.baseUrl,
    provision,
    session: partial,
    stop() {
      stopped ??= (async () => {
        await sandbox.close();
        const result = partial.finish({ baseUrl: sandbox.baseUrl, environment: opts.mode });
        const knownIds = partial.rules.map((r) => r.id);
        const code = await finishCertification(result, opts.report, { reporters, knownIds });
        return { result: settleResult(result, opts.report, { knownIds }), code };
      })();
      return stopped;
    },
  };
}

export async function partnerCommand(flags: PartnerFlags & Record<string, unknown>, out: (line: string) => void): Promise<number> {
  const opts = await parsePartnerFlags(flags);
  const partner = await startPartner(opts, { stream: process.stdout, ...consoleModeOf(process.stdout) });
  out(`provision written to ${opts.provision}`);
  if (opts.webhookUrl) out(`webhooks go to ${opts.webhookUrl}`);
  out(`svc-certify partner (${opts.mode}, time scale ${opts.timeScale}) listening on ${partner.baseUrl}`);
  if (opts.inject) for (const p of INJECTION_POINTS) out(`injection ${p.id}: ${p.summary}`);
  else out('injections off (--no-inject)');
  out(opts.durationMs !== undefined ? `judging until Ctrl-C or for ${Math.round(opts.durationMs / 1000)} s` : 'judging until Ctrl-C');
  await new Promise<void>((done) => {
    const timer = opts.durationMs !== undefined ? setTimeout(done, opts.durationMs) : undefined;
    const end = (): void => {
      if (timer) clearTimeout(timer);
      done();
    };
    process.once('SIGINT', end);
    process.once('SIGTERM', end);
  });
  const { code } = await partner.stop();
  return code;
}
