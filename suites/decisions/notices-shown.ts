// notices_shown accepts codes it does not know, and repeats harmlessly.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { decisionRun, expectStored, RUN, send, suite, COUNT_WARNS } from './common.js';

export const NOTICES_SHOWN_CHECKS: CheckDefinition[] = [
  {
    id: 'decisions.notices-shown-unknown-codes-accepted',
    title: 'notices_shown accepts unrecognized codes (zz_certification_probe) and repeats harmlessly',
    suite,
    evidence: 'provoked',
    warns: COUNT_WARNS,
    spec: [S.decisions],
    needs: ['org'],
    async run(t) {
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
      const notices = ['zz_certification_probe', 'run_progress', 'zz_certification_probe'];
      const first = await send(t, run.runId, [], 'report shown notices, one unknown and repeated', { notices });
      if (!expectStored(t, first)) return;
      const again = await send(t, run.runId, [], 'report the same shown notices again', { notices });
      expectStored(t, again);
    },
  },
];
