// A results.json laundered as an attacker would: 212 checks, 89 of them failed, under a verdict and
// counts edited to read "certified, 212 passed". Shared by the hostile matrix's row and the unit test
// of src/report/recomputed-verdict.ts.

import { makeRunResult } from '../report-fixtures.js';
import type { CheckResult, RunResult } from '../../src/runner/results.js';

/** 212 checks, 89 of them failed, under a verdict and counts edited to read "certified, 212 passed". */
export function launderedResult(): RunResult {
  const base = makeRunResult();
  const failed = base.checks.find((c) => c.status === 'failed');
  const passed = base.checks.find((c) => c.status === 'passed');
  if (!failed || !passed) throw new Error('the fixture has a failed and a passed check');
  const checks: CheckResult[] = Array.from({ length: 212 }, (_, i) => {
    const like = i < 89 ? failed : passed;
    return { ...like, id: `${like.suite}.laundered-${String(i).padStart(3, '0')}` };
  });
  return {
    ...base,
    checks,
    verdict: 'certified',
    summary: { total: 212, passed: 212, failed: 0, skipped: 0, error: 0, warning: 0, expected: 0 },
  };
}
