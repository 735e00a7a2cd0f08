import type { RunResult } from './results.js';

/**
 * 0 all selected checks passed (warnings included); 1 a failure or engine error, or, with --strict,
 * a skip or a warning.
 */
export function exitCodeFor(result: RunResult, strict: boolean): 0 | 1 {
  const s = result.summary;
  if (s.failed > 0 || s.error > 0) return 1;
  if (strict && (s.skipped > 0 || s.warning > 0)) return 1;
  return 0;
}
