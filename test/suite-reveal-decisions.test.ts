// The reveal and decisions suites against the reference sandbox: all pass when it is clean, and each
// fault meant for one of them makes that check fail.

import { describe, expect, it } from 'vitest';
import { DECISIONS_CHECKS } from '../suites/decisions.js';
import { REVEAL_CHECKS } from '../suites/reveal.js';
import { certifySandbox, notPassed, resultOf } from './support/certify-sandbox.js';
import { listFaults } from '../src/sandbox/index.js';

const FAULTS = listFaults();

// The production reveal checks (suites/reveal-production.ts) have their own test: suite-reveal-production.test.ts.
const ids = [...REVEAL_CHECKS, ...DECISIONS_CHECKS].map((c) => c.id);

describe('reveal and decisions suites', () => {
  it('pass against the clean sandbox', async () => {
    const run = await certifySandbox({ ids });
    expect(notPassed(run)).toEqual([]);
  }, 120_000);

  it('every check has a fault that names it', () => {
    const caught = new Set(FAULTS.map((f) => f.caughtBy));
    expect(ids.filter((id) => !caught.has(id))).toEqual([]);
  });

  const mine = FAULTS.filter((f) => ids.includes(f.caughtBy));
  it.each(mine.map((f) => [f.id, f.caughtBy] as const))(
    'fault %s fails %s',
    async (fault, check) => {
      const run = await certifySandbox({ ids: [check], faults: [fault] });
      const r = resultOf(run, check);
      expect(r.status, `${check}: ${r.message}`).toBe('failed');
    },
    120_000,
  );
});
