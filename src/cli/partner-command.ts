// `svc-certify partner`: the reference sandbox as `serve` runs it, plus a recorder of the partner's
// traffic, the documented injections and a judge (the session: src/partner/start-partner.ts); ends on
// SIGINT/SIGTERM or after --duration, writes the usual reports and exits 0/1 (2 for bad usage). The only
// place where the partner judge meets the sandbox (through its public entry and generic hooks).

import { resolve } from 'node:path';
import { INJECTION_POINTS } from '../partner/injections.js';
import { startPartner as startPartnerSession, type PartnerIo, type PartnerOptions, type RunningPartner } from '../partner/start-partner.js';
import { consoleModeOf } from '../report/console-mode.js';
import type { Provision, RunningSandbox } from '../sandbox/index.js';
import { prepareReports, resolveReportSettings } from './report-options.js';
import { exitCodeOfSignal, watchSignals } from './signals.js';
import { parseSandboxFlags, writeProvisionFile, type SandboxFlags } from './sandbox-options.js';
import { UsageError } from './usage-error.js';
import { errnoOrMessage, errorMessage } from '../narrow.js';

export interface PartnerFlags extends SandboxFlags {
  duration?: string;
  inject?: boolean;
}

/** The longest session --duration accepts: 30 days (a Node timer overflows past 24.8 days, so long waits are chained). */
export const MAX_DURATION_MS = 30 * 24 * 3_600_000;

/** "90", "90s", "1500ms", "5m", "1h", "2d": real time. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!m) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
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
    if (durationMs === undefined) throw new UsageError(`--duration must be a positive time such as 90s, 15m, 1h or 2d (got "${flags.duration}")`);
    if (durationMs > MAX_DURATION_MS) throw new UsageError(`--duration ${flags.duration.trim()} is longer than the 30 days a session may last; give 30d or less`);
  }
  const report = await resolveReportSettings(flags, { env });
  await prepareReports(report);
  return {
    ...sandbox,
    provision: resolve(flags.provision),
    ...(durationMs !== undefined ? { durationMs } : {}),
    inject: flags.inject !== false,
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
      const provision = sandbox.provision({ ...(opts.webhookUrl ? { webhookUrl: opts.webhookUrl } : {}), rateLimitPerMinute: opts.rateLimit });
      writeProvisionFile(opts.provision, opts.provision, provision);
      return { baseUrl: sandbox.baseUrl, provision, close: () => sandbox.close() };
    } catch (e) {
      await sandbox.close();
      throw e instanceof UsageError ? e : new UsageError(`cannot provision the sandbox: ${errorMessage(e)}`);
    }
  });
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
