// The explore suite against the embedded sandbox: every property holds on a clean one, with a given
// seed and with another; the same seed sends the same requests; each exploration fault fails its
// check (the fault matrix proves each pair, this file one per property class, quickly); --explore 0
// turns the suite off without leaving the certification incomplete.

import { describe, expect, it } from 'vitest';
import { defaultExploreRequests } from '../src/config/explore-defaults.js';
import type { RunResult } from '../src/runner/results.js';
import { EXPLORE_CHECKS } from '../suites/explore/index.js';
import { certifySandbox, failedOnOwnAssertion, notPassed, resultOf } from './support/certify-sandbox.js';

const ids = EXPLORE_CHECKS.map((c) => c.id);

/** The generated requests of a run (method, path, body), in each check's own order. */
function generatedRequests(run: RunResult): string[] {
  return run.checks.flatMap((c) =>
    c.exchanges
      .filter((e) => /^case \d+/.test(e.label ?? ''))
      // Fresh identifiers carry the certification's nonce: the generated part is what the seed fixes.
      .map((e) => `${c.id} ${e.label ?? ''}`),
  );
}

describe('explore suite', () => {
  it('at the default cap (what the critical path leaves at 120 a minute) explores every property of every endpoint', async () => {
    const run = await certifySandbox({ ids });
    expect(notPassed(run)).toEqual([]);
    expect(run.exploration?.cap).toBe(defaultExploreRequests(120));
    const silent = run.checks.filter((c) => !c.exchanges.some((e) => (e.label ?? '').startsWith('case ')));
    expect(silent.map((c) => c.id)).toEqual([]);
  });

  it('at the default cap, a body parser that crashes on an array body fails every schema-mismatch check', async () => {
    const mismatch = ids.filter((id) => id.endsWith('.schema-mismatch-answered-4xx'));
    const run = await certifySandbox({ faults: ['explore.array-body-500'], ids: mismatch });
    expect(run.exploration?.cap).toBe(defaultExploreRequests(120));
    const caught = mismatch.filter((id) => failedOnOwnAssertion(resultOf(run, id)));
    expect(caught).toEqual(mismatch);
  });

  it.each([
    ['explore.user-name-number-stored', 'explore.users.schema-mismatch-answered-4xx'],
    ['explore.job-text-number-stored', 'explore.jobs.schema-mismatch-answered-4xx'],
    ['explore.redeem-code-non-string-500', 'explore.redeem.schema-mismatch-answered-4xx'],
    ['runs-start.target-count-string-coerced', 'explore.runs-start.schema-mismatch-answered-4xx'],
  ])(
    'at the default cap, %s fails %s: every field gets its wrong type before any gets a second case',
    async (fault, checkId) => {
      const run = await certifySandbox({ faults: [fault], ids: [checkId] });
      expect(run.exploration?.cap).toBe(defaultExploreRequests(120));
      const result = resultOf(run, checkId);
      expect(failedOnOwnAssertion(result), result.message).toBe(true);
    },
  );

  it('holds on the clean sandbox with two seeds, and a seed sends the same requests again', async () => {
    const a = await certifySandbox({ ids, flags: { seed: '7', explore: '300' } });
    expect(notPassed(a)).toEqual([]);
    expect(a.exploration?.seed).toBe(7);
    expect(a.exploration?.sent).toBeGreaterThan(100);
    const again = await certifySandbox({ ids, flags: { seed: '7', explore: '300' } });
    expect(generatedRequests(again)).toEqual(generatedRequests(a));
    const b = await certifySandbox({ ids, flags: { seed: '123456789', explore: '300' } });
    expect(notPassed(b)).toEqual([]);
    expect(generatedRequests(b)).not.toEqual(generatedRequests(a));
  });

  it.each([
    ['explore.array-body-500', 'explore.users.schema-mismatch-answered-4xx'],
    ['explore.outside-bmp-500', 'explore.decisions.valid-input-never-5xx'],
    ['explore.non-ascii-success-off-schema', 'explore.runs-start.success-matches-response-schema'],
    ['jobs.rejection-stores-job', 'explore.jobs.refused-write-stored-nothing'],
  ])('%s fails %s on its own assertion, shrunk, with the seed to replay it', async (fault, checkId) => {
    // A deeper exploration than the default's, so each fault's case is reached whatever the seed's draw.
    const run = await certifySandbox({ faults: [fault], ids: [checkId], flags: { seed: '11', explore: '300' } });
    const result = resultOf(run, checkId);
    expect(failedOnOwnAssertion(result), result.message).toBe(true);
    expect(result.message).toContain('--seed 11');
  });

  it('--explore 0 skips every check as not applicable', async () => {
    const run = await certifySandbox({ ids, flags: { explore: '0' } });
    expect(run.checks.every((c) => c.status === 'skipped' && c.skipKind === 'not-applicable')).toBe(true);
    expect(run.exploration).toEqual({ seed: expect.any(Number), cap: 0, sent: 0 });
  });
});
