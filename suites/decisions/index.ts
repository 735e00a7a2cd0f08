// Decisions: every recruiter action is stored once per (run, candidate, decision, occurred_at), a 422
// stores nothing, and reject reasons come from a closed list of seven. Each check uses its own
// occurred_at values (and, where it counts, its own fixture run) so checks never see each other's entries;
// where a check needs more entries than the run lists candidates, it varies decision or occurred_at
// instead (the key is run, candidate, decision, occurred_at).
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { COUNT_CHECKS } from './counts.js';
import { LARGE_ID_CHECKS } from './large-ids.js';
import { NOT_FOUND_CHECKS } from './not-found.js';
import { NOT_YET_LISTED_CHECKS } from './not-yet-listed.js';
import { NOTICES_SHOWN_CHECKS } from './notices-shown.js';
import { REFUSED_BATCH_CHECKS } from './refused-batches.js';
import { REJECT_REASON_CHECKS } from './reject-reasons.js';

export const DECISIONS_CHECKS: CheckDefinition[] = [
  ...COUNT_CHECKS,
  ...NOT_YET_LISTED_CHECKS,
  ...REJECT_REASON_CHECKS,
  ...REFUSED_BATCH_CHECKS,
  ...NOTICES_SHOWN_CHECKS,
  ...NOT_FOUND_CHECKS,
  ...LARGE_ID_CHECKS,
];
