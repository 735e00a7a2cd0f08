// A decision naming a candidate id above 2^53, sent as an exact integer token, is accepted.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { int, obj, objects, TWO_POW_53 } from '../support/json-values.js';
import { expectCount, expectStored, send, suite } from './common.js';

export const LARGE_ID_CHECKS: CheckDefinition[] = [
  {
    id: 'decisions.candidate-id-above-2-53',
    title: 'A decision naming a listed candidate whose id exceeds 2^53, sent as an exact integer token, is accepted',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      "no candidate the shared real run listed has an id above 2^53 (the ids are the target's choice): none needs its exact digits",
    warns: ['accepted or duplicates is written with a fraction part (1.0), which strict decoders refuse'],
    spec: [S.identifiers, S.decisionItem, S.decisions],
    needs: ['org'],
    timeoutMs: 10 * 60_000,
    async run(t) {
      const { run, final } = await t.setup.realRun();
      const huge = objects(obj(final.json)?.candidates)
        .map((c) => int(c.id))
        .find((id): id is bigint => id !== undefined && id > TWO_POW_53);
      if (huge === undefined)
        // Which ids a service issues is its own choice ("may exceed 2^31", Identifier conventions):
        // with none above 2^53 on the run there is no such id to carry, and nothing to judge.
        return t.skip(
          "the shared real run lists no candidate with an id above 2^53 (ids are the service's own: none that large to carry)",
          'not-applicable',
        );
      const res = await send(
        t,
        run.runId,
        [{ candidate_id: huge, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        `shortlist candidate ${huge}`,
      );
      const b = expectStored(t, res);
      if (b) expectCount(t, res, b, 'accepted', 1, `a decision on listed candidate ${huge}, never sent before`);
    },
  },
];
