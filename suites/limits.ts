// Limits that can only be seen by exceeding them: the partner's request rate and the sandbox's daily
// quota of real runs. Both are opt-in (--exhaust-limits): they use up what the partner or an
// organization may spend. The other limits are checked where they apply: target_count by runs-start
// (sandbox_limit), the must cap and text length by runs-start, the price override by the sandbox suite.

import { randomUUID } from 'node:crypto';
import type { ApiResponse, RequestAuth } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { int, obj } from './support/json-values.js';
import { roleField } from './support/recruiters.js';

const suite = 'limits';
/** Requests kept in flight by the burst, which stops at the first 429. */
const IN_FLIGHT = 50;
const DEFAULT_RATE = 120;
/**
 * Far above the default 120 per minute. The limit is "adjustable per partner by agreement": a burst
 * goes to twice the --rate-limit the operator states, when that is more.
 */
const MAX_BURST = 1000;

/** How many requests a burst may send before concluding that no limit answered. */
function burstCap(t: CheckContext): number {
  return Math.max(MAX_BURST, 2 * (t.target.rateLimit ?? DEFAULT_RATE));
}
const SANDBOX_RUN_QUOTA = 20;
const RATE_WINDOW_SPEC_MS = 60_000;
const INTEGER_SECONDS = /^\s*\d+\s*$/;

interface Burst {
  sent: number;
  limited: ApiResponse | undefined;
  last: ApiResponse | undefined;
  elapsedMs: number;
}

/**
 * IN_FLIGHT requests at all times until the first 429 (or MAX_BURST). Unpaced: the client's own pacer
 * exists to stay under the limit these checks must exceed. Undefined (with a needs-input skip) when the
 * client could not even reach the default rate per (scaled) minute: nothing can be concluded then.
 */
async function burst(
  t: CheckContext,
  send: (label: string) => Promise<ApiResponse>,
  onLimited?: () => void,
): Promise<Burst | undefined> {
  const started = Date.now();
  let sent = 0;
  let limited: ApiResponse | undefined;
  let last: ApiResponse | undefined;
  let answered = 0;
  const worker = async (): Promise<void> => {
    const cap = burstCap(t);
    while (limited === undefined && sent < cap && !t.signal.aborted) {
      sent++;
      const res = await send('burst');
      last = res;
      if (res.status !== 0) answered++;
      if (res.status === 429 && limited === undefined) {
        limited = res;
        // At once, before the requests still in flight are answered: the window must not pass first.
        onLimited?.();
      }
      if (res.status === 0 && answered === 0 && sent >= IN_FLIGHT) return; // the target is not answering at all
      if (sent % 100 === 0) t.progress(`${sent} requests sent, no 429 yet`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const elapsedMs = Date.now() - started;
  if (limited === undefined) {
    const perWindow = (sent * RATE_WINDOW_SPEC_MS) / t.target.timeScale / Math.max(1, elapsedMs);
    if (perWindow < DEFAULT_RATE && answered > 0) {
      t.skip(
        `could send only ${Math.round(perWindow)} requests per ${t.target.timeScale === 1 ? 'minute' : `minute ÷ ${t.target.timeScale}`} (${sent} in ${(elapsedMs / 1000).toFixed(1)} s), under the default limit of ${DEFAULT_RATE}: lower the time scale`,
        'needs-input',
        'a lower --time-scale',
      );
      return undefined;
    }
  }
  return { sent, limited, last, elapsedMs };
}

/**
 * The bursts of one certification (per target address, never a secret). The simulated burst must fill
 * the window by itself, or another check's burst would end it in 429 for it: it runs `alone`, after
 * the bursts under way and a full window, and the others wait for it and its window. The others may
 * share a window (`together`): each only needs the partner over its limit.
 */
interface Lane {
  exclusive: Promise<unknown>;
  shared: Set<Promise<unknown>>;
}
const lanes = new Map<string, Lane>();

function laneOf(t: CheckContext): Lane {
  let lane = lanes.get(t.target.baseUrl);
  if (!lane) lanes.set(t.target.baseUrl, (lane = { exclusive: Promise.resolve(), shared: new Set() }));
  return lane;
}

const windowPassed = (t: CheckContext): Promise<void> =>
  new Promise((r) => setTimeout(r, RATE_WINDOW_SPEC_MS / t.target.timeScale));

async function together<T>(t: CheckContext, fn: () => Promise<T>): Promise<T> {
  const lane = laneOf(t);
  // Until no exclusive burst was queued while this one waited.
  for (let ex = lane.exclusive; ; ex = lane.exclusive) {
    await ex.catch(() => undefined);
    if (lane.exclusive === ex) break;
  }
  const mine = fn();
  lane.shared.add(mine);
  void mine.finally(() => lane.shared.delete(mine)).catch(() => undefined);
  return mine;
}

async function alone<T>(t: CheckContext, fn: () => Promise<T>): Promise<T> {
  const lane = laneOf(t);
  const before = lane.exclusive;
  const mine = (async () => {
    await before.catch(() => undefined);
    if (lane.shared.size > 0) {
      await Promise.allSettled([...lane.shared]);
      await windowPassed(t);
    }
    return fn();
  })();
  lane.exclusive = mine.then(
    () => windowPassed(t),
    () => windowPassed(t),
  );
  return mine;
}

export const LIMITS_CHECKS: CheckDefinition[] = [
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
      const b = await together(t, () => burst(t, (label) => t.api.get(path, { unpaced: true, label })));
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
    id: 'limits.simulated-requests-count',
    title:
      'Requests answered by x-svc-sandbox-simulate count toward the rate limit: a burst of them alone ends in 429 rate_limited',
    suite,
    evidence: 'input',
    spec: [S.sandbox, S.limits, S.crossCutting],
    needs: ['sandbox', 'exhaust-limits'],
    timeoutMs: 120_000,
    async run(t) {
      // Simulated internal errors on a harmless read, every fiftieth request plain: whether a simulated
      // request over the limit gets 429 or still its simulated answer is not shown, the plain ones show
      // the limit either way, and alone they are far too few to reach it. The burst waits for any other
      // burst of this certification and its window to pass first.
      const path = `/runs/${randomUUID()}`;
      let n = 0;
      const b = await alone(t, () =>
        burst(t, (label) =>
          ++n % 50 === 0
            ? t.api.get(path, { unpaced: true, label: `plain ${label}` })
            : t.api.get(path, {
                unpaced: true,
                headers: { 'x-svc-sandbox-simulate': 'internal_error' },
                label: `simulated ${label}`,
              }),
        ),
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
    id: 'limits.rate-limit-per-partner',
    title:
      "The rate limit is per partner, all customers together: right after one organization's 429, another organization's request is limited too",
    suite,
    evidence: 'input',
    spec: [S.limits, S.crossCutting],
    needs: ['exhaust-limits', 'org', 'second-org'],
    timeoutMs: 120_000,
    async run(t) {
      const second = await t.setup.secondOrg();
      if (!second) {
        t.skip(t.setup.codeShortage('typed'));
        return;
      }
      const path = `/runs/${randomUUID()}`;
      // At once after the 429, side by side: the second organization's request, and the first's as a
      // control that the window has not passed meanwhile.
      // A loaded client may see the window pass before the pair is answered: then the burst is tried
      // again, up to three times.
      const probed = await together(t, async () => {
        let out: { b: Burst | undefined; pair?: [ApiResponse, ApiResponse] } = { b: undefined };
        for (let attempt = 1; attempt <= 3 && !t.signal.aborted; attempt++) {
          let probe: Promise<[ApiResponse, ApiResponse]> | undefined;
          const b = await burst(
            t,
            (label) => t.api.get(path, { unpaced: true, label: `first organization ${label}` }),
            () => {
              probe = Promise.all([
                t.api.get(path, {
                  unpaced: true,
                  auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
                  label: "the second organization's request right after the 429",
                }),
                t.api.get(path, { unpaced: true, label: "the first organization's request beside it (control)" }),
              ]);
            },
          );
          if (!b?.limited || !probe) return { b };
          const pair = await probe;
          out = { b, pair };
          if (pair[1].status === 429) break;
        }
        return out;
      });
      const { b } = probed;
      if (!b) return;
      if (
        !t.expect.that(
          b.limited !== undefined,
          {
            message: `${b.sent} requests sent without a 429, so the partner never reached its limit (limits.rate-limit-429 judges that)`,
            spec: S.limits,
            expected: '429 rate_limited',
            received: b.last?.status ?? null,
          },
          b.last,
        )
      )
        return;
      const [theirs, control] = probed.pair!;
      if (control.status !== 429) {
        t.skip(
          `the window passed between the 429 and the probe (the first organization's control answered ${control.status}), so the second organization's ${theirs.status} tells nothing`,
          'inconclusive',
        );
        return;
      }
      t.expect.that(
        theirs.status === 429,
        {
          message: `right after the partner's requests with the first organization's token got 429 (a control beside it still 429), a request with the second organization's token answered ${theirs.status}; the request rate is limited per partner, all customers together`,
          spec: S.limits,
          expected: '429 rate_limited',
          received: theirs.status,
        },
        theirs,
      );
    },
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
      const code = t.setup.plannedCode('fresh');
      if (code === undefined) {
        t.skip(t.setup.codeShortage('fresh'));
        return;
      }
      const redeem = await t.api.post(
        '/activations/redeem',
        { code, external_id: t.setup.uniqueId('svc-certify-quota-org') },
        { auth: 'partner', label: 'redeem a code for a fresh organization' },
      );
      const token = obj(redeem.json)?.org_token;
      if (
        !t.expect.status(redeem, 200, S.redeem) ||
        !t.expect.that(
          typeof token === 'string',
          { message: 'the redeem answer has no org_token', spec: S.redeem },
          redeem,
        )
      )
        return;
      const auth: RequestAuth = { partnerKey: t.inputs.partnerKey, orgToken: token as string };
      const userId = t.setup.uniqueId('svc-certify-quota-recruiter');
      const jobId = t.setup.uniqueId('svc-certify-quota-job');
      const { role } = await t.setup.user();
      const user = await t.api.post(
        '/users',
        { external_id: userId, email: 'quota-recruiter@example.com', full_name: 'Noa Cohen', ...roleField(role) },
        { auth, label: 'register a recruiter' },
      );
      if (!t.expect.status(user, '2xx', S.users)) return;
      const job = await t.api.post(
        '/jobs',
        {
          external_id: jobId,
          title: 'Backend Developer',
          description_text: 'Build Node.js and PostgreSQL services for a hiring platform.',
          location_text: 'Tel Aviv, Israel',
        },
        { auth, label: 'create a job' },
      );
      if (!t.expect.status(job, '2xx', S.jobs)) return;
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
