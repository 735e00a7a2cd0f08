// target_count: 21 is refused in the sandbox (sandbox_limit), below 1 everywhere.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { int, obj } from '../support/json-values.js';
import { start, suite } from './starts.js';

export const TARGET_COUNT_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-start.sandbox-limit',
    title: 'In the sandbox, target_count 21 is refused with 422 sandbox_limit and max_target_count 20',
    suite,
    evidence: 'provoked',
    spec: [S.sandboxErrors, S.limits, S.runsStart],
    needs: ['sandbox', 'org'],
    async run(t) {
      const job = await t.setup.job();
      const res = await start(t, job.externalId, [{ text: 'TypeScript', kind: 'nice' }], { targetCount: 21 });
      if (!t.expect.error(res, 422, 'sandbox_limit', S.sandboxErrors)) return;
      t.expect.schema(res.json, 'sandbox-limit', S.sandboxErrors, res);
      const max = obj(res.json)?.max_target_count;
      if (int(max) !== undefined) t.expect.equal(max, 20, 'max_target_count', S.limits, res);
    },
  },
  {
    id: 'runs-start.target-count-in-range',
    title: 'target_count below 1 (and above 100 in production) is refused with a 4xx error',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.limits],
    needs: ['org'],
    async run(t) {
      const job = await t.setup.job();
      const counts = t.target.environment === 'production' ? [0, -1, 101] : [0, -1];
      for (const n of counts) {
        const res = await start(t, job.externalId, [{ text: 'TypeScript', kind: 'nice' }], {
          targetCount: n,
          label: `target_count ${n}`,
        });
        const body = obj(res.json);
        t.expect.that(
          res.status >= 400 && res.status < 500 && typeof body?.error === 'string' && typeof body.message === 'string',
          {
            message: `a run start with target_count ${n} answered ${res.status}${typeof body?.error === 'string' ? ` ${body.error}` : ''}; target_count is 1 to ${t.target.environment === 'production' ? 100 : 20}, so it is refused with a 4xx error envelope (see ${S.limits})`,
            spec: S.runsStart,
            expected: '4xx with {error, message}',
            received: String(res.status),
          },
          res,
        );
      }
    },
  },
];
