// The runs-start suite against the embedded sandbox: every check passes on a clean one
// (that each fault makes its check fail is the fault matrix's, on the check's own assertion).

import { describe, expect, it } from 'vitest';
import { RUNS_START_CHECKS } from '../suites/runs-start/index.js';
import { certifySandbox, notPassed } from './support/certify-sandbox.js';

const ids = RUNS_START_CHECKS.map((c) => c.id);

describe('suite runs-start', () => {
  it('all pass against the clean sandbox, within the real-run budget', async () => {
    const result = await certifySandbox({ ids });
    expect(notPassed(result)).toEqual([]);
    expect(result.checks).toHaveLength(ids.length);
    // The shared real run, the one run whose submitted requirement is the job title, and the run started
    // without requirements whose derived ones the origin check judges (shared with the jobs suite).
    expect(result.stats?.realRuns).toBeLessThanOrEqual(3);
  });
});
