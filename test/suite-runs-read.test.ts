// The runs-read suite (with the sandbox masking checks it holds) against the embedded sandbox: every
// check passes on a clean one, at a high time scale and at 60 (where the shared run is read while
// still running), and each fault meant for one of its checks makes that check fail.

import { describe, expect, it } from 'vitest';
import { FAULTS } from '../src/sandbox/faults/index.js';
import { RUNS_READ_CHECKS } from '../suites/runs-read.js';
import { certifySandbox, notPassed, resultOf } from './support/certify-sandbox.js';

const ids = RUNS_READ_CHECKS.map((c) => c.id);
const mine = new Set(ids);
const caught = FAULTS.filter((f) => mine.has(f.caughtBy));

describe('suite runs-read', () => {
  it('all pass against the clean sandbox, within the real-run budget', async () => {
    const result = await certifySandbox({ ids });
    expect(notPassed(result)).toEqual([]);
    expect(result.checks).toHaveLength(ids.length);
    // Only the shared real run.
    expect(result.stats?.realRuns).toBeLessThanOrEqual(1);
  });

  it('all pass at time scale 60, where the shared run is read while still running', async () => {
    const result = await certifySandbox({ ids, timeScale: 60 });
    expect(notPassed(result)).toEqual([]);
    const reads = result.checks.find((c) => c.id === 'runs-read.progress-monotonic')!.exchanges.filter((e) => /read run #/.test(e.label ?? ''));
    expect(reads.some((e) => /"status":"running"/.test(e.response?.body ?? ''))).toBe(true);
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
