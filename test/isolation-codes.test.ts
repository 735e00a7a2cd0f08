// The isolation checks need a second organization, which the typed redemption creates: with the 3
// codes a sandbox certification asks for, every one of them is planned to run, the
// cross-organization decisions and notices_shown check among them, none skipped for a code shortage.

import { describe, expect, it } from 'vitest';
import { planCertification } from '../src/api-setup/certify-plan.js';
import type { NeedState } from '../src/api-setup/needs.js';
import { ALL_CHECKS } from '../suites/index.js';

const STATE: NeedState = {
  hasOrgToken: false,
  activationCodes: 3,
  expiredCode: false,
  disabledOrgToken: false,
  disabledPartnerKey: false,
  webhookReceiver: true,
  environment: 'sandbox',
  // With --exhaust-limits the quota check wants a fourth code too: it comes after the typed one.
  exhaustLimits: true,
  maxSpendCredits: 0,
};

describe('isolation checks with 3 activation codes', () => {
  it('plans every check that needs a second organization, decisions.other-organization-run-404 included', () => {
    const plan = planCertification({
      checks: ALL_CHECKS,
      state: STATE,
      codes: ['SVC-AAAA-AAA0', 'SVC-AAAA-AAA1', 'SVC-AAAA-AAA2'],
    });
    const isolation = ALL_CHECKS.filter((c) => c.needs?.includes('second-org'))
      .map((c) => c.id)
      .sort();
    expect(isolation).toContain('decisions.other-organization-run-404');
    const planned = new Set(plan.run.map((r) => r.check.id));
    const skipped = plan.skipped
      .filter((s) => isolation.includes(s.check.id))
      .map((s) => `${s.check.id}: ${s.skip.reason}`);
    expect(skipped).toEqual([]);
    expect(isolation.filter((id) => !planned.has(id))).toEqual([]);
  });
});
