// Limits that can only be seen by exceeding them: the partner's request rate and the sandbox's daily
// quota of real runs. Both are opt-in (--exhaust-limits): they use up what the partner or an
// organization may spend. The other limits are checked where they apply: target_count by runs-start
// (sandbox_limit), the must cap and text length by runs-start, the price override by the sandbox suite.

import { randomUUID } from 'node:crypto';
import type { CheckDefinition } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { int, obj } from './support/json-values.js';
import { burst, DEFAULT_RATE, rateOf } from './limits/burst.js';
import { inBurstLane } from './limits/lane.js';
import { ratePerPartner } from './limits/per-partner.js';
import { quotaOrganization } from './limits/run-quota.js';

const suite = 'limits';
const SANDBOX_RUN_QUOTA = 20;
const INTEGER_SECONDS = /^\s*\d+\s*$/;

export const LIMITS_CHECKS: CheckDefinition[] = [
  {
    id: 'limits.simulated-requests-count',
    title:
      'Requests answered by x-svc-sandbox-simulate count toward the rate limit: a burst of them alone ends in 429 rate_limited',
    suite,
    evidence: 'input',
    spec: [S.sandbox, S.limits, S.crossCutting],
    needs: ['sandbox', 'exhaust-limits'],
    // A little above the other bursts' budget: the plan starts the longest first, and this burst must
    // open the window the others then share (suites/limits/lane.ts).
    timeoutMs: 121_000,
    async run(t) {
      // Simulated internal errors on a harmless read, every fiftieth request plain: whether a simulated
      // request over the limit gets 429 or still its simulated answer is not shown, the plain ones show
      // the limit either way. At most a twentieth of the limit are plain: with every paced request the
      // window may hold (the pacer keeps to nine tenths of the limit) they stay under it, so a 429 says
      // the simulated ones were counted. Its window holds no other burst's requests (the lane).
      const path = `/runs/${randomUUID()}`;
      let n = 0;
      let plain = 0;
      const plainCap = Math.floor(rateOf(t) / 20);
      const b = await inBurstLane(
        t,
        () =>
          burst(t, (label) =>
            ++n % 50 === 0 && plain++ < plainCap
              ? t.api.get(path, { unpaced: true, label: `plain ${label}` })
              : t.api.get(path, {
                  unpaced: true,
                  headers: { 'x-svc-sandbox-simulate': 'internal_error' },
                  label: `simulated ${label}`,
                }),
          ),
        { ownWindow: true },
      );
      if (!b) return;
      const { sent, limited, last, elapsedMs } = b;
      if (
        !t.expect.that(
          limited !== undefined,
          {
            message: `${sent} requests, all but one in fifty with x-svc-sandbox-simulate: internal_error, sent in ${(elapsedMs / 1000).toFixed(1)} s (the last answered ${last?.status ?? 'nothing'}) without a 429; simulated requests count toward the rate limit (${DEFAULT_RATE} per minute by default)`,
            spec: S.sandbox,
            expected: '429 rate_limited',
            received: last?.status ?? null,
          },
          last,
        )
      )
        return;
      t.expect.error(limited!, 429, 'rate_limited', S.crossCutting);
    },
  },
  {
    id: 'limits.rate-limit-429',
    title: 'Over the per-minute request rate the partner gets 429 rate_limited with Retry-After in integer seconds',
    suite,
    evidence: 'input',
    spec: [S.limits, S.crossCutting],
    needs: ['exhaust-limits'],
    timeoutMs: 120_000,
    async run(t) {
      // Harmless requests that fail with 404: failed requests count toward the limit too.
      const path = `/runs/${randomUUID()}`;
      const b = await inBurstLane(t, () => burst(t, (label) => t.api.get(path, { unpaced: true, label })));
      if (!b) return;
      const { sent, limited, last, elapsedMs } = b;
      const seconds = (elapsedMs / 1000).toFixed(1);
      if (
        !t.expect.that(
          limited !== undefined,
          {
            message: `${sent} requests sent in ${seconds} s (the last answered ${last?.status ?? 'nothing'}) without a 429; the request rate is limited to ${DEFAULT_RATE} per minute by default and answered 429 rate_limited beyond it (a partner whose limit was raised by agreement is certified with --rate-limit N, its agreed requests per minute: the burst then goes to twice that)`,
            spec: S.limits,
            expected: '429 rate_limited',
            received: last?.status ?? null,
          },
          last,
        )
      )
        return;
      const res = limited!;
      t.expect.error(res, 429, 'rate_limited', S.crossCutting);
      t.expect.header(res, 'retry-after', INTEGER_SECONDS, S.crossCutting, 'Retry-After in integer seconds >= 0');
      // No wait here: the client's pacer holds paced requests back until the burst has left the window.
    },
  },
  {
    id: 'limits.rate-limit-per-partner',
    title:
      "The rate limit is per partner, all customers together: with the partner over its limit from one organization's burst, another organization's request is limited too",
    suite,
    evidence: 'input',
    spec: [S.limits, S.crossCutting],
    needs: ['exhaust-limits', 'org', 'second-org'],
    timeoutMs: 120_000,
    run: ratePerPartner,
  },
  {
    id: 'limits.sandbox-run-quota',
    title:
      'The 21st real run of an organization in 24 hours gets 429 sandbox_run_quota; fixture runs and 422s do not count',
    suite,
    evidence: 'input',
    spec: [S.limits, S.sandboxErrors, S.sandbox],
    // A fresh organization: its quota is known to be untouched, and the primary one keeps its own.
    needs: ['sandbox', 'exhaust-limits', 'fresh-org'],
    timeoutMs: 120_000,
    async run(t) {
      const org = await quotaOrganization(t);
      if (!org) return;
      const { auth, userId, jobId } = org;
      const start = (body: Record<string, unknown>, label: string) =>
        t.setup.startRun({ acting_user_external_id: userId, target_count: 1, ...body }, { auth, label });

      // Neither of these counts toward the quota.
      const fixture = await start({ job_external_id: 'cert-empty' }, 'a fixture run (does not count)');
      if (!t.expect.status(fixture, 202, S.sandbox)) return;
      const refused = await start(
        { job_external_id: jobId, requirements: [{ text: '   ', kind: 'must' }] },
        'a run refused with 422 (does not count)',
      );
      if (!t.expect.status(refused, 422, S.runsStart)) return;

      for (let n = 1; n <= SANDBOX_RUN_QUOTA; n++) {
        const res = await start({ job_external_id: jobId }, `real run ${n} of ${SANDBOX_RUN_QUOTA}`);
        if (
          !t.expect.that(
            res.status === 202,
            {
              message: `real run ${n} of a fresh organization answered ${res.status}${obj(res.json)?.error !== undefined ? ` ${String(obj(res.json)?.error)}` : ''} after one fixture run and one 422; the sandbox allows 20 real runs per organization in 24 hours, and fixture runs and runs refused with 422 do not count`,
              spec: S.limits,
              expected: 202,
              received: res.status,
            },
            res,
          )
        )
          return;
        t.progress(`${n} of ${SANDBOX_RUN_QUOTA} real runs started`);
      }
      const over = await start({ job_external_id: jobId }, `real run ${SANDBOX_RUN_QUOTA + 1}: over the quota`);
      if (!t.expect.error(over, 429, 'sandbox_run_quota', S.sandboxErrors)) return;
      t.expect.schema(over.json, 'sandbox-run-quota', S.sandboxErrors, over);
      t.expect.header(over, 'retry-after', INTEGER_SECONDS, S.sandboxErrors, 'Retry-After in integer seconds');
      const body = obj(over.json)!;
      const inDay = (n: bigint | undefined): boolean => n !== undefined && n >= 0n && n <= 86_400n;
      t.expect.field(
        over,
        '/retry_after_seconds',
        (v) => inDay(int(v)),
        S.sandboxErrors,
        'an integer from 0 to 86400, the wait until a run leaves the rolling 24 hours',
      );
      t.expect.equal(body.limit, SANDBOX_RUN_QUOTA, 'limit of 429 sandbox_run_quota', S.limits, over);
    },
  },
];
