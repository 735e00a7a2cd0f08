// The one way a finished RunResult becomes reports and an exit code, for every certifying command:
// apply the baseline, decide the verdict once, write every report, return 0 or 1 (DESIGN.md, *Verdict*).
// Below the CLI so that `partner`'s session (src/partner/start-partner.ts) ends the same way. The
// reporters (listr2, chalk) load inside the functions that need them: the CLI imports this at start-up.

import type { ReporterName } from '../config/reporter-names.js';
import type { Baseline } from '../runner/baseline.js';
import type { RunResult } from '../runner/results.js';
import { settleResult, type SettleOptions } from '../runner/settle.js';
import { exitCodeOf } from '../runner/verdict.js';
import { consoleModeOf } from './console-mode.js';
import { prepareReportDir } from './report-dir.js';
import type { Reporter } from './reporter.js';

export interface ReportSettings {
  /** Absolute. */
  reportDir: string;
  /** Validated once, by reporterNamesOf. */
  reporters: ReporterName[];
  /** Skipped checks count as failures. */
  strict: boolean;
  /** Read and validated before the certification starts. */
  baseline?: Baseline;
}

/** The reporters of the settings; the console one is live on a TTY outside CI, plain lines otherwise. */
export async function createSettingsReporters(settings: ReportSettings, stream: NodeJS.WriteStream = process.stdout): Promise<Reporter[]> {
  const { createReporters } = await import('./index.js');
  return createReporters(settings.reporters, { stream, ...consoleModeOf(stream) });
}

export interface FinishOptions extends SettleOptions {
  /** Reporters already created (and fed live events); default: created from the settings. */
  reporters?: Reporter[];
}

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
