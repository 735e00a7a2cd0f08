// What a certification will do, decided before its first check runs: which checks run and in which
// order, which are skipped and why (an unmet need names the flag that provides it; a shortage of
// activation codes says how many more codes unlock what), and which activation code goes where.
// Pure: no request, no clock; certify() executes the plan (certify-plan.test.ts tests it without a
// server).

import type { Config } from '../config/config.js';
import type { CheckDefinition } from './check.js';
import type { SkipDecision } from '../runner/outcome.js';
import { codeRolesOf, planActivationCodes, type CodePlan } from './code-plan.js';
import { codesNeeded, unmetNeed, type NeedState } from './needs.js';
import { DEFAULT_CHECK_TIMEOUT_MS } from '../runner/check.js';
import { gateSkip } from './gate-profile.js';

interface PlannedCheck {
  check: CheckDefinition;
  /** Unused activation codes only this check takes (needs 'activation-code', 'two-activation-codes'). */
  reservedCodes: string[];
}

interface SkippedCheck {
  check: CheckDefinition;
  skip: SkipDecision;
}

export interface CertificationPlan {
  /** The checks that run, longest declared budget first (ties keep report order): the long waits start at once. */
  run: PlannedCheck[];
  /** The checks settled as skipped before anything runs, in report order. */
  skipped: SkippedCheck[];
  /** Activation codes by role; its spare codes are those no role and no check reserved. */
  codes: CodePlan;
}

/** What this certification has, as the needs of checks read it. */
export function needStateOf(
  config: Config,
  facts: { environment: 'sandbox' | 'production'; webhookReceiver: boolean },
): NeedState {
  return {
    hasOrgToken: config.orgToken !== undefined,
    activationCodes: config.activationCodes.length,
    expiredCode: config.expiredCode !== undefined,
    disabledOrgToken: config.disabledOrgToken !== undefined,
    disabledPartnerKey: config.disabledPartnerKey !== undefined,
    webhookReceiver: facts.webhookReceiver,
    noWebhookRegistered: config.noWebhookRegistered === true,
    environment: facts.environment,
    exhaustLimits: config.exhaustLimits,
    maxSpendCredits: config.maxSpendCredits,
  };
}

/**
 * The plan before the checks are known to it: the primary organization's code only (the environment
 * probes may need that organization). Every later plan gives the primary the same, first, code.
 */
export function primaryOnlyPlan(codes: readonly string[], hasOrgToken: boolean): CodePlan {
  return planActivationCodes({ codes, hasOrgToken, wanted: [] });
}

export function planCertification(input: {
  /** The selected checks, in report order. */
  checks: readonly CheckDefinition[];
  state: NeedState;
  /** The activation codes given, in the order given. */
  codes: readonly string[];
  /** The gate profile (--gate): what it leaves out is skipped as certification only (gate-profile.ts). */
  gate?: boolean;
}): CertificationPlan {
  const { state } = input;
  const hasOrgToken = state.hasOrgToken;
  const reasons = new Map<CheckDefinition, SkipDecision>();
  for (const check of input.checks) {
    const left = input.gate ? gateSkip(check, state) : undefined;
    if (left) {
      reasons.set(check, left);
      continue;
    }
    for (const need of check.needs ?? []) {
      const why = unmetNeed(need, state);
      if (why !== undefined) {
        reasons.set(check, why);
        break;
      }
    }
  }
  // Activation codes are scarce and single-use: planned by importance for the roles the checks still
  // in the plan call for (code-plan.ts); codes no role wanted go to checks that take one, in report order.
  const codes = planActivationCodes({
    codes: input.codes,
    hasOrgToken,
    wanted: input.checks.filter((c) => !reasons.has(c)).flatMap((c) => codeRolesOf(c.needs, hasOrgToken)),
  });
  const spare = [...codes.spare];
  const run: PlannedCheck[] = [];
  for (const check of input.checks) {
    if (reasons.has(check)) continue;
    const roles = codeRolesOf(check.needs, hasOrgToken);
    const missing = roles.find((role) => role !== 'primary' && codes.assigned[role] === undefined);
    if (missing !== undefined) {
      reasons.set(check, codes.shortage(missing));
      continue;
    }
    // The primary goes without a code only when none is given and there is no --org-token.
    const noOrg =
      roles.includes('primary') && codes.assigned.primary === undefined ? unmetNeed('org', state) : undefined;
    if (noOrg !== undefined) {
      reasons.set(check, noOrg);
      continue;
    }
    const wanted = codesNeeded(check.needs);
    if (wanted > spare.length) {
      reasons.set(check, {
        kind: 'needs-input',
        reason:
          `needs ${wanted === 1 ? 'one more unused activation code' : 'two more unused activation codes'} beyond the planned ones: ` +
          `--activation-code (repeatable) or SVC_ACTIVATION_CODES (${input.codes.length} given, all taken)`,
        unlock: `${wanted} more activation code${wanted === 1 ? '' : 's'} (--activation-code)`,
      });
      continue;
    }
    run.push({ check, reservedCodes: spare.splice(0, wanted) });
  }
  // Stable: ties keep report order.
  run.sort((a, b) => budgetOf(b.check) - budgetOf(a.check));
  return {
    run,
    skipped: input.checks.filter((c) => reasons.has(c)).map((check) => ({ check, skip: reasons.get(check)! })),
    codes: { ...codes, spare },
  };
}

function budgetOf(check: CheckDefinition): number {
  return check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
}

/**
 * How many activation codes beyond those given the selected checks could spend, in either environment
 * (the plan is made once the target told which): what --activation-code-command is asked for, so it
 * hands out no code the certification would leave unused, and none short.
 */
export function codesWanted(checks: readonly CheckDefinition[], config: Config): number {
  const many = Array.from({ length: 16 }, (_, i) => `SVC-AAAA-AA${String.fromCharCode(65 + i)}A`);
  const spentIn = (environment: 'sandbox' | 'production'): number => {
    const state = { ...needStateOf(config, { environment, webhookReceiver: true }), activationCodes: many.length };
    const plan = planCertification({ checks, state, codes: many });
    return many.length - plan.codes.spare.length;
  };
  return Math.max(0, Math.max(spentIn('sandbox'), spentIn('production')) - config.activationCodes.length);
}
