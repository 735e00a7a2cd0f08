// The gate profile over the real catalogue, without a server: what it leaves to a certification and
// why, and that nothing it keeps spends a code or exhausts a limit.

import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../suites/index.js';
import { planCertification } from '../src/api-setup/certify-plan.js';
import {
  asGateResult,
  certificationOnlyOf,
  CERTIFICATION_ONLY,
  GATE_LEAVES_OUT,
  GATE_REASONS,
} from '../src/api-setup/gate-profile.js';
import { codeRolesOf } from '../src/api-setup/code-plan.js';
import type { NeedState } from '../src/api-setup/needs.js';
import type { CheckResult } from '../src/runner/results.js';

/** What a gate against a sandbox has: an org token and nothing else. */
const ORG_TOKEN_ONLY: NeedState = {
  hasOrgToken: true,
  activationCodes: 0,
  expiredCode: false,
  disabledOrgToken: false,
  disabledPartnerKey: false,
  webhookReceiver: false,
  environment: 'sandbox',
  exhaustLimits: false,
  maxSpendCredits: 0,
};

describe('the gate profile', () => {
  it('names only checks of the catalogue, each for one of its reasons', () => {
    const ids = new Set(ALL_CHECKS.map((c) => c.id));
    const reasons = new Set<string>(Object.values(GATE_REASONS));
    for (const [id, why] of Object.entries(GATE_LEAVES_OUT)) {
      expect(ids.has(id), id).toBe(true);
      expect(reasons.has(why), id).toBe(true);
    }
  });

  it('runs no check that spends a code or exhausts a limit; leaves them, and what needs an input not given, as certification only', () => {
    const plan = planCertification({ checks: ALL_CHECKS, state: ORG_TOKEN_ONLY, codes: [], gate: true });
    expect(plan.run.length).toBeGreaterThan(0);
    for (const { check } of plan.run) {
      expect(codeRolesOf(check.needs, true), check.id).toEqual([]);
      expect(check.needs ?? [], check.id).not.toContain('exhaust-limits');
      expect(GATE_LEAVES_OUT[check.id], check.id).toBeUndefined();
    }
    const left = new Map(plan.skipped.map(({ check, skip }) => [check.id, skip]));
    expect(left.get('limits.rate-limit-429')).toEqual({
      kind: 'deselected',
      reason: `${CERTIFICATION_ONLY}${GATE_REASONS.limits}`,
    });
    expect(left.get('activation.normalizes-code-input')).toEqual({
      kind: 'deselected',
      reason: `${CERTIFICATION_ONLY}${GATE_REASONS.code}`,
    });
    expect(left.get('auth.disabled-org-token-refused-403')?.reason).toMatch(
      /^certification only: needs the org token of a disabled organization: --disabled-org-token .*\(not given to the gate\)$/,
    );
    expect(left.get('fixtures.cert-slow.runs-three-minutes-then-completes')?.reason).toBe(
      `${CERTIFICATION_ONLY}${GATE_REASONS.certSlow}`,
    );
    // Only the gate's own reasons and environment facts skip: nothing is left needing an input.
    for (const [id, skip] of left) expect(['deselected', 'not-applicable'], id).toContain(skip.kind);
    // The same catalogue without --gate plans none of this as certification only.
    const full = planCertification({ checks: ALL_CHECKS, state: ORG_TOKEN_ONLY, codes: [] });
    expect(full.skipped.filter(({ skip }) => skip.reason.startsWith(CERTIFICATION_ONLY))).toEqual([]);
  });

  it('turns a skip for an input found only while running into certification only, and groups them by why', () => {
    const base = { title: 't', suite: 'auth', spec: [], durationMs: 0, observations: [], exchanges: [] };
    const checks: CheckResult[] = [
      asGateResult({
        ...base,
        id: 'auth.other-partner-key-isolated',
        status: 'skipped',
        skipKind: 'needs-input',
        unlock: '--other-partner-key',
        message: 'needs --other-partner-key',
      }),
      asGateResult({
        ...base,
        id: 'limits.rate-limit-429',
        status: 'skipped',
        skipKind: 'deselected',
        message: `${CERTIFICATION_ONLY}${GATE_REASONS.limits}`,
      }),
      asGateResult({ ...base, id: 'auth.x', status: 'passed', message: '' }),
      asGateResult({
        ...base,
        id: 'auth.y',
        status: 'skipped',
        skipKind: 'deselected',
        message: 'deselected by --grep',
      }),
    ];
    expect(checks[0]).toMatchObject({
      status: 'skipped',
      skipKind: 'deselected',
      message: 'certification only: needs --other-partner-key (not given to the gate)',
    });
    expect(checks[0]!.unlock).toBeUndefined();
    expect(certificationOnlyOf(checks)).toEqual([
      { why: 'needs --other-partner-key (not given to the gate)', checks: ['auth.other-partner-key-isolated'] },
      { why: GATE_REASONS.limits, checks: ['limits.rate-limit-429'] },
    ]);
  });
});
