// `svc-certify partner`: the reference sandbox as `serve` runs it, plus a recorder of the partner's
// traffic, the documented injections and a judge (the session: src/partner/start-partner.ts); ends on
// SIGINT/SIGTERM or after --duration, writes the usual reports and exits 0/1 (2 for bad usage). The only
// place where the partner judge meets the sandbox (through its public entry and generic hooks).

import { resolve } from 'node:path';
import { INJECTION_POINTS } from '../partner/injections.js';
import {
  startPartner as startPartnerSession,
  type PartnerIo,
  type PartnerOptions,
  type RunningPartner,
} from '../partner/start-partner.js';
import type { InjectionId } from '../partner/traffic.js';
import { consoleModeOf } from '../report/console-mode.js';
import type { Provision, RunningSandbox } from '../sandbox/index.js';
import { prepareReports, resolveReportSettings } from './report-options.js';
import { exitCodeOfSignal, watchSignals } from './signals.js';
import { parseSandboxFlags, writeProvisionFile } from './sandbox-options.js';
import { COMMAND_OPTIONS } from './command-options.js';
import { MAX_DURATION_MS } from '../config/duration.js';
import { resolveOptions, type Env } from '../config/resolve-options.js';
import { sleepLong } from './sleep-long.js';
import { UsageError } from './usage-error.js';
import { errnoOrMessage, errorMessage } from '../narrow.js';

export type { PartnerOptions };
export { MAX_DURATION_MS };

/** Validates every flag and variable of partner's table before anything starts: a bad one exits 2 with one line. */
export async function parsePartnerFlags(
  flags: Record<string, unknown>,
  env: Env = process.env,
): Promise<PartnerOptions> {
  const o = resolveOptions(COMMAND_OPTIONS.partner, { flags, env });
  const sandbox = parseSandboxFlags(flags, env);
  const provision = o.get('provision');
  if (provision === undefined) {
    throw new UsageError(
      "partner needs --provision FILE: the partner key and activation codes are written there for the partner's staging to read",
    );
  }
  const durationMs = o.get('duration');
  const isInjectionId = (id: string): id is InjectionId => INJECTION_POINTS.some((p) => p.id === id);
  const skipped = o.get('skipInjection') ?? [];
  const unknown = skipped.filter((id) => !isInjectionId(id));
  if (unknown.length > 0)
    throw new UsageError(
      `--skip-injection ${unknown.join(', ')}: no such injection; the injections are ${INJECTION_POINTS.map((p) => p.id).join(', ')}`,
    );
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

/** Starts `partner`'s session around the reference sandbox: started with the session's hooks, provisioned, the provision written. */
export async function startPartner(opts: PartnerOptions, io: PartnerIo): Promise<RunningPartner<Provision>> {
  const { startSandbox } = await import('../sandbox/index.js');
  return startPartnerSession(opts, io, async (hooks) => {
    let sandbox: RunningSandbox;
    try {
      sandbox = await startSandbox({
        host: opts.host,
        port: opts.port,
        mode: opts.mode,
        timeScale: opts.timeScale,
        rateLimitPerMinute: opts.rateLimit,
        allowLoopbackWebhooks: opts.allowLoopbackWebhooks,
        hooks,
      });
    } catch (e) {
      throw new UsageError(`cannot start the sandbox on ${opts.host}:${opts.port}: ${errnoOrMessage(e)}`);
    }
    try {
      const provision = sandbox.provision({
        ...(opts.webhookUrl ? { webhookUrl: opts.webhookUrl } : {}),
        rateLimitPerMinute: opts.rateLimit,
      });
      writeProvisionFile(opts.provision, opts.provision, provision);
      return { baseUrl: sandbox.baseUrl, provision, close: () => sandbox.close() };
    } catch (e) {
      await sandbox.close();
      throw e instanceof UsageError ? e : new UsageError(`cannot provision the sandbox: ${errorMessage(e)}`);
    }
  });
}

export async function partnerCommand(flags: Record<string, unknown>, out: (line: string) => void): Promise<number> {
  const opts = await parsePartnerFlags(flags);
  const partner = await startPartner(opts, { stream: process.stdout, ...consoleModeOf(process.stdout) });
  out(`provision written to ${opts.provision}`);
  if (opts.webhookUrl) out(`webhooks go to ${opts.webhookUrl}`);
  out(`svc-certify partner (${opts.mode}, time scale ${opts.timeScale}) listening on ${partner.baseUrl}`);
  if (opts.inject)
    for (const p of INJECTION_POINTS)
      out(`injection ${p.id}: ${opts.skipInjections.includes(p.id) ? 'off (--skip-injection)' : p.summary}`);
  else out('injections off (--no-inject)');
  out(
    opts.durationMs !== undefined
      ? `judging until Ctrl-C or for ${Math.round(opts.durationMs / 1000)} s`
      : 'judging until Ctrl-C',
  );
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
