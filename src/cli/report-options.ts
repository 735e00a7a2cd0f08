// The report options every certifying command shares (run, partner, receiver, scan, report):
// `--report-dir` (SVC_REPORT_DIR), `--reporter LIST`, `--strict`, `--quiet`, `--baseline FILE`
// (SVC_BASELINE); how a finished RunResult becomes reports and an exit code is
// src/report/finish-certification.ts, re-exported here for the commands. A new certifying command adds
// REPORT_OPTIONS to its table in command-options.ts, calls `resolveReportSettings(flags)` before it
// starts (so a bad flag or a malformed baseline exits 2 at once), then `finishCertification(result, settings)`.
//
// Only light modules load here: main.ts imports this file at start-up, and the reporters (listr2,
// chalk) load inside the functions that need them.

import { resolve } from 'node:path';
import type { Config } from '../config/config.js';
import { resolveOptions } from '../config/resolve-options.js';
import { REPORT_OPTIONS } from '../config/run-options.js';
import { DEFAULT_REPORTERS, reporterNamesOf } from '../config/reporter-names.js';
import type { ReportSettings } from '../report/finish-certification.js';
import { readBaselineFile } from '../runner/baseline.js';
import { readSignKey } from '../report/sign-key.js';

export {
  createSettingsReporters,
  finishCertification,
  prepareReports,
  writeDossierReports,
  writeReports,
  type ReportSettings,
} from '../report/finish-certification.js';
export { resultWithVerdict } from '../runner/result-with-verdict.js';

export interface ResolveOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Settings of a command other than `run` (which also reads svc-certify.config.json): flag > env > default. */
export async function resolveReportSettings(
  flags: Record<string, unknown>,
  opts: ResolveOptions = {},
): Promise<ReportSettings> {
  const cwd = opts.cwd ?? process.cwd();
  const o = resolveOptions(REPORT_OPTIONS, { flags, env: opts.env ?? process.env });
  const reporters = o.get('reporter');
  const baselineFile = o.get('baseline');
  const signKeyFile = o.get('signKey');
  const names = reporters === undefined ? [...DEFAULT_REPORTERS] : reporterNamesOf(reporters, o.source('reporter'));
  return {
    reportDir: resolve(cwd, o.get('reportDir') ?? 'reports'),
    reporters: names,
    strict: o.get('strict') ?? false,
    quiet: o.get('quiet') ?? false,
    ...(baselineFile !== undefined ? { baseline: readBaselineFile(resolve(cwd, baselineFile), baselineFile) } : {}),
    ...(signKeyFile !== undefined ? { signKey: readSignKey(resolve(cwd, signKeyFile), signKeyFile, names) } : {}),
  };
}

/** Settings of `run`, whose report options went through loadConfig (flag > env > config file > default). */
export function reportSettingsOfConfig(config: Config): ReportSettings {
  return {
    reportDir: config.reportDir,
    reporters: [...config.reporters],
    strict: config.strict,
    quiet: config.quiet === true,
    ...(config.baselinePath !== undefined
      ? { baseline: readBaselineFile(config.baselinePath, config.baselineFile) }
      : {}),
    ...(config.signKeyPath !== undefined
      ? { signKey: readSignKey(config.signKeyPath, config.signKeyFile ?? config.signKeyPath, config.reporters) }
      : {}),
  };
}
