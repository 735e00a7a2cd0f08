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
/**
 * Requests the burst keeps in flight until the first 429: twice the limit and one. All of the first
 * wave leave at once, so they arrive within one window however long the round trip is (a throughput
 * bound by round trips would leave a target far away, or a loaded certifier, under its limit); and
 * were the window to turn while they arrive, one of the two windows they fall in still gets more
 * than the limit.
 */
function inFlight(t: CheckContext): number {
  return 2 * ((t.target.rateLimit ?? DEFAULT_RATE) + 1);
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
 * inFlight(t) requests at all times until the first 429 (or the burst's cap). Unpaced: the client's own pacer
 * exists to stay under the limit these checks must exceed. Undefined (with a needs-input skip) when the
 * client could not even reach the default rate per (scaled) minute: nothing can be concluded then.
 */
async function burst(
  t: CheckContext,
  send: (label: string) => Promise<ApiResponse>,
  /** Called just before the burst's request number n + 1 leaves, for each n in `after`. */
  midway?: { after: readonly number[]; run: () => void },
): Promise<Burst | undefined> {
  const started = Date.now();
  let sent = 0;
  let limited: ApiResponse | undefined;
  let last: ApiResponse | undefined;
  let answered = 0;
  const width = inFlight(t);
  const worker = async (): Promise<void> => {
    const cap = burstCap(t);
    while (limited === undefined && sent < cap && !t.signal.aborted) {
      if (midway?.after.includes(sent)) midway.run();
      sent++;
      const res = await send('burst');
      last = res;
      if (res.status !== 0) answered++;
      if (res.status === 429 && limited === undefined) limited = res;
      if (res.status === 0 && answered === 0 && sent >= width) return; // the target is not answering at all
      if (sent % 100 === 0) t.progress(`${sent} requests sent, no 429 yet`);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
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
      "The rate limit is per partner, all customers together: amid one organization's burst over the limit, another organization's request is limited too",
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
      // Inside the burst's first wave, once a quarter, a half and three quarters again the limit have
      // left: each time the first organization's request (a control), the second organization's, and
      // the first's again. Sent with the wave, they arrive with it, not behind the requests a loaded
      // target or a far one still has to answer. Where both controls are 429, the partner was over its
      // limit in one window around the second organization's request: counted per partner, it is 429
      // too. Where no trio is bracketed so (the window turned among them), the burst is tried again, up
      // to three times.
      const rate = t.target.rateLimit ?? DEFAULT_RATE;
      const after = [1.25, 1.5, 1.75].map((share) => Math.ceil(share * (rate + 1)));
      const firstOrg = (label: string) => t.api.get(path, { unpaced: true, label });
      type Trio = [ApiResponse, ApiResponse, ApiResponse];
      const bracketed = (trio: Trio): boolean => trio[0].status === 429 && trio[2].status === 429;
      const probed = await together(t, async () => {
        let out: { b: Burst | undefined; trios: Trio[] } = { b: undefined, trios: [] };
        for (let attempt = 1; attempt <= 3 && !t.signal.aborted; attempt++) {
          const probes: Array<Promise<Trio>> = [];
          const b = await burst(t, (label) => firstOrg(`first organization ${label}`), {
            after,
            run: () => {
              probes.push(
                Promise.all([
                  firstOrg("the first organization's request before it (control)"),
                  t.api.get(path, {
                    unpaced: true,
                    auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
                    label: "the second organization's request amid the burst",
                  }),
                  firstOrg("the first organization's request after it (control)"),
                ]),
              );
            },
          });
          out = { b, trios: await Promise.all(probes) };
          if (!b?.limited || out.trios.some(bracketed)) break;
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
      const judged = probed.trios.filter(bracketed);
      if (judged.length === 0) {
        const seen = probed.trios.map(([before, , afterIt]) => `${before.status} and ${afterIt.status}`).join(', ');
        t.skip(
          `three bursts in a row, the rate window turned around every request of the second organization (the first organization's controls beside them answered ${seen || 'nothing'}), so their answers tell nothing`,
          'inconclusive',
        );
        return;
      }
      const theirs = (judged.find((trio) => trio[1].status !== 429) ?? judged[0]!)[1];
      t.expect.that(
        theirs.status === 429,
        {
          message: `amid a burst over the limit, between two requests with the first organization's token that both got 429, a request with the second organization's token answered ${theirs.status}; the request rate is limited per partner, all customers together`,
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
