// One Reporter interface; reporters live in a map keyed by their --reporter name
// (console, junit, html, json, markdown). Output must be deterministic for a given RunResult.

import type { ProgressListener } from '../runner/progress.js';
import type { CheckResult, RunResult } from '../runner/results.js';

export type { PlannedCheck, ProgressListener, RunStartInfo } from '../runner/progress.js';

export interface Reporter extends ProgressListener {
  readonly name: string;
  /** Writes the report (files go to reportDir). */
  onRunEnd(result: RunResult, ctx: { reportDir: string }): Promise<void> | void;
}

export interface ReporterOptions {
  /** Console: write here (default process.stdout). */
  stream?: NodeJS.WritableStream;
  /** Console: live listr2 task list (TTY, not CI) or plain lines. */
  interactive?: boolean;
  /** Console: colours (false when NO_COLOR is set). */
  color?: boolean;
  /** Console: failures, errors and warnings only, no progress (--quiet). */
  quiet?: boolean;
  /** Console: marks a check the baseline accepts (≈ for an accepted failure) as it ends, as the reports will read it. */
  markBaselined?: (check: CheckResult) => CheckResult;
  /** Console: the reporters of the run (which report holds what a console line leaves out). */
  reporters?: readonly string[];
}

export type ReporterFactory = (opts: ReporterOptions) => Reporter;
