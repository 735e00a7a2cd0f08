// Decisions refused with 404: an unknown run or user, another organization's run.

import { randomUUID } from 'node:crypto';
import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { secondOrgWithRecruiter } from '../support/recruiters.js';
import { decisionCheck, decisionRun, RUN, send, suite } from './common.js';

/** Only names a candidate on a run that does not exist: any int64 will do there. */
const ANY_CANDIDATE_ID = 990000000001n;

export const NOT_FOUND_CHECKS: CheckDefinition[] = [
  {
    id: 'decisions.unknown-run-404',
    title: 'Decisions on a run id that does not exist answer 404 run_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.decisions, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const res = await send(
        t,
        randomUUID(),
        [{ candidate_id: ANY_CANDIDATE_ID, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        'decisions on an unknown run',
      );
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  decisionCheck(
    {
      id: 'decisions.unknown-user-404',
      title: 'Decisions with an acting_user_external_id nobody registered answer 404 user_not_found',
      spec: [S.decisions, S.byEndpoint],
    },
    RUN.errors,
    async (t, run) => {
      const res = await send(
        t,
        run.runId,
        [{ candidate_id: run.ids[0]!, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        'decisions as an unregistered user',
        {
          user: t.setup.uniqueId('svc-certify-unregistered'),
        },
      );
      t.expect.error(res, 404, 'user_not_found', S.byEndpoint);
    },
  ),
  {
    id: 'decisions.other-organization-run-404',
    title: "Decisions and notices_shown on another organization's run answer 404 run_not_found, never 403",
    suite,
    evidence: 'input',
    spec: [S.decisions, S.byEndpoint],
    needs: ['org', 'second-org'],
    async run(t) {
      const run = await decisionRun(t, RUN.errors);
      if (!run) return;
      const second = await secondOrgWithRecruiter(t);
      if (!second) return;
      const { user } = second;
      // notices_shown rides along: the run's notices are the first organization's to report, not another's.
      const res = await send(
        t,
        run.runId,
        [{ candidate_id: run.ids[0]!, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        "decisions and notices_shown on the first organization's run",
        {
          user,
          orgToken: second.orgToken,
          notices: ['run_progress'],
        },
      );
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
];
