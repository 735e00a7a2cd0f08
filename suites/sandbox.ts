// Sandbox behaviour: the environment header and the two sandbox request headers (error simulation,
// reveal-price override). Masking of real runs is checked with the run reads (runs-read.ts).
// Simulated requests count toward the rate limit: each value is sent once, on a harmless read.

import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../src/http/types.js';
import type { JsonObject } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { deepEqual } from '../src/runner/deep-equal.js';
import { S } from '../src/spec/sections.js';
import { evidenceNote } from './support/environment-note.js';
import { expectNotPendingOrRefused } from './support/error-answers.js';
import { arr, int, obj, objects } from './support/json-values.js';
import { show, someOf } from './support/messages.js';
import { roleField } from './support/recruiters.js';
import { unknownOrgToken, unknownPartnerKey } from './support/unknown-credentials.js';
import { startUnknownFixture } from './support/runs.js';

const suite = 'sandbox';
const SIMULATE = 'x-svc-sandbox-simulate';
const PRICE = 'x-svc-sandbox-reveal-price';
const SIMULATE_VALUES = ['rate_limited', 'rate_limit_unavailable', 'internal_error', 'insufficient_credits'];
/** The shared, read-only fixture run every read of this suite goes to. */
const FIXTURE = 'cert-notices-all';

async function fixtureRunId(t: CheckContext): Promise<string> {
  return (await t.setup.fixtureRun(FIXTURE)).runId;
}

function simulatedRead(t: CheckContext, runId: string, value: string): Promise<ApiResponse> {
  return t.api.get(`/runs/${runId}`, { headers: { [SIMULATE]: value }, label: `${SIMULATE}: ${value}` });
}

function candidatesOf(res: ApiResponse): JsonObject[] {
  return objects(obj(res.json)?.candidates);
}

/** `x-svc-environment: sandbox`, whatever else the response says. */
function expectEnvironment(t: CheckContext, res: ApiResponse, what: string): boolean {
  return t.expect.header(
    res,
    'x-svc-environment',
    (v) => v?.trim() === 'sandbox',
    S.sandbox,
    `x-svc-environment: sandbox on every sandbox response, errors included (here: ${what}, answered ${res.status})${evidenceNote(t)}`,
  );
}

/** Reads the fixture run with a price override and checks every candidate carries exactly that price. */
async function expectOverride(t: CheckContext, runId: string, price: number): Promise<boolean> {
  const res = await t.api.get(`/runs/${runId}`, { headers: { [PRICE]: String(price) }, label: `${PRICE}: ${price}` });
  if (!t.expect.status(res, 200, S.sandbox)) return false;
  const wrong = candidatesOf(res).filter((c) => int(c.reveal_price_credits) !== BigInt(price));
  return t.expect.that(
    wrong.length === 0,
    {
      message: `GET /runs/{run_id} with ${PRICE}: ${price} priced ${wrong.length} candidate(s) otherwise (ids ${someOf(wrong, (c) => String(c.id))}); the header replaces reveal_price_credits of every candidate in that response`,
      spec: S.sandbox,
      expected: price,
      received: wrong.map((c) => c.reveal_price_credits ?? null),
    },
    res,
  );
}

export const SANDBOX_CHECKS: CheckDefinition[] = [
  {
    id: 'sandbox.environment-header-on-every-response',
    title: 'Every sandbox response carries x-svc-environment: sandbox: a 2xx read, a 401, a 404 and a 422',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.versioning],
    needs: ['sandbox', 'org'],
    async run(t) {
      const runId = await fixtureRunId(t);
      const ok = await t.api.get(`/runs/${runId}`, { label: '2xx: read a fixture run' });
      expectEnvironment(t, ok, 'a run read');
      const unauthorized = await t.api.get(`/runs/${runId}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: unknownOrgToken() },
        label: '401: unknown org token',
      });
      expectEnvironment(t, unauthorized, 'an unknown org token');
      const notFound = await t.api.get(`/runs/${randomUUID()}`, { label: '404: a run that does not exist' });
      expectEnvironment(t, notFound, 'a run that does not exist');
      const unprocessable = await startUnknownFixture(t, '422: an unknown fixture');
      expectEnvironment(t, unprocessable, 'a run start naming an unknown fixture');
    },
  },
  {
    id: 'sandbox.environment-header-on-post-successes',
    title:
      'The 2xx answers of the POST endpoints carry x-svc-environment: sandbox: a run start 202, a user registration, a decisions report',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.versioning],
    needs: ['sandbox', 'org'],
    async run(t) {
      // The shared fixture start's 202 costs nothing; the two others are harmless writes (a fresh
      // recruiter, an empty batch, which the spec allows and which stores no decision).
      const { runId, start } = await t.setup.fixtureRun(FIXTURE);
      if (t.expect.status(start, 202, S.runsStart))
        expectEnvironment(t, start, `the 202 of POST /runs starting ${FIXTURE}`);
      const user = await t.setup.user();
      const registered = await t.api.post(
        '/users',
        {
          external_id: t.setup.uniqueId('svc-certify-recruiter'),
          email: 'environment@example.com',
          full_name: 'Dana Levi',
          ...roleField(user.role),
        },
        { label: '2xx: register a recruiter' },
      );
      if (t.expect.status(registered, '2xx', S.users)) expectEnvironment(t, registered, 'a POST /users registration');
      const reported = await t.api.post(
        `/runs/${runId}/decisions`,
        { acting_user_external_id: user.externalId, decisions: [], notices_shown: [] },
        { label: '2xx: report an empty decisions batch' },
      );
      if (t.expect.status(reported, '2xx', S.decisions))
        expectEnvironment(t, reported, 'a POST /runs/{run_id}/decisions report');
    },
  },
  {
    id: 'sandbox.simulate-rate-limited',
    title:
      'x-svc-sandbox-simulate: rate_limited answers 429 rate_limited with retry_after_seconds 30 and Retry-After: 30',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.sandboxErrors, S.crossCutting],
    needs: ['sandbox', 'org'],
    async run(t) {
      const res = await simulatedRead(t, await fixtureRunId(t), 'rate_limited');
      if (!t.expect.error(res, 429, 'rate_limited', S.sandboxErrors)) return;
      t.expect.equal(
        obj(res.json)?.retry_after_seconds,
        30,
        'retry_after_seconds of the simulated 429',
        S.sandboxErrors,
        res,
      );
      t.expect.header(res, 'retry-after', /^\s*30\s*$/, S.sandboxErrors, 'Retry-After: 30');
    },
  },
  {
    id: 'sandbox.simulate-rate-limit-unavailable',
    title: 'x-svc-sandbox-simulate: rate_limit_unavailable answers 503 rate_limit_unavailable with the error envelope',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.sandboxErrors, S.crossCutting],
    needs: ['sandbox', 'org'],
    async run(t) {
      const res = await simulatedRead(t, await fixtureRunId(t), 'rate_limit_unavailable');
      t.expect.error(res, 503, 'rate_limit_unavailable', S.sandboxErrors);
    },
  },
  {
    id: 'sandbox.simulate-internal-error',
    title: 'x-svc-sandbox-simulate: internal_error answers 500 with error internal_error',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.sandboxErrors],
    needs: ['sandbox', 'org'],
    async run(t) {
      const res = await simulatedRead(t, await fixtureRunId(t), 'internal_error');
      t.expect.error(res, 500, 'internal_error', S.sandboxErrors);
    },
  },
  {
    id: 'sandbox.simulate-insufficient-credits',
    title:
      'x-svc-sandbox-simulate: insufficient_credits answers 402 with balance 0, required (a whole number of credits, else a warning) and reason simulated',
    suite,
    evidence: 'provoked',
    warns: ['the simulated 402 gives required not as a whole number of credits'],
    spec: [S.sandbox, S.sandboxErrors],
    needs: ['sandbox', 'org'],
    async run(t) {
      const res = await simulatedRead(t, await fixtureRunId(t), 'insufficient_credits');
      if (!t.expect.error(res, 402, 'insufficient_credits', S.sandboxErrors)) return;
      const body = obj(res.json)!;
      t.expect.equal(body.balance, 0, 'balance of the simulated 402', S.sandboxErrors, res);
      // The table lists `required` among the body fields, without a type or a value; a simulated refusal
      // prices no reveal. The same question as the production 402's (reveal.production-insufficient-credits-body):
      // present is the rule, a whole number of credits only the likelier reading.
      if (
        t.expect.that(
          'required' in body,
          {
            message: `the simulated 402 has no required; the simulated insufficient_credits body lists error, message, balance, required and reason`,
            spec: S.sandboxErrors,
            expected: 'required',
            received: Object.keys(body),
          },
          res,
        )
      ) {
        const required = int(body.required);
        t.expect.warn(
          required !== undefined && required >= 0n,
          {
            message: `the simulated 402 has required ${show(String(body.required ?? null))}, not a whole number of credits`,
            spec: S.sandboxErrors,
            received: body.required ?? null,
            pointer: '/required',
            reading:
              'required counts credits, which are integers everywhere else (reveal_price_credits, credits_charged, wallet_balance_after)',
            otherReading:
              'the spec names required without giving its type or value, and a simulated refusal has no reveal, hence no price, to state',
          },
          res,
        );
      }
      t.expect.equal(body.reason, 'simulated', 'reason of the simulated 402', S.sandboxErrors, res);
    },
  },
  {
    id: 'sandbox.simulate-invalid-value-422',
    title: 'An unknown x-svc-sandbox-simulate value answers 422 invalid_request with allowed listing the four values',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.sandboxErrors],
    needs: ['sandbox', 'org'],
    async run(t) {
      const res = await simulatedRead(t, await fixtureRunId(t), 'zz_not_a_simulation');
      if (!t.expect.error(res, 422, 'invalid_request', S.sandboxErrors)) return;
      const allowed = arr(obj(res.json)?.allowed);
      // New values may be added: the four of the spec must be there, others are fine.
      const missing = SIMULATE_VALUES.filter((v) => !allowed.includes(v));
      t.expect.that(
        missing.length === 0,
        {
          message: `422 invalid_request for an unknown ${SIMULATE} value lists allowed ${show(obj(res.json)?.allowed ?? null)}, missing ${missing.join(', ')}; allowed lists the valid values`,
          spec: S.sandbox,
          expected: SIMULATE_VALUES,
          received: obj(res.json)?.allowed ?? null,
        },
        res,
      );
    },
  },
  {
    id: 'sandbox.simulate-on-post',
    title:
      'x-svc-sandbox-simulate is honoured on a POST too: rate_limited on a fixture run start answers 429 rate_limited with Retry-After: 30',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.sandboxErrors, S.crossCutting],
    needs: ['sandbox', 'org'],
    async run(t) {
      // "on any authenticated request": a POST as well as a read. A fixture start is the harmless POST:
      // should the header be ignored, it starts a free fixture run and nothing else.
      const user = await t.setup.user();
      const res = await t.setup.startRun(
        { job_external_id: 'cert-empty', acting_user_external_id: user.externalId, target_count: 1 },
        { headers: { [SIMULATE]: 'rate_limited' }, label: `POST /runs (cert-empty) with ${SIMULATE}: rate_limited` },
      );
      if (!t.expect.error(res, 429, 'rate_limited', S.sandbox)) return;
      t.expect.equal(
        obj(res.json)?.retry_after_seconds,
        30,
        'retry_after_seconds of the simulated 429 on a POST',
        S.sandboxErrors,
        res,
      );
      t.expect.header(res, 'retry-after', /^\s*30\s*$/, S.sandboxErrors, 'Retry-After: 30');
    },
  },
  {
    id: 'sandbox.simulated-unavailable-stores-nothing',
    title:
      'A write answered 503 rate_limit_unavailable (x-svc-sandbox-simulate) executed nothing: the same job upsert sent again without the header creates the job (created: true)',
    suite,
    evidence: 'provoked',
    spec: [S.crossCutting, S.sandbox, S.sandboxErrors, S.jobs],
    needs: ['sandbox', 'org'],
    async run(t) {
      await t.setup.org();
      // A fresh job: the upsert's `created` tells whether the simulated request stored it.
      const body = {
        external_id: t.setup.uniqueId('svc-certify-job'),
        title: 'Support Engineer',
        description_text:
          'We are hiring a support engineer to answer customer tickets, reproduce problems and work with the developers on fixes.',
        location_text: 'Haifa, Israel',
      };
      const simulated = await t.api.post('/jobs', body, {
        headers: { [SIMULATE]: 'rate_limit_unavailable' },
        label: `create a job with ${SIMULATE}: rate_limit_unavailable`,
      });
      if (!t.expect.error(simulated, 503, 'rate_limit_unavailable', S.sandboxErrors)) return;
      const again = await t.api.post('/jobs', body, { label: 'the same job upsert, without the header' });
      if (!t.expect.status(again, '2xx', S.jobs)) return;
      t.expect.that(
        obj(again.json)?.created === true,
        {
          message: `after POST /jobs was answered 503 rate_limit_unavailable (simulated), the same upsert sent again answered created ${show(obj(again.json)?.created ?? null)}: the simulated request stored the job; rate_limit_unavailable means "the quota could not be verified, nothing was executed"`,
          spec: S.crossCutting,
          expected: 'created: true',
          received: obj(again.json)?.created ?? null,
          pointer: '/created',
        },
        again,
      );
    },
  },
  {
    id: 'sandbox.candidate-name-same-across-runs',
    title:
      'The same fixture started twice with the same body names each candidate the same in both runs (evidence that reads differently warns)',
    suite,
    evidence: 'provoked',
    warns: [
      'the evidence of a candidate differs between two runs started alike ("deterministic payload" may mean the start only)',
    ],
    spec: [S.sandbox, S.candidate],
    needs: ['sandbox', 'org'],
    async run(t) {
      // A candidate's name (its pseudonym in the sandbox) is "stable per candidate", and a fixture answers
      // with "a deterministic payload": across two runs started alike, each candidate keeps its name, and
      // its evidence, where the name and each part of it are replaced by that pseudonym, reads the same.
      // Fixture runs cost nothing; the first is the shared one (target_count 10, default language).
      const [{ runId: first }, user] = await Promise.all([t.setup.fixtureRun(FIXTURE), t.setup.user()]);
      const again = await t.setup.startRun(
        { job_external_id: FIXTURE, acting_user_external_id: user.externalId, target_count: 10 },
        { label: `start ${FIXTURE} again with the same body` },
      );
      if (!t.expect.status(again, 202, S.runsStart)) return;
      const second = obj(again.json)?.run_id;
      if (typeof second !== 'string' || second === first) {
        t.expect.fail(
          {
            message: `the second ${FIXTURE} start answered run_id ${show(second ?? null)} (the first: ${first}); every accepted start is a new run`,
            spec: S.runsStart,
          },
          again,
        );
        return;
      }
      const reads = [
        await t.api.get(`/runs/${first}`, { label: `read the first ${FIXTURE} run` }),
        await t.api.get(`/runs/${String(second)}`, { label: `read the second ${FIXTURE} run` }),
      ] as const;
      if (!reads.every((r) => t.expect.status(r, 200, S.runsRead))) return;
      const byId = (res: ApiResponse) => new Map(candidatesOf(res).map((c) => [String(int(c.id) ?? c.id), c]));
      const [a, b] = [byId(reads[0]), byId(reads[1])];
      const common = [...a.keys()].filter((id) => b.has(id));
      if (common.length === 0) {
        t.skip(
          `the two ${FIXTURE} runs list no candidate in common (${a.size} and ${b.size} listed), so no name can be compared`,
          'inconclusive',
        );
        return;
      }
      for (const id of common) {
        const [x, y] = [a.get(id)!, b.get(id)!];
        if (
          !t.expect.equal(
            y.name,
            x.name,
            `name of candidate ${id} in the second ${FIXTURE} run (the first run's: ${show(x.name)}; stable per candidate, deterministic payload)`,
            S.sandbox,
            reads[1],
          )
        )
          return;
        const evidence = (c: JsonObject) => objects(c.requirements).map((q) => q.evidence ?? null);
        // "Deterministic payload" is said of the start's answer; whether it covers the reads' evidence is
        // a reading, so a difference warns (the name, stable per candidate, fails above).
        t.expect.warn(
          deepEqual(evidence(y), evidence(x)),
          {
            message: `evidence of candidate ${id} differs between two ${FIXTURE} runs started alike`,
            spec: S.sandbox,
            expected: evidence(x),
            received: evidence(y),
            reading: "a fixture's deterministic payload covers its reads' evidence",
            otherReading:
              "the spec says only the fixture start's answer is deterministic; the name is what it calls stable per candidate",
          },
          reads[1],
        );
      }
    },
  },
  {
    id: 'sandbox.simulate-authenticated-first',
    title:
      'A simulated request is authenticated first: an unknown partner key or org token gets 401, not the simulated answer',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.authentication, S.crossCutting],
    needs: ['sandbox', 'org'],
    async run(t) {
      const runId = await fixtureRunId(t);
      const org = await t.setup.org();
      const badKey = await t.api.get(`/runs/${runId}`, {
        auth: { partnerKey: unknownPartnerKey(), orgToken: org.orgToken },
        headers: { [SIMULATE]: 'internal_error' },
        label: 'unknown partner key + simulate internal_error',
      });
      t.expect.error(badKey, 401, 'invalid_partner_key', S.sandbox);
      const badToken = await t.api.get(`/runs/${runId}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: unknownOrgToken() },
        headers: { [SIMULATE]: 'rate_limited' },
        label: 'unknown org token + simulate rate_limited',
      });
      t.expect.error(badToken, 401, 'invalid_org_token', S.sandbox);
    },
  },
  {
    id: 'sandbox.reveal-price-override',
    title:
      "x-svc-sandbox-reveal-price 0, 37 and 1000 replaces every candidate's reveal_price_credits in that one response only",
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.runsRead, S.limits],
    needs: ['sandbox', 'org'],
    async run(t) {
      const runId = await fixtureRunId(t);
      const before = await t.api.get(`/runs/${runId}`, { label: 'read without the header' });
      if (!t.expect.status(before, 200, S.runsRead)) return;
      const baseline = candidatesOf(before);
      if (
        !t.expect.that(
          baseline.length > 0,
          {
            message: `the ${FIXTURE} fixture run lists no candidate, so no price override can be seen`,
            spec: S.sandbox,
          },
          before,
        )
      )
        return;
      const basePrices = new Set(baseline.map((c) => String(c.reveal_price_credits)));
      // The last override is a price no candidate has without it, so a sticky override shows.
      const last = [1000, 999, 998, 997].find((p) => !basePrices.has(String(p))) ?? 1000;
      for (const price of [0, 37, last]) if (!(await expectOverride(t, runId, price))) return;
      const after = await t.api.get(`/runs/${runId}`, { label: 'read without the header again' });
      if (!t.expect.status(after, 200, S.runsRead)) return;
      const prices = candidatesOf(after).map((c) => int(c.reveal_price_credits));
      t.expect.that(
        !(prices.length > 0 && prices.every((p) => p === BigInt(last))),
        {
          message: `a read without ${PRICE} after one with ${PRICE}: ${last} still prices every candidate at ${last}; the override applies to that one response only`,
          spec: S.sandbox,
          expected: someOf(baseline, (c) => show(c.reveal_price_credits ?? null)),
          received: someOf(prices, (p) => (p === undefined ? 'null' : String(p))),
        },
        after,
      );
    },
  },
  {
    id: 'sandbox.reveal-price-out-of-range-422',
    title: 'x-svc-sandbox-reveal-price outside the integers 0 to 1000 (1001, -1, 2.5, abc) answers 422 invalid_request',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.sandboxErrors, S.limits],
    needs: ['sandbox', 'org'],
    async run(t) {
      const runId = await fixtureRunId(t);
      for (const value of ['1001', '-1', '2.5', 'abc']) {
        const res = await t.api.get(`/runs/${runId}`, { headers: { [PRICE]: value }, label: `${PRICE}: ${value}` });
        t.expect.error(res, 422, 'invalid_request', S.sandbox);
      }
    },
  },
  {
    id: 'sandbox.reveal-after-price-override-charges-zero',
    title:
      'A reveal after a read with x-svc-sandbox-reveal-price: 1000 is still answered (never 402 nor 202 pending) and charges 0',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.runsRead],
    needs: ['sandbox', 'org'],
    async run(t) {
      const user = await t.setup.user();
      // A run of its own: the reveal changes contact_state, which shared fixture runs must not see.
      const start = await t.setup.startRun(
        { job_external_id: FIXTURE, acting_user_external_id: user.externalId, target_count: 6 },
        { label: `start ${FIXTURE}` },
      );
      if (!t.expect.status(start, 202, S.runsStart)) return;
      const runId = obj(start.json)?.run_id;
      if (
        !t.expect.that(
          typeof runId === 'string',
          { message: `the 202 of a ${FIXTURE} run start has no run_id`, spec: S.runsStart },
          start,
        )
      )
        return;
      const read = await t.api.get(`/runs/${String(runId)}`, { headers: { [PRICE]: '1000' }, label: `${PRICE}: 1000` });
      if (!t.expect.status(read, 200, S.sandbox)) return;
      const candidates = candidatesOf(read);
      if (
        !t.expect.that(
          candidates.length > 0,
          { message: `the ${FIXTURE} fixture run lists no candidate to reveal`, spec: S.sandbox },
          read,
        )
      )
        return;
      // The last one listed: other suites reveal the first, and a reveal is per organization.
      const id = candidates[candidates.length - 1]!.id;
      const reveal = await t.api.post(
        `/runs/${String(runId)}/candidates/${String(id)}/reveal`,
        { acting_user_external_id: user.externalId },
        { label: 'reveal after the override read' },
      );
      if (
        !expectNotPendingOrRefused(
          t,
          reveal,
          `revealing candidate ${String(id)} after a read priced at 1000 by ${PRICE}`,
        )
      )
        return;
      if (!t.expect.status(reveal, 200, S.sandbox)) return;
      t.expect.equal(
        obj(reveal.json)?.credits_charged,
        0,
        `credits_charged of a sandbox reveal after a read priced at 1000 by ${PRICE}`,
        S.sandbox,
        reveal,
      );
    },
  },
];
