// notices_shown accepts codes it does not know, and repeats harmlessly.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { COUNT_WARNS, decisionCheck, expectStored, RUN, send } from './common.js';

export const NOTICES_SHOWN_CHECKS: CheckDefinition[] = [
  decisionCheck(
    {
      id: 'decisions.notices-shown-unknown-codes-accepted',
      title: 'notices_shown accepts unrecognized codes (zz_certification_probe) and repeats harmlessly',
      warns: COUNT_WARNS,
      spec: [S.decisions],
    },
    RUN.errors,
    async (t, run) => {
      const notices = ['zz_certification_probe', 'run_progress', 'zz_certification_probe'];
      const first = await send(t, run.runId, [], 'report shown notices, one unknown and repeated', { notices });
      if (!expectStored(t, first)) return;
      const again = await send(t, run.runId, [], 'report the same shown notices again', { notices });
      expectStored(t, again);
    },
  ),
];
