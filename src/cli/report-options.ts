// The report options every certifying command shares (run, partner, receiver, scan, report):
// `--report-dir` (SVC_REPORT_DIR), `--reporter LIST`, `--strict`, `--baseline FILE` (SVC_BASELINE);
// how a finished RunResult becomes reports and an exit code is src/report/finish-certification.ts,
// re-exported here for the commands. A new certifying command calls
// `addReportOptions(cmd)`, then `resolveReportSettings(flags)` before it starts (so a bad flag or a
// malformed baseline exits 2 at once), then `finishCertification(result, settings)`.
//
// Only commander types and light modules load here: main.ts imports this file at start-up, and the
// reporters (listr2, chalk) load inside the functions that need them.

import type { Command } from 'commander';
import { addOptions } from './add-options.js';
import { resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { REPORT_OPTIONS } from '../config/run-options.js';
import { DEFAULT_REPORTERS, reporterNamesOf } from '../config/reporter-names.js';
import type { ReportSettings } from '../report/finish-certification.js';
import { readBaselineFile } from '../runner/baseline.js';

export { createSettingsReporters, finishCertification, prepareReports, type ReportSettings } from '../report/finish-certification.js';
export { settleResult } from '../runner/settle.js';

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

function stringFlag(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`${flag} is empty; give a value or leave it out`);
  return value.trim();
}
