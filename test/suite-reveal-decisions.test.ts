// The reveal and decisions suites against the reference sandbox: all pass when it is clean, and each
// fault meant for one of them makes that check fail.

import { describe, expect, it } from 'vitest';
import { DECISIONS_CHECKS } from '../suites/decisions.js';
import { REVEAL_CHECKS } from '../suites/reveal.js';
import { certifySandbox, notPassed, resultOf } from './support/certify-sandbox.js';
import { listFaults } from '../src/sandbox/index.js';

const FAULTS = listFaults();

const PRODUCTION_ONLY = new Set(['reveal.production-charged-once']);
const ids = [...REVEAL_CHECKS, ...DECISIONS_CHECKS].map((c) => c.id);
const sandboxIds = ids.filter((id) => !PRODUCTION_ONLY.has(id));
const PRODUCTION = { mode: 'production' as const, flags: { maxSpendCredits: '100' } };

describe('reveal and decisions suites', () => {
  it('pass against the clean sandbox', async () => {
    const run = await certifySandbox({ ids: sandboxIds });
    expect(notPassed(run)).toEqual([]);
  }, 120_000);

  it('the production reveal check passes against the clean sandbox in production mode', async () => {
    const run = await certifySandbox({ ids: [...PRODUCTION_ONLY], ...PRODUCTION });
    expect(notPassed(run)).toEqual([]);
  }, 120_000);

  it('every check has a fault that names it', () => {
    const caught = new Set(FAULTS.map((f) => f.caughtBy));
    expect(ids.filter((id) => !caught.has(id))).toEqual([]);
  });

  const mine = FAULTS.filter((f) => ids.includes(f.caughtBy));
  it.each(mine.map((f) => [f.id, f.caughtBy] as const))('fault %s fails %s', async (fault, check) => {
    const run = await certifySandbox({ ids: [check], faults: [fault], ...(PRODUCTION_ONLY.has(check) ? PRODUCTION : {}) });
    const r = resultOf(run, check);
    expect(r.status, `${check}: ${r.message}`).toBe('failed');
  }, 120_000);
});
