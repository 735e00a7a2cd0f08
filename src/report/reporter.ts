// One Reporter interface; reporters live in a map keyed by their --reporter name
// (console, junit, html, json, markdown). Output must be deterministic for a given RunResult.

import type { CheckResult, RunResult } from '../runner/results.js';

export interface PlannedCheck {
  id: string;
  title: string;
  suite: string;
}

export interface RunStartInfo {
  checks: PlannedCheck[];
  suites: string[];
  target: RunResult['target'];
}

export interface Reporter {
  readonly name: string;
  onRunStart?(info: RunStartInfo): void;
  onCheckStart?(id: string): void;
  /** Live progress of a long wait, e.g. "cert-slow: 7/10 confirmed, 1:12 left". */
  onCheckProgress?(id: string, message: string): void;
  onCheckEnd?(result: CheckResult): void;
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
}

export type ReporterFactory = (opts: ReporterOptions) => Reporter;
