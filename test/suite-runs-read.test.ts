// The runs-read suite (with the sandbox masking checks it holds) against the embedded sandbox: every
// check passes on a clean one, at a high time scale and at 60 (where the shared run is read while
// still running) (that each fault makes its check fail is the fault matrix's, on the check's own assertion).

import { describe, expect, it } from 'vitest';
import { findPhone, RUNS_READ_CHECKS } from '../suites/runs-read.js';
import { certifySandbox, notPassed } from './support/certify-sandbox.js';

const ids = RUNS_READ_CHECKS.map((c) => c.id);

describe('suite runs-read', () => {
  it('all pass against the clean sandbox, within the real-run budget', async () => {
    const result = await certifySandbox({ ids });
    expect(notPassed(result)).toEqual([]);
    expect(result.checks).toHaveLength(ids.length);
    // Only the two shared real runs (the second, which runs-start's title check starts anyway, for the
    // pseudonyms both runs must agree on).
    expect(result.stats?.realRuns).toBeLessThanOrEqual(2);
  });

  it('all pass at time scale 60, where the shared run is read while still running', async () => {
    const result = await certifySandbox({ ids, timeScale: 60 });
    expect(notPassed(result)).toEqual([]);
    const reads = result.checks
      .find((c) => c.id === 'runs-read.progress-monotonic')!
      .exchanges.filter((e) => /read run #/.test(e.label ?? ''));
    expect(reads.some((e) => /"status":"running"/.test(e.response?.body ?? ''))).toBe(true);
  });
});

describe('phone detector of sandbox.contact-identifiers-masked', () => {
  it.each([
    'TypeScript 5.4 (2019-2024)',
    'Node.js 18.0.1 2020-2024',
    'Worked 2016 - 2018 2018 - 2023',
    '(2015-2019) (2019-2023)',
    'Backend engineer 2012-2016, 2016-2024',
    'Python 3.11.4, Django 4.2 (2020 - 2024)',
    'employee id 123456789',
    'C++ 17 since 2015 2016',
    'Tel Aviv 6473925',
    '[phone hidden in sandbox]',
    'released 2021-05-12',
    'order 0123456789012',
    'v1.0521234567',
  ])('does not flag %j', (text) => {
    expect(findPhone(text)).toBeUndefined();
  });

  it.each([
    ['call +972-54-123-4567 today', '+972-54-123-4567'],
    ['mobile 054-1234567', '054-1234567'],
    ['office (03) 555-1234.', '(03) 555-1234'],
    ['US: +1 555 010 1234', '+1 555 010 1234'],
    ['+1-555-010-0042', '+1-555-010-0042'],
    ['555.010.1234', '555.010.1234'],
    ['03-555-1234', '03-555-1234'],
    ['(555) 010-1234', '(555) 010-1234'],
    ['+972541234567', '+972541234567'],
    ['phone 0521234567.', '0521234567'],
    ['call 031234567 now', '031234567'],
  ])('flags %j', (text, phone) => {
    expect(findPhone(text)).toBe(phone);
  });
});
