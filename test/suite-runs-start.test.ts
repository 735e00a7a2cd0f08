// The runs-start suite against the embedded sandbox: every check passes on a clean one, and each
// fault meant for one of its checks makes that check fail.

import { describe, expect, it } from 'vitest';
import { RUNS_START_CHECKS } from '../suites/runs-start.js';
import { certifySandbox, notPassed, resultOf } from './support/certify-sandbox.js';
import { listFaults } from '../src/sandbox/index.js';

const FAULTS = listFaults();

const ids = RUNS_START_CHECKS.map((c) => c.id);
const mine = new Set(ids);
const caught = FAULTS.filter((f) => mine.has(f.caughtBy));

describe('suite runs-start', () => {
  it('all pass against the clean sandbox, within the real-run budget', async () => {
    const result = await certifySandbox({ ids });
    expect(notPassed(result)).toEqual([]);
    expect(result.checks).toHaveLength(ids.length);
    // The shared real run and the one run whose submitted requirement is the job title.
    expect(result.stats?.realRuns).toBeLessThanOrEqual(2);
  });

  it('every check has a fault that makes it fail', () => {
    const withFault = new Set(caught.map((f) => f.caughtBy));
    expect(ids.filter((id) => !withFault.has(id))).toEqual([]);
  });

  for (const fault of caught) {
    it(`fault ${fault.id} fails ${fault.caughtBy}`, async () => {
      const r = resultOf(await certifySandbox({ ids: [fault.caughtBy], faults: [fault.id] }), fault.caughtBy);
      expect(r.status, `${r.id}: ${r.message}`).toBe('failed');
    });
  }
});
