// The certification plan without a server: which checks run, in which order, which are skipped and
// why, and where the activation codes go, for the inputs a user can give.

import { describe, expect, it } from 'vitest';
import type { Config } from '../config/config.js';
import type { CheckDefinition } from './check.js';
import type { Need } from './needs.js';
import { needStateOf, planCertification, primaryOnlyPlan, type CertificationPlan } from './certify-plan.js';
import type { NeedState } from './needs.js';

const codes = (n: number): string[] => Array.from({ length: n }, (_, i) => `SVC-AAAA-AAA${i}`);

const check = (id: string, needs: Need[], timeoutMs?: number): CheckDefinition => ({
  id: `alpha.${id}`,
  title: id,
  suite: 'alpha',
  spec: ['Authentication'],
  needs,
  evidence: 'provoked',
  ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  run: async () => undefined,
});

// The needs as the real suites declare them, one check per kind of need.
const CHECKS = [
  check('org', ['org']),
  check('sandbox', ['sandbox', 'org']),
  check('production', ['production', 'org']),
  check('isolation', ['org', 'second-org']),
  check('typed', ['typed-redemption']),
  check('redemption', ['redemption']),
  check('taken', ['taken-redemption']),
  check('quota', ['sandbox', 'exhaust-limits', 'fresh-org']),
  check('spend', ['spend-credits', 'org']),
  check('webhook', ['sandbox', 'webhook-receiver']),
];

function state(over: Partial<NeedState> = {}): NeedState {
  return {
    hasOrgToken: false,
    activationCodes: 0,
    expiredCode: false,
    disabledOrgToken: false,
    disabledPartnerKey: false,
    webhookReceiver: true,
    environment: 'sandbox',
    exhaustLimits: false,
    maxSpendCredits: 0,
    ...over,
  };
}

function plan(
  n: number,
  over: Partial<NeedState> = {},
  checks: readonly CheckDefinition[] = CHECKS,
): CertificationPlan {
  return planCertification({ checks, state: state({ activationCodes: n, ...over }), codes: codes(n) });
}

const ran = (p: CertificationPlan): string[] => p.run.map((r) => r.check.id.slice(6)).sort();
const skips = (p: CertificationPlan): Record<string, string> =>
  Object.fromEntries(p.skipped.map((s) => [s.check.id.slice(6), s.skip.reason]));

describe('planCertification: activation codes', () => {
  it('3 codes run every sandbox check but the quota check, which waits for --exhaust-limits', () => {
    const p = plan(3);
    expect(p.codes.assigned).toEqual({ primary: codes(3)[0], typed: codes(3)[1], taken: codes(3)[2] });
    expect(ran(p)).toEqual(['isolation', 'org', 'redemption', 'sandbox', 'taken', 'typed', 'webhook']);
    expect(skips(p).quota).toBe('uses up the rate limit or the daily run quota: enable with --exhaust-limits');
  });

  it('2 codes go to the primary and the typed redemption; the skip says one more unlocks external_id_taken', () => {
    const p = plan(2);
    expect(p.codes.assigned).toEqual({ primary: codes(2)[0], typed: codes(2)[1] });
    expect(ran(p)).toEqual(['isolation', 'org', 'redemption', 'sandbox', 'typed', 'webhook']);
    expect(skips(p).taken).toMatch(
      /^needs one more unused activation code \(2 given, spent by importance on the organization every check works in; the isolation checks .*\); one more unlocks the external_id_taken check: --activation-code \(repeatable\) or SVC_ACTIVATION_CODES$/,
    );
  });

  it('1 code: only the primary organization; the skips count the codes still missing', () => {
    const p = plan(1);
    expect(p.codes.assigned).toEqual({ primary: codes(1)[0] });
    expect(ran(p)).toEqual(['org', 'redemption', 'sandbox', 'webhook']);
    expect(skips(p).isolation).toMatch(
      /^needs one more unused activation code \(1 given, .*\); one more unlocks the isolation checks/,
    );
    expect(skips(p).taken).toMatch(
      /^needs 2 more unused activation codes \(1 given, .*\); 2 more unlock the external_id_taken check/,
    );
  });

  it('no code and no --org-token: every check of the organization names both ways to get one', () => {
    const p = plan(0);
    expect(p.codes.assigned).toEqual({});
    expect(ran(p)).toEqual(['webhook']);
    const noOrg =
      'needs an organization: --org-token or SVC_ORG_TOKEN, or an activation code (--activation-code or SVC_ACTIVATION_CODES)';
    expect(skips(p).org).toBe(noOrg);
    // The primary organization's redemption is read, so that check too waits for an organization.
    expect(skips(p).redemption).toBe(noOrg);
    expect(skips(p).taken).toMatch(
      /^needs 3 more unused activation codes \(0 given\); 3 more unlock the external_id_taken check/,
    );
  });

  it('--exhaust-limits: 4 codes run the quota check on a fresh organization; 3 say one more unlocks it', () => {
    const four = plan(4, { exhaustLimits: true });
    expect(four.codes.assigned).toEqual({
      primary: codes(4)[0],
      typed: codes(4)[1],
      taken: codes(4)[2],
      fresh: codes(4)[3],
    });
    expect(ran(four)).toContain('quota');
    const three = plan(3, { exhaustLimits: true });
    expect(three.codes.assigned.fresh).toBeUndefined();
    expect(ran(three)).toEqual(['isolation', 'org', 'redemption', 'sandbox', 'taken', 'typed', 'webhook']);
    expect(skips(three).quota).toMatch(
      /^needs one more unused activation code \(3 given, .*\); one more unlocks the sandbox run quota check \(a fresh organization\)/,
    );
  });

  it('--org-token: 2 codes run everything; the redemption and external_id_taken read the typed organization', () => {
    const p = plan(2, { hasOrgToken: true });
    expect(p.codes.assigned).toEqual({ typed: codes(2)[0], taken: codes(2)[1] });
    expect(ran(p)).toEqual(['isolation', 'org', 'redemption', 'sandbox', 'taken', 'typed', 'webhook']);
    const none = plan(0, { hasOrgToken: true });
    expect(ran(none)).toEqual(['org', 'sandbox', 'webhook']);
    expect(skips(none).redemption).toMatch(
      /^needs one more unused activation code \(0 given\); one more unlocks the isolation checks/,
    );
  });

  it('gives codes no role wanted to the checks that take one, in report order, then skips', () => {
    const takers = [
      check('one', ['activation-code']),
      check('two', ['two-activation-codes']),
      check('three', ['activation-code']),
    ];
    const p = plan(3, {}, takers);
    expect(p.codes.assigned).toEqual({ primary: codes(3)[0] });
    expect(p.run.map((r) => [r.check.id, r.reservedCodes])).toEqual([
      ['alpha.one', [codes(3)[1]]],
      ['alpha.three', [codes(3)[2]]],
    ]);
    expect(skips(p).two).toBe(
      'needs two more unused activation codes beyond the planned ones: --activation-code (repeatable) or SVC_ACTIVATION_CODES (3 given, all taken)',
    );
    // Reserved codes are no one else's: none is left for takeActivationCode().
    expect(p.codes.spare).toEqual([]);
  });
});

describe('planCertification: environment and inputs', () => {
  it('sandbox and production checks each skip on the other side, naming how the environment was decided', () => {
    const sandbox = plan(3);
    expect(skips(sandbox).production).toBe(
      'applies to production only; the target is the sandbox (x-svc-environment: sandbox, or --environment / SVC_ENVIRONMENT)',
    );
    expect(skips(sandbox).spend).toBe('spends credits, which only production does');
    const production = plan(3, { environment: 'production' });
    expect(ran(production)).toContain('production');
    for (const id of ['sandbox', 'webhook', 'quota']) {
      expect(skips(production)[id]).toBe(
        'applies to the sandbox only; the target is production (x-svc-environment absent, or --environment / SVC_ENVIRONMENT)',
      );
    }
    expect(skips(production).spend).toBe(
      'would spend credits: allow with --max-spend-credits N or SVC_MAX_SPEND_CREDITS',
    );
    expect(ran(plan(3, { environment: 'production', maxSpendCredits: 10 }))).toContain('spend');
  });

  it('without a receiver the webhook checks name --webhook-secret', () => {
    expect(skips(plan(3, { webhookReceiver: false })).webhook).toMatch(
      /^needs a webhook receiver: --webhook-secret or SVC_WEBHOOK_SECRET/,
    );
  });

  it('a skipped check asks for no code: its role goes to the next check that needs one', () => {
    // In production the quota check is out (sandbox only), so it claims no fresh code even with --exhaust-limits.
    const p = plan(4, { environment: 'production', exhaustLimits: true });
    expect(p.codes.assigned.fresh).toBeUndefined();
    expect(p.codes.spare).toEqual([codes(4)[3]]);
  });
});

describe('planCertification: order', () => {
  it('runs the longest declared budgets first, ties in report order; skips in report order', () => {
    const checks = [
      check('short', ['org'], 10_000),
      check('skipped-b', ['expired-code']),
      check('default', ['org']),
      check('long', ['org'], 300_000),
      check('skipped-a', ['disabled-org-token']),
      check('default-2', []),
    ];
    const p = plan(1, {}, checks);
    expect(p.run.map((r) => r.check.id.slice(6))).toEqual(['long', 'default', 'default-2', 'short']);
    expect(p.skipped.map((s) => s.check.id.slice(6))).toEqual(['skipped-b', 'skipped-a']);
    expect(skips(p)['skipped-b']).toBe('needs an expired activation code: --expired-code or SVC_EXPIRED_CODE');
  });
});

describe('primaryOnlyPlan and needStateOf', () => {
  it('before the checks are planned, only the primary organization has a code (none with --org-token)', () => {
    expect(primaryOnlyPlan(codes(3), false).assigned).toEqual({ primary: codes(3)[0] });
    expect(primaryOnlyPlan(codes(3), true).assigned).toEqual({});
    // Every later plan gives the primary the same, first, code.
    expect(plan(3).codes.assigned.primary).toBe(primaryOnlyPlan(codes(3), false).assigned.primary);
  });

  it('reads what the certification has from the configuration and what the target told', () => {
    const config = {
      activationCodes: codes(2),
      orgToken: `sot_${'cd'.repeat(24)}`,
      expiredCode: 'SVC-EEEE-EEEE',
      exhaustLimits: true,
      maxSpendCredits: 5,
      noWebhookRegistered: true,
    } as Partial<Config> as Config;
    expect(needStateOf(config, { environment: 'production', webhookReceiver: false })).toEqual({
      hasOrgToken: true,
      activationCodes: 2,
      expiredCode: true,
      disabledOrgToken: false,
      disabledPartnerKey: false,
      webhookReceiver: false,
      noWebhookRegistered: true,
      environment: 'production',
      exhaustLimits: true,
      maxSpendCredits: 5,
    });
  });
});
