// Production reveals (suite "reveal"): they spend the organization's credits, so the checks here
// share one ledger per real run (one real run per certification): together they never commit more
// than --max-spend-credits (a reveal is reserved at its quoted price before it is sent, then settled
// at what the response charged), no two of them first-reveal the same candidate (the second would be
// a free repeat), and a balance is compared only when no other paid reveal could have moved it.
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { chargedOnce, noSandboxField } from './charges.js';
import { insufficientCredits } from './insufficient-credits.js';
import { repeatInAnotherRun } from './repeat-in-another-run.js';

export const REVEAL_PRODUCTION_CHECKS: readonly CheckDefinition[] = [
  chargedOnce,
  noSandboxField,
  insufficientCredits,
  repeatInAnotherRun,
];
