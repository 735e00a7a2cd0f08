// Starting a run: the 202 shape, how submitted requirements come back (order, trimming, the job
// title appended), every rejection and warning code, and the run-start errors and limits.
//
// Budget: rejected starts (422/404) are free, and fixture starts (`cert-*`, sandbox) are free, so
// every rejection and warning is probed there. Accepted starts on the partner's own job cost real
// runs: the shared realRun() (which submits whitespace-padded requirements for this purpose) and
// ONE extra run, of a job of its own, whose submitted requirement is the title.
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { ACCEPTED_CHECKS } from './accepted-requirements.js';
import { NOT_IDEMPOTENT_CHECKS } from './not-idempotent.js';
import { REFUSED_START_CHECKS } from './refused-starts.js';
import { REJECTED_REQUIREMENTS_CHECKS } from './rejected-requirements.js';
import { TARGET_COUNT_CHECKS } from './target-count.js';
import { TYPE_MISMATCH_CHECKS } from './type-mismatch.js';
import { WARNING_CHECKS } from './warnings.js';

export const RUNS_START_CHECKS: CheckDefinition[] = [
  ...ACCEPTED_CHECKS,
  ...REJECTED_REQUIREMENTS_CHECKS,
  ...WARNING_CHECKS,
  ...REFUSED_START_CHECKS,
  ...NOT_IDEMPOTENT_CHECKS,
  ...TARGET_COUNT_CHECKS,
  ...TYPE_MISMATCH_CHECKS,
];
