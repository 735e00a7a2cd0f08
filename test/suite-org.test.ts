// The activation, users and jobs suites against the embedded sandbox: all pass on a clean one
// (whatever 2xx it answers upserts with); a short code supply runs the most important activation checks
// first and skips the rest naming the flag (that each fault makes its check fail is the fault matrix's, on the check's own assertion).

import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from '../src/api-setup/check.js';
import type { RunResult } from '../src/runner/results.js';
import { ACTIVATION_CHECKS } from '../suites/activation.js';
import { ALL_CHECKS } from '../suites/index.js';
import { JOBS_CHECKS } from '../suites/jobs.js';
import { USERS_CHECKS } from '../suites/users.js';
import { certifySandbox, notPassed } from './support/certify-sandbox.js';

const MINE: readonly CheckDefinition[] = [...ACTIVATION_CHECKS, ...USERS_CHECKS, ...JOBS_CHECKS];
const TIME_SCALE = 600;
const RATE = 6000;

/** The shared helper provisions 6 codes; this one keeps only the first `codes` of them. */
function certifyWithCodes(checks: readonly CheckDefinition[], codes: number): Promise<RunResult> {
  return certifySandbox({
    ids: checks.map((c) => c.id),
    timeScale: TIME_SCALE,
    rateLimit: RATE,
    adjust: (config) => ({ ...config, activationCodes: config.activationCodes.slice(0, codes) }),
  });
}

// The rate limit's per-partner check needs a second organization too, but also --exhaust-limits: its
// burst is certified with the limits suite (test/suite-sandbox-limits.test.ts).
const ISOLATION: readonly CheckDefinition[] = ALL_CHECKS.filter(
  (c) => c.needs?.includes('second-org') && !c.needs.includes('exhaust-limits'),
);

describe('suite-org checks (activation, users, jobs)', () => {
  const ids = MINE.map((c) => c.id);

  it('all pass against the clean sandbox', async () => {
    const result = await certifySandbox({ ids });
    expect(notPassed(result)).toEqual([]);
    expect(result.checks).toHaveLength(ids.length);
  });

  it('users and jobs accept any 2xx (the success status is not shown)', async () => {
    const upserts = ids.filter((id) => /^(users|jobs)\./.test(id));
    const result = await certifySandbox({ ids: upserts, createdStatus: 201 });
    expect(notPassed(result)).toEqual([]);
  });

  it('a repeat POST /jobs that keeps the first description fails only the replaced-description check', async () => {
    // The three checks that read the derived run: the fault shows in the requirements derived at the start,
    // and neither the kept-description check nor the origin check reads that as its own offence.
    const derived = ['jobs.upsert-replaces-description', 'jobs.run-keeps-started-description'];
    const result = await certifySandbox({
      ids: [...derived, 'runs-start.unsent-requirement-origin-not-partner'],
      faults: ['jobs.repeat-keeps-description'],
    });
    expect(notPassed(result).map((line) => line.split(':')[0])).toEqual(['failed jobs.upsert-replaces-description']);
    expect(result.checks.find((c) => c.id === 'jobs.upsert-replaces-description')?.message).toMatch(
      /only the replaced description states/,
    );
  });

  it('run the most important activation checks first when codes are short', async () => {
    // The primary organization plus one code: the typed redemption (normalization, single use, isolation).
    const result = await certifyWithCodes([...ACTIVATION_CHECKS, ...ISOLATION], 2);
    const by = Object.fromEntries(result.checks.map((c) => [c.id, c]));
    for (const id of [
      'activation.already-redeemed-409',
      'activation.connects-organization',
      'activation.normalizes-code-input',
      'activation.unknown-code-404',
      ...ISOLATION.map((c) => c.id),
    ]) {
      expect(by[id]!.status, `${id}: ${by[id]!.message}`).toBe('passed');
    }
    expect(by['activation.external-id-taken-keeps-code']!.status).toBe('skipped');
    expect(by['activation.external-id-taken-keeps-code']!.message).toMatch(
      /^needs one more unused activation code \(2 given.*one more unlocks the external_id_taken check: --activation-code.*SVC_ACTIVATION_CODES/,
    );
  });

  it('run every activation and isolation check with 3 codes, or 2 with --org-token', async () => {
    const three = await certifyWithCodes([...ACTIVATION_CHECKS, ...ISOLATION], 3);
    expect(notPassed(three)).toEqual([]);
    // An organization connected beforehand (as --org-token), then two codes for the rest.
    const two = await certifySandbox({
      ids: [...ACTIVATION_CHECKS, ...ISOLATION].map((c) => c.id),
      timeScale: TIME_SCALE,
      rateLimit: RATE,
      orgToken: true,
      adjust: (config) => ({ ...config, activationCodes: config.activationCodes.slice(0, 2) }),
    });
    expect(notPassed(two)).toEqual([]);
  });
});
