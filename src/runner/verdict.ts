// The verdict, decided once per certification and stored in the RunResult: the exit code and every
// reporter read this one decision, so they cannot disagree.

import type { RunResult, RunSummary, Verdict } from './results.js';

/**
 * Not certified when a check failed (beyond the baseline's expected failures) or the engine broke,
 * when a baseline entry is stale, expired or unknown, or, with --strict, when a check was skipped or
 * warned.
 */
export function decideVerdict(summary: RunSummary, strict: boolean, baselineProblems = 0): Verdict {
  if (summary.failed > 0 || summary.error > 0 || baselineProblems > 0) return 'not-certified';
  // `?? 0`: a results.json written before warnings existed has no such count.
  if (strict && (summary.skipped > 0 || (summary.warning ?? 0) > 0)) return 'not-certified';
  return 'certified';
}

/** The stored verdict; results.json written before verdicts were stored are decided from their counts. */
export function verdictOfResult(result: RunResult): Verdict {
  return result.verdict ?? decideVerdict(result.summary, result.config['strict'] === true, result.baseline?.problems.length ?? 0);
}
