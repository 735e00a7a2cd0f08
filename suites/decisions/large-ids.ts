// A decision naming a candidate id above 2^53, sent as an exact integer token, is accepted.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { candidateAbove2Pow53 } from '../support/large-ids.js';
import { COUNT_WARNS, sendNew, suite } from './common.js';

export const LARGE_ID_CHECKS: CheckDefinition[] = [
  {
    id: 'decisions.candidate-id-above-2-53',
    title: 'A decision naming a listed candidate whose id exceeds 2^53, sent as an exact integer token, is accepted',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      "no candidate the shared real run listed has an id above 2^53 (the ids are the target's choice): none needs its exact digits",
    warns: COUNT_WARNS,
    spec: [S.identifiers, S.decisionItem, S.decisions],
    needs: ['org'],
    timeoutMs: 10 * 60_000,
    async run(t) {
      const found = await candidateAbove2Pow53(t);
      if (!found) return;
      const { run, huge } = found;
      await sendNew(
        t,
        run.runId,
        [{ candidate_id: huge, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        `shortlist candidate ${huge}`,
        `a decision on listed candidate ${huge}, never sent before`,
      );
    },
  },
];
