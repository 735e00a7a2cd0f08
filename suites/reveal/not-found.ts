// Reveals refused with 404: a candidate not in the run, an unknown run or user, another organization's run.

import { randomUUID } from 'node:crypto';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { TWO_POW_53 } from '../support/json-values.js';
import { secondOrgWithRecruiter } from '../support/recruiters.js';
import { revealPath } from '../support/runs.js';
import { S } from '../../src/spec/sections.js';
import { FIRST_FIXTURE_ID, FIXTURE, fixtureListed, type Listed, readListed, reveal, suite } from './common.js';

/** Sandbox: the shared fixture run; production: the shared real run, read afresh. */
async function anyListed(t: CheckContext): Promise<Listed | undefined> {
  if (t.target.environment === 'sandbox') return fixtureListed(t);
  const { run } = await t.setup.realRun();
  const listed = await readListed(t, run.runId);
  if (listed && listed.candidates.length === 0) {
    // A run may end with none ("it may hold fewer than target candidates"): the engine's outcome.
    t.skip('the shared real run lists no candidate (a run may end with none)', 'not-applicable');
    return undefined;
  }
  return listed;
}

export const NOT_FOUND_CHECKS: CheckDefinition[] = [
  {
    id: 'reveal.candidate-not-in-run-404',
    title:
      'A candidate not currently listed on the run (beyond target_count, or made up) answers 404 candidate_not_in_run',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.byEndpoint, S.sandbox],
    needs: ['org'],
    async run(t) {
      let runId: string;
      const ids: bigint[] = [];
      if (t.target.environment === 'sandbox') {
        // A fixture never lists more than target_count: with 1, the next fixture id is not listed.
        ({ runId } = await t.setup.fixtureRun(FIXTURE, { targetCount: 1 }));
        const listed = await readListed(t, runId);
        if (!listed) return;
        const max = listed.candidates.reduce((m, x) => (x.id > m ? x.id : m), FIRST_FIXTURE_ID - 1n);
        ids.push(max + 1n);
      } else {
        const listed = await anyListed(t);
        if (!listed) return;
        runId = listed.runId;
      }
      // Made up, above 2^53: also proves the path id is not squeezed into a double onto a listed one.
      ids.push(TWO_POW_53 + 1n);
      for (const id of ids) {
        const res = await reveal(t, runId, id, `reveal unlisted candidate ${id}`);
        t.expect.error(res, 404, 'candidate_not_in_run', S.byEndpoint);
      }
    },
  },
  {
    id: 'reveal.unknown-run-404',
    title: 'Revealing on a run id that does not exist answers 404 run_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const res = await reveal(t, randomUUID(), FIRST_FIXTURE_ID, 'reveal on an unknown run');
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'reveal.unknown-user-404',
    title: 'Revealing with an acting_user_external_id nobody registered answers 404 user_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const listed = await anyListed(t);
      if (!listed) return;
      const res = await reveal(
        t,
        listed.runId,
        listed.candidates[0]!.id,
        'reveal as an unregistered user',
        t.setup.uniqueId('svc-certify-unregistered'),
      );
      t.expect.error(res, 404, 'user_not_found', S.byEndpoint);
    },
  },
  {
    id: 'reveal.other-organization-run-404',
    title: "Revealing on another organization's run answers 404 run_not_found, never 403",
    suite,
    evidence: 'input',
    spec: [S.reveal, S.byEndpoint],
    needs: ['org', 'second-org'],
    async run(t) {
      const listed = await anyListed(t);
      if (!listed) return;
      const second = await secondOrgWithRecruiter(t);
      if (!second) return;
      const { user } = second;
      const res = await t.api.post(
        revealPath(listed.runId, listed.candidates[0]!.id),
        { acting_user_external_id: user },
        {
          auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
          label: "reveal on the first organization's run",
        },
      );
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
];
