// A candidate id above 2^53 is revealed by its exact digits.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { candidateAbove2Pow53 } from '../support/large-ids.js';
import { show } from '../support/messages.js';
import { S } from '../../src/spec/sections.js';
import { expectRevealedInSandbox, reveal, suite } from './common.js';

export const LARGE_ID_CHECKS: CheckDefinition[] = [
  {
    id: 'reveal.candidate-id-above-2-53',
    title: 'A listed candidate whose id exceeds 2^53 is revealed by its exact digits (the sandbox e-mail echoes them)',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      "no candidate the shared real run listed has an id above 2^53 (the ids are the target's choice): none needs its exact digits",
    spec: [S.identifiers, S.reveal, S.sandbox],
    needs: ['sandbox', 'org'],
    timeoutMs: 10 * 60_000,
    async run(t) {
      const found = await candidateAbove2Pow53(t);
      if (!found) return;
      const { run, huge } = found;
      const res = await reveal(t, run.runId, huge, `reveal candidate ${huge}`);
      const b = expectRevealedInSandbox(t, res, `revealing candidate ${huge}`);
      if (!b) return;
      t.expect.that(
        typeof b.email === 'string' && b.email.startsWith(`candidate-${huge}@`),
        {
          message: `the sandbox reveal of candidate ${huge} gave e-mail ${show(b.email)}; it has the shape candidate-<candidate_id>@…, with the id's exact 64-bit digits (see ${S.sandbox}, ${S.identifiers})`,
          spec: S.identifiers,
          expected: `candidate-${huge}@…`,
          received: b.email,
          pointer: '/email',
        },
        res,
      );
    },
  },
];
