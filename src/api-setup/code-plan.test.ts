import { describe, expect, it } from 'vitest';
import { codeRolesOf, codesForEveryRole, planActivationCodes, type CodeRole } from './code-plan.js';

const ALL: CodeRole[] = ['typed', 'taken', 'fresh'];
const codes = (n: number): string[] => Array.from({ length: n }, (_, i) => `SVC-AAAA-AAA${i}`);

describe('planActivationCodes', () => {
  it('runs every role with 3 codes (2 with --org-token), one more for the quota check', () => {
    expect(codesForEveryRole(false, false)).toBe(3);
    expect(codesForEveryRole(true, false)).toBe(2);
    expect(codesForEveryRole(false, true)).toBe(4);
    const full = planActivationCodes({ codes: codes(4), hasOrgToken: false, wanted: ALL });
    expect(full.assigned).toEqual({ primary: codes(4)[0], typed: codes(4)[1], taken: codes(4)[2], fresh: codes(4)[3] });
    expect(full.spare).toEqual([]);
    const withToken = planActivationCodes({ codes: codes(2), hasOrgToken: true, wanted: ['typed', 'taken'] });
    expect(withToken.assigned).toEqual({ typed: codes(2)[0], taken: codes(2)[1] });
  });

  it('gives a short supply to isolation first, then external_id_taken, then the quota check', () => {
    const two = planActivationCodes({ codes: codes(2), hasOrgToken: false, wanted: ALL });
    expect(Object.keys(two.assigned)).toEqual(['primary', 'typed']);
    expect(two.shortage('taken').reason).toMatch(
      /^needs one more unused activation code \(2 given, spent by importance on .*isolation.*\); one more unlocks the external_id_taken check: --activation-code/,
    );
    expect(two.shortage('fresh').reason).toMatch(
      /^needs 2 more unused activation codes .* 2 more unlock the sandbox run quota check/,
    );
    const one = planActivationCodes({ codes: codes(1), hasOrgToken: false, wanted: ALL });
    expect(one.assigned).toEqual({ primary: codes(1)[0] });
    expect(one.shortage('typed').reason).toMatch(/one more unlocks the isolation checks/);
    const none = planActivationCodes({ codes: [], hasOrgToken: true, wanted: ALL });
    expect(none.shortage('typed').reason).toMatch(
      /^needs one more unused activation code \(0 given\); one more unlocks the isolation/,
    );
    expect(none.shortage('fresh').reason).toMatch(/^needs 3 more/);
  });

  it('plans only the roles the selected checks call for; the rest stay spare', () => {
    const quotaOnly = planActivationCodes({ codes: codes(3), hasOrgToken: true, wanted: ['fresh'] });
    expect(quotaOnly.assigned).toEqual({ fresh: codes(3)[0] });
    expect(quotaOnly.spare).toEqual(codes(3).slice(1));
  });
});

describe('codeRolesOf', () => {
  it("maps needs to roles; with --org-token external_id_taken takes the typed organization's external_id", () => {
    expect(codeRolesOf(['org', 'second-org'], false)).toEqual(['typed']);
    expect(codeRolesOf(['redemption'], false)).toEqual(['primary']);
    expect(codeRolesOf(['redemption'], true)).toEqual(['typed']);
    expect(codeRolesOf(['taken-redemption'], false)).toEqual(['primary', 'taken']);
    expect(codeRolesOf(['taken-redemption'], true)).toEqual(['typed', 'taken']);
    expect(codeRolesOf(['fresh-org', 'exhaust-limits'], false)).toEqual(['fresh']);
    expect(codeRolesOf(undefined, false)).toEqual([]);
  });
});
