// The reveal and decisions suites against the reference sandbox: all pass when it is clean
// (that each fault makes its check fail is the fault matrix's, on the check's own assertion).

import { describe, expect, it } from 'vitest';
import { DECISIONS_CHECKS } from '../suites/decisions/index.js';
import { REVEAL_CHECKS } from '../suites/reveal/index.js';
import { certifySandbox, notPassed } from './support/certify-sandbox.js';

// The production reveal checks (suites/reveal-production/) have their own test: suite-reveal-production.test.ts.
const ids = [...REVEAL_CHECKS, ...DECISIONS_CHECKS].map((c) => c.id);

describe('reveal and decisions suites', () => {
  it('pass against the clean sandbox', async () => {
    const run = await certifySandbox({ ids });
    expect(notPassed(run)).toEqual([]);
  }, 120_000);
});
