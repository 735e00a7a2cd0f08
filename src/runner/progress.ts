// What a certification tells whoever watches it while it runs (the reporters, a live checklist). The
// runner defines it so that it never imports the reporters that implement it.

import type { CheckResult, RunResult } from './results.js';

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

export interface ProgressListener {
  onRunStart?(info: RunStartInfo): void;
  onCheckStart?(id: string): void;
  /** Live progress of a long wait, e.g. "cert-slow: 7/10 confirmed, 1:12 left". */
  onCheckProgress?(id: string, message: string): void;
  onCheckEnd?(result: CheckResult): void;
}
