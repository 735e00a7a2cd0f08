// The report options every certifying command shares (run, partner, receiver, scan, report):
// `--report-dir` (SVC_REPORT_DIR), `--reporter LIST`, `--strict`, `--baseline FILE` (SVC_BASELINE),
// and the one way a finished RunResult becomes reports and an exit code: apply the baseline, decide the
// verdict once, write every report, return 0 or 1. A new certifying command calls
// `addReportOptions(cmd)`, then `resolveReportSettings(flags)` before it starts (so a bad flag or a
// malformed baseline exits 2 at once), then `finishCertification(result, settings)`.
//
// Only commander types and light modules load here: main.ts imports this file at start-up, and the
// reporters (listr2, chalk) load inside the functions that need them.

import type { Command } from 'commander';
import { addOptions } from './add-options.js';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { REPORT_OPTIONS } from '../config/run-options.js';
import { consoleModeOf } from '../report/console-mode.js';
import { DEFAULT_REPORTERS, reporterNamesOf } from '../config/reporter-names.js';
import type { Reporter } from '../report/reporter.js';
import { applyBaseline, readBaselineFile, type Baseline } from '../runner/baseline.js';
import type { RunResult } from '../runner/results.js';
import { decideVerdict } from '../runner/verdict.js';

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

/** Adds the four report options to a command, from the one table `run` shares (REPORT_OPTIONS). */
export function addReportOptions(command: Command): Command {
  return addOptions(command, REPORT_OPTIONS);
}

export interface ResolveOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Settings of a command other than `run` (which also reads svc-certify.config.json): flag > env > default. */
export async function resolveReportSettings(flags: Record<string, unknown>, opts: ResolveOptions = {}): Promise<ReportSettings> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const fromEnv = (name: string): string | undefined => (env[name] !== undefined && env[name] !== '' ? env[name] : undefined);
  const dir = stringFlag(flags['reportDir'], '--report-dir') ?? fromEnv('SVC_REPORT_DIR');
  const baselineFile = stringFlag(flags['baseline'], '--baseline') ?? fromEnv('SVC_BASELINE');
  const reporterFlag = flags['reporter'];
  const list = Array.isArray(reporterFlag) ? reporterFlag.map(String).join(',') : stringFlag(reporterFlag, '--reporter');
  const reporters = list === undefined ? [...DEFAULT_REPORTERS] : reporterNamesOf([list]);
  return {
    reportDir: resolve(cwd, dir ?? 'reports'),
    reporters,
    strict: flags['strict'] === true,
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

export interface FinishOptions {
  /** Reporters already created (and fed live events); default: created from the settings. */
  reporters?: Reporter[];
  /** Every check id the certification knows, run or not: a baseline id outside it is unknown. */
  knownIds?: Iterable<string>;
  /** YYYY-MM-DD (UTC), for tests; default today. */
  today?: string;
}

/** Baseline applied, strict mode recorded, verdict decided: the RunResult every report shows. */
export function settleResult(result: RunResult, settings: ReportSettings, opts: FinishOptions = {}): RunResult {
  const based = settings.baseline
    ? applyBaseline(result, settings.baseline, {
        ...(opts.knownIds ? { knownIds: opts.knownIds } : {}),
        ...(opts.today ? { today: opts.today } : {}),
      })
    : result;
  return {
    ...based,
    config: { ...based.config, strict: settings.strict },
    verdict: decideVerdict(based.summary, settings.strict, based.baseline?.problems.length ?? 0),
  };
}

/** Applies the baseline, decides the verdict once, writes every report; returns the exit code. */
export async function finishCertification(result: RunResult, settings: ReportSettings, opts: FinishOptions = {}): Promise<0 | 1> {
  const settled = settleResult(result, settings, opts);
  const reporters = opts.reporters ?? (await createSettingsReporters(settings));
  if (reporters.length > 0) await mkdir(settings.reportDir, { recursive: true });
  for (const reporter of reporters) await reporter.onRunEnd(settled, { reportDir: settings.reportDir });
  return settled.verdict === 'certified' ? 0 : 1;
}

function stringFlag(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`${flag} is empty; give a value or leave it out`);
  return value.trim();
}
