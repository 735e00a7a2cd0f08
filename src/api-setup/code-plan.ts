// Activation codes are scarce (the operator issues a handful) and single use, so they are planned by
// importance, not by report order. Every successful redemption creates an organization, and the
// certification reuses them: the code redeemed as a person types it (lower case, spaces) is the
// normalization check, its second redeem is the single-use check, and the organization it creates is
// the second organization of the isolation checks. With too few codes the least important roles go
// first, and the skip reason says how many more codes unlock what.

import type { Need } from './needs.js';
import type { SkipDecision } from '../runner/outcome.js';

/** What a planned code is spent on, in order of importance. */
export type CodeRole =
  | 'primary' // the organization every check works in (not needed with --org-token)
  | 'typed' // redeemed as typed: normalization, then single use; its organization isolates
  | 'taken' // external_id_taken, then the same code with a free external_id
  | 'fresh'; // an untouched organization whose daily run quota may be used up (--exhaust-limits)

const CODE_PRIORITY: readonly CodeRole[] = ['primary', 'typed', 'taken', 'fresh'];

const UNLOCKS: Record<CodeRole, string> = {
  primary: 'the organization every check works in',
  typed: 'the isolation checks (their second organization), code normalization and single use',
  taken: 'the external_id_taken check',
  fresh: 'the sandbox run quota check (a fresh organization)',
};

export interface CodePlan {
  /** The code given to each role that got one. */
  assigned: Partial<Record<CodeRole, string>>;
  /** Codes no role wanted, for checks that just take one ('activation-code'). */
  spare: string[];
  /** Why a role got no code: how many more codes unlock it, and what (a needs-input skip). */
  shortage(role: CodeRole): SkipDecision;
}

/** The code roles a check's needs call for. */
export function codeRolesOf(needs: readonly Need[] | undefined, hasOrgToken: boolean): CodeRole[] {
  const roles = new Set<CodeRole>();
  for (const need of needs ?? []) {
    if (need === 'second-org' || need === 'typed-redemption') roles.add('typed');
    // The redemption answer itself: the primary organization's, or with --org-token the typed one's.
    if (need === 'redemption') roles.add(hasOrgToken ? 'typed' : 'primary');
    // With --org-token the primary organization's external_id is unknown: the typed one's is taken.
    if (need === 'taken-redemption') {
      roles.add('taken');
      roles.add(hasOrgToken ? 'typed' : 'primary');
    }
    if (need === 'fresh-org') roles.add('fresh');
  }
  return CODE_PRIORITY.filter((r) => roles.has(r));
}

/** How many codes a run needs for every role: 3 (2 with --org-token), one more with --exhaust-limits. */
export function codesForEveryRole(hasOrgToken: boolean, exhaustLimits: boolean): number {
  return (hasOrgToken ? 2 : 3) + (exhaustLimits ? 1 : 0);
}

export function planActivationCodes(input: {
  codes: readonly string[];
  hasOrgToken: boolean;
  /** Roles the selected checks call for; 'primary' is implied without --org-token. */
  wanted: Iterable<CodeRole>;
}): CodePlan {
  const wanted = new Set(input.wanted);
  if (!input.hasOrgToken) wanted.add('primary');
  else wanted.delete('primary');
  const order = CODE_PRIORITY.filter((r) => wanted.has(r));
  const left = [...input.codes];
  const assigned: Partial<Record<CodeRole, string>> = {};
  for (const role of order) {
    const code = left.shift();
    if (code === undefined) break;
    assigned[role] = code;
  }
  const given = input.codes.length;
  const spentOn = order.filter((r) => assigned[r] !== undefined).map((r) => UNLOCKS[r]);
  const shortage = (role: CodeRole): SkipDecision => {
    const position = order.indexOf(role);
    const more = Math.max(1, (position < 0 ? order.length : position) + 1 - given);
    const spent = spentOn.length > 0 ? `, spent by importance on ${spentOn.join('; ')}` : '';
    const reason =
      `needs ${more === 1 ? 'one more unused activation code' : `${more} more unused activation codes`} ` +
      `(${given} given${spent}); ${more === 1 ? 'one more unlocks' : `${more} more unlock`} ${UNLOCKS[role]}: ` +
      '--activation-code (repeatable) or SVC_ACTIVATION_CODES';
    return {
      kind: 'needs-input',
      reason,
      unlock: `${more} more activation code${more === 1 ? '' : 's'} (--activation-code)`,
    };
  };
  return { assigned, spare: left, shortage };
}
