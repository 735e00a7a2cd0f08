// Run starts are not idempotent: two identical accepted starts start two runs.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { suite } from './starts.js';

export const NOT_IDEMPOTENT_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-start.not-idempotent',
    title: 'Two identical accepted run starts start two runs: two different run_ids',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.retries],
    // Fixture starts cost nothing (no quota, no engine); in production a repeat would spend a real run.
    needs: ['sandbox', 'org'],
    async run(t) {
      const shared = await t.setup.fixtureRun('cert-empty');
      const user = (await t.setup.user()).externalId;
      // The very body the shared start sent: every accepted call starts a new run, identical or not.
      const again = await t.setup.startRun(
        { job_external_id: 'cert-empty', acting_user_external_id: user, target_count: 10 },
        { label: 'the same cert-empty start again' },
      );
      if (!t.expect.status(again, 202, S.runsStart)) return;
      const runId = obj(again.json)?.run_id;
      t.expect.that(
        typeof runId === 'string' && runId !== shared.runId,
        {
          message: `an identical second run start answered run_id ${show(runId ?? null)}, the first got ${shared.runId}; run starts are not idempotent: every accepted call starts a new run`,
          spec: S.runsStart,
          expected: `a run_id other than ${shared.runId}`,
          received: String(runId ?? null),
        },
        again,
      );
    },
  },
];
