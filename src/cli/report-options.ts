// The report options every certifying command shares (run, partner, receiver, scan, report):
// `--report-dir` (SVC_REPORT_DIR), `--reporter LIST`, `--strict`, `--baseline FILE` (SVC_BASELINE),
// and the one way a finished RunResult becomes reports and an exit code: apply the baseline, decide the
// verdict once, write every report, return 0 or 1. A new certifying command adds REPORT_OPTIONS to its
// table in command-options.ts, calls `resolveReportSettings(flags)` before it starts (so a bad flag or
// a malformed baseline exits 2 at once), then `finishCertification(result, settings)`.
//
// Only commander types and light modules load here: main.ts imports this file at start-up, and the
// reporters (listr2, chalk) load inside the functions that need them.

import { prepareReportDir } from './report-dir.js';
import { resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { resolveOptions } from '../config/resolve-options.js';
import { REPORT_OPTIONS } from '../config/run-options.js';
import { consoleModeOf } from '../report/console-mode.js';
import { DEFAULT_REPORTERS, reporterNamesOf } from '../config/reporter-names.js';
import type { Reporter } from '../report/reporter.js';
import { readBaselineFile, type Baseline } from '../runner/baseline.js';
import { settleResult, type SettleOptions } from '../runner/settle.js';
import type { RunResult } from '../runner/results.js';
import { exitCodeOf } from '../runner/verdict.js';

export interface ReportSettings {
  /** Absolute. */
  reportDir: string;
  /** Reporter names, validated against the reporter registry. */
  reporters: string[];
  /** Skipped checks count as failures. */
  strict: boolean;
  /** Read and validated before the certification starts. */
  baseline?: Baseline;
}

export interface ResolveOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Settings of a command other than `run` (which also reads svc-certify.config.json): flag > env > default. */
export async function resolveReportSettings(flags: Record<string, unknown>, opts: ResolveOptions = {}): Promise<ReportSettings> {
  const cwd = opts.cwd ?? process.cwd();
  const o = resolveOptions(REPORT_OPTIONS, { flags, env: opts.env ?? process.env });
  const reporters = o.get('reporter');
  const baselineFile = o.get('baseline');
  return {
    reportDir: resolve(cwd, o.get('reportDir') ?? 'reports'),
    reporters: reporters === undefined ? [...DEFAULT_REPORTERS] : reporterNamesOf(reporters, o.source('reporter')),
    strict: o.get('strict') ?? false,
    ...(baselineFile !== undefined ? { baseline: readBaselineFile(resolve(cwd, baselineFile), baselineFile) } : {}),
  };
}

/** Settings of `run`, whose report options went through loadConfig (flag > env > config file > default). */
export function reportSettingsOfConfig(config: Config): ReportSettings {
  return {
    reportDir: config.reportDir,
    reporters: [...config.reporters],
    strict: config.strict,
    ...(config.baselinePath !== undefined ? { baseline: readBaselineFile(config.baselinePath, config.baselineFile) } : {}),
  };
}

/** The reporters of the settings; the console one is live on a TTY outside CI, plain lines otherwise. */
export async function createSettingsReporters(settings: ReportSettings, stream: NodeJS.WriteStream = process.stdout): Promise<Reporter[]> {
  const { createReporters } = await import('../report/index.js');
  return createReporters(settings.reporters, { stream, ...consoleModeOf(stream) });
}

export interface FinishOptions extends SettleOptions {
  /** Reporters already created (and fed live events); default: created from the settings. */
  reporters?: Reporter[];
}

export { settleResult };

/** Applies the baseline, decides the verdict once, writes every report; returns the exit code (DESIGN.md, *Verdict*). */
export async function finishCertification(result: RunResult, settings: ReportSettings, opts: FinishOptions = {}): Promise<number> {
  const settled = settleResult(result, settings, opts);
  const reporters = opts.reporters ?? (await createSettingsReporters(settings));
  if (writesFiles(settings)) await prepareReportDir(settings.reportDir);
  for (const reporter of reporters) await reporter.onRunEnd(settled, { reportDir: settings.reportDir });
  return exitCodeOf(settled.verdict!, settled.interrupted);
}

/** Whether the settings write any file (the console alone writes none, and creates no folder). */
function writesFiles(settings: Pick<ReportSettings, 'reporters'>): boolean {
  return settings.reporters.some((r) => r !== 'console');
}

/**
 * Before anything is spent: the report folder exists and takes a file (exit 2 with one line if not),
 * so a certification never runs to its end only to lose its reports.
 */
export async function prepareReports(settings: ReportSettings): Promise<void> {
  if (writesFiles(settings)) await prepareReportDir(settings.reportDir);
}
