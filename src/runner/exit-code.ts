import type { RunResult } from './results.js';
import { decideVerdict } from './verdict.js';

/**
 * 0 all selected checks passed (warnings and baseline-accepted failures included); 1 a failure or
 * engine error, a baseline problem, or, with --strict, a skip or a warning.
 */
export function exitCodeFor(result: RunResult, strict: boolean): 0 | 1 {
  return decideVerdict(result.summary, strict, result.baseline?.problems.length ?? 0) === 'certified' ? 0 : 1;
}
