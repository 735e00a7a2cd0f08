// Reading a run: the Run schema on every read of the shared real run, status transitions,
// progress, the candidate list and its requirements, notices (codes possible in v1, refs per slot,
// language, function_error placement), int64 candidate ids, sandbox masking, and run_not_found.
//
// Almost everything here judges the reads the shared realRun() already made while polling to the
// end; a check adds at most a read or two of its own.
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { CANDIDATE_REQUIREMENTS_CHECKS } from './candidate-requirements.js';
import { IDS_AND_ACCESS_CHECKS } from './ids-and-access.js';
import { LIFECYCLE_CHECKS } from './lifecycle.js';
import { MASKING_CHECKS } from './masking.js';
import { NOTICE_CHECKS } from './notices.js';
import { PROGRESS_CHECKS } from './progress.js';
import { RUN_OUTCOME_CHECKS } from './run-outcomes.js';

export const RUNS_READ_CHECKS: CheckDefinition[] = [
  ...RUN_OUTCOME_CHECKS,
  ...LIFECYCLE_CHECKS,
  ...PROGRESS_CHECKS,
  ...CANDIDATE_REQUIREMENTS_CHECKS,
  ...NOTICE_CHECKS,
  ...IDS_AND_ACCESS_CHECKS,
  ...MASKING_CHECKS,
];
