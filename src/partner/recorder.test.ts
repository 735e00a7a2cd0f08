// The recorder under a flood: it holds at most MAX_KEPT_BODIES bodies, cuts a body at
// BODY_CAP_BYTES with its full size and SHA-256 recorded, evicts auth failures before the bodies the
// rules read, and a retry whose first body was evicted still compares equal by its hash. And the live
// re-judging delay: at least 250 ms, and 4× the last judgement's cost.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countedTraffic } from './counted-traffic.js';
import { judgeAll } from './judge.js';
import {
  BODY_CAP_BYTES,
  createRecorder,
  HEADER_VALUE_CAP,
  headOf,
  MAX_KEPT_BODIES,
  MAX_KEPT_HEADERS,
  MAX_RECORDED_REQUESTS,
  type ExchangeObservation,
} from './recorder.js';
import { decisionItemsOf } from './rules/decision-items.js';
import { partnerRules } from './rules/index.js';
import { retryChains } from './rules/retry-chains.js';
import { createPartnerSession, judgingBoundNotice, rejudgeDelayMs } from './session.js';
import type { JudgeContext } from './traffic.js';

let nextId = 1;
function exchange(opts: { path?: string; body: string | Buffer; status: number; at?: number }): ExchangeObservation {
  const at = opts.at ?? 1_000;
  return {
    kind: 'exchange',
    request: {
      id: nextId++,
      method: 'POST',
      path: opts.path ?? '/v1/jobs',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(opts.body),
    },
    receivedAt: at,
    answeredAt: at + 1,
    status: opts.status,
    responseHeaders: {},
    responseBody: Buffer.from(opts.status >= 300 ? '{"error":"x"}' : '{}'),
    dropped: false,
    simulated: false,
  };
}

const ctx: JudgeContext = { timeScale: 1, webhookRegistered: false, inject: true, final: true, now: 10_000 };

describe('recorder: int64 candidate ids', () => {
  // Around 2^53 (2^53 - 1, 2^53, 2^53 + 1) and at 2^63 - 1: through a double, the last three are not
  // what was sent, and 2^53 and 2^53 + 1 become one value.
  const IDS = ['9007199254740991', '9007199254740992', '9007199254740993', '9223372036854775807'];

  it('keeps each id exact, so two decisions on neighbours past 2^53 are two candidates and two bodies', () => {
    const recorder = createRecorder();
    const body = (id: string): string =>
      `{"acting_user_external_id":"u1","decisions":[{"candidate_id":${id},"decision":"shortlisted","occurred_at":"2026-01-01T00:00:00Z"}]}`;
    for (const id of IDS) recorder.add(exchange({ path: '/v1/runs/r1/decisions', body: body(id), status: 200 }));
    const requests = recorder.traffic().requests;
    const read = requests.map((r) =>
      String((r.json as { decisions: Array<{ candidate_id: unknown }> }).decisions[0]!.candidate_id),
    );
    expect(read).toEqual(IDS);
    // The comparison key of each body differs (a double made the second and third bodies one).
    expect(new Set(requests.map((r) => r.body?.key)).size).toBe(IDS.length);
    // The decision rules key each decision by its candidate, digit for digit.
    expect(requests.map((r) => decisionItemsOf(r)[0]!.candidate)).toEqual(IDS);
  });
});

describe('recorder: bounded bodies', () => {
  it(`holds at most ${MAX_KEPT_BODIES} bodies; the others keep their metadata and body record`, () => {
    const recorder = createRecorder();
    const total = MAX_KEPT_BODIES + 500;
    for (let i = 0; i < total; i++)
      recorder.add(exchange({ body: JSON.stringify({ external_id: `job-${i}` }), status: 401 }));
    const { requests } = recorder.traffic();
    expect(requests).toHaveLength(total);
    const held = requests.filter((r) => r.bodyText !== '');
    expect(held).toHaveLength(MAX_KEPT_BODIES);
    // The oldest went first.
    expect(requests[0]!.bodyText).toBe('');
    expect(requests[0]!.json).toBeUndefined();
    expect(requests[0]!.body).toMatchObject({
      kept: 'evicted',
      bytes: JSON.stringify({ external_id: 'job-0' }).length,
    });
    expect(requests[0]!).toMatchObject({ method: 'POST', path: '/v1/jobs', status: 401, endpoint: 'jobs' });
    expect(requests[total - 1]!.json).toEqual({ external_id: `job-${total - 1}` });
  });

  it('auth failures are evicted before the decisions whose JSON the rules read', () => {
    const recorder = createRecorder();
    const run = '11111111-1111-4111-8111-111111111111';
    recorder.add(
      exchange({
        path: `/v1/runs/${run}/decisions`,
        body: JSON.stringify({ decisions: [], notices_shown: ['N1'] }),
        status: 200,
      }),
    );
    for (let i = 0; i < MAX_KEPT_BODIES + 10; i++) recorder.add(exchange({ body: JSON.stringify({ i }), status: 401 }));
    const first = recorder.traffic().requests[0]!;
    expect(first.endpoint).toBe('decisions');
    expect(first.json).toEqual({ decisions: [], notices_shown: ['N1'] });
    expect(first.body?.kept).toBe('full');
  });

  it(`a body past ${BODY_CAP_BYTES} bytes keeps only its first bytes, with its full size and SHA-256`, () => {
    const recorder = createRecorder();
    const big = Buffer.from(JSON.stringify({ text: 'x'.repeat(250 * 1024) }));
    recorder.add(exchange({ body: big, status: 401 }));
    const r = recorder.traffic().requests[0]!;
    expect(r.bodyText.length).toBe(BODY_CAP_BYTES);
    expect(r.json).toBeUndefined();
    expect(r.body).toEqual({
      bytes: big.length,
      sha256: createHash('sha256').update(big).digest('hex'),
      key: `raw:${createHash('sha256').update(big).digest('hex')}`,
      kept: 'capped',
    });
  });

  it('a retried JSON body whose text was evicted still compares equal by its hash (JSON by value)', () => {
    const recorder = createRecorder();
    // The first attempt fails with a 503; the client retries the same JSON, its keys in another order.
    recorder.add(exchange({ body: '{"external_id":"job-1","title":"Backend"}', status: 503, at: 1_000 }));
    for (let i = 0; i < MAX_KEPT_BODIES; i++)
      recorder.add(exchange({ path: '/v1/other', body: JSON.stringify({ filler: i }), status: 404, at: 1_100 }));
    recorder.add(exchange({ body: '{ "title": "Backend", "external_id": "job-1" }', status: 201, at: 2_000 }));
    const { requests } = recorder.traffic();
    const first = requests[0]!;
    const retry = requests[requests.length - 1]!;
    expect(first.bodyText).toBe('');
    expect(first.body?.kept).toBe('evicted');
    expect(retry.body?.kept).toBe('full');
    expect(first.body?.key).toBe(retry.body?.key);
    const jobs = requests.filter((r) => r.endpoint === 'jobs');
    expect(retryChains(jobs, ctx).map((c) => c.map((r) => r.id))).toEqual([[first.id, retry.id]]);
    // A different body is not a retry.
    const other = createRecorder();
    other.add(exchange({ body: '{"external_id":"job-1"}', status: 503, at: 1_000 }));
    other.add(exchange({ body: '{"external_id":"job-2"}', status: 201, at: 2_000 }));
    expect(retryChains(other.traffic().requests, ctx)).toEqual([]);
  });
});

describe('live re-judging delay', () => {
  it('at most every 250 ms, and never sooner than 4× the last judgement took', () => {
    expect(rejudgeDelayMs(0)).toBe(250);
    expect(rejudgeDelayMs(50)).toBe(250);
    expect(rejudgeDelayMs(200)).toBe(800);
  });
});

/** A read of `path` answered 429 rate_limited with Retry-After: 1, carrying `headers`. */
function floodRead(path: string, at: number, headers: Record<string, string>, status = 429): ExchangeObservation {
  return {
    kind: 'exchange',
    request: { id: nextId++, method: 'GET', path, headers },
    receivedAt: at,
    answeredAt: at + 1,
    status,
    responseHeaders: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) },
    responseBody: Buffer.from(
      status === 429 ? '{"error":"rate_limited","message":"slow down"}' : '{"error":"run_not_found","message":"no"}',
    ),
    dropped: false,
    simulated: false,
  };
}

describe('recorder and judge under a flood', () => {
  it('keeps a 15 KB header as its head, size and hash: equal values still compare equal, different ones not', () => {
    const recorder = createRecorder();
    const big = 'k'.repeat(15 * 1024);
    recorder.add(floodRead('/v1/runs/a', 1_000, { 'x-partner-key': big, 'x-padding': `1${big}` }));
    recorder.add(floodRead('/v1/runs/a', 3_000, { 'x-partner-key': big, 'x-padding': `2${big}` }));
    const [a, b] = recorder.traffic().requests;
    for (const r of [a!, b!]) for (const v of Object.values(r.headers)) expect(v.length).toBeLessThan(HEADER_VALUE_CAP);
    // One word cut at the head: none of it is kept (it could be a secret's), only its size and hash.
    expect(a!.headers['x-partner-key']).toMatch(/^… \[15360 bytes, sha256 [0-9a-f]{32}…\]$/);
    expect(a!.headers['x-partner-key']).toBe(b!.headers['x-partner-key']);
    expect(a!.headers['x-padding']).not.toBe(b!.headers['x-padding']);
    // A refusal's JSON is not held (its code is): only the rules' answers are parsed and kept.
    expect(a!.errorCode).toBe('rate_limited');
    expect(a!.responseJson).toBeUndefined();
  });

  it('never keeps part of a secret sitting at the cut of a long header, in any form; whole words before it stay', () => {
    const key = `spk_live_${'0123456789abcdef'.repeat(3)}`;
    const pct = [...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    for (const form of [key, pct, Buffer.from(key).toString('base64')])
      for (const at of [30, 50, 63]) {
        const value = `${'w'.repeat(at - 6)} x=1; ${form} ${'z'.repeat(400)}`;
        const recorder = createRecorder();
        recorder.add(floodRead('/v1/runs/a', 1_000, { authorization: value }));
        const held = recorder.traffic().requests[0]!.headers.authorization!;
        expect(held).toMatch(/… \[\d+ bytes, sha256 [0-9a-f]{32}…\]$/);
        const head = held.slice(0, held.indexOf('…'));
        // Nothing of the form at the cut: not its first 12 characters, not any piece of it.
        expect(head).not.toContain(form.slice(0, 4));
        expect(head).toBe(`${'w'.repeat(at - 6)} x=1; `);
      }
    expect(headOf(`short ${key}`)).toBe(`short ${key}`);
    expect(headOf(`${'a '.repeat(31)}b ${key}`)).toBe(`${'a '.repeat(31)}b `);
  });

  it(`holds at most ${MAX_KEPT_HEADERS} headers of a request and counts the rest`, () => {
    const recorder = createRecorder();
    const headers = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x-h-${i}`, 'v']));
    recorder.add(floodRead('/v1/runs/a', 1_000, headers));
    const [r] = recorder.traffic().requests;
    expect(Object.keys(r!.headers)).toHaveLength(MAX_KEPT_HEADERS);
    expect(r!.headersDropped).toBe(500 - MAX_KEPT_HEADERS);
  });

  it('judges 60,000 reads on distinct paths answered 429 (one in 50 answered 404), and 20,000 on one path, in linear time', () => {
    const recorder = createRecorder({ maxRequests: 100_000 });
    const key = `spk_live_${'ab'.repeat(24)}`;
    // 60,000 reads within one retry window: a scan of the window per request was 1.8e9 steps; a copy of
    // the later requests per refused (404) one, 1,200 × 60,000.
    for (let i = 0; i < 60_000; i++)
      recorder.add(
        floodRead(`/v1/runs/flood-${i}`, 1_000 + i / 10, { 'x-partner-key': key }, i % 50 === 0 ? 404 : 429),
      );
    for (let i = 0; i < 20_000; i++) recorder.add(floodRead('/v1/runs/same', 8_000 + i, { 'x-partner-key': key }));
    const rules = partnerRules(() => [key]);
    const counted = countedTraffic(recorder.traffic());
    const judged = judgeAll(rules, counted.traffic, { ...ctx, now: 40_000 });
    expect(judged.filter((j) => j.error).map((j) => `${j.rule.id}: ${j.error!.message}`)).toEqual([]);
    // The same-path reads retried sooner than their Retry-After: judged, not lost in the flood.
    const retryAfter = judged.find((j) => j.rule.id === 'retries.retry-after-honoured')!;
    expect(retryAfter.verdict.state).toBe('failed');
    // Linear: the fields read stay a few hundred a request (about 165 here); a scan of the retry window
    // per request read tens of thousands.
    expect(counted.reads() / 80_000).toBeLessThan(400);
  });

  // Floods aimed at one run: the decision rules compared each item of every
  // held body against every later call (decision batches: not done after 5 minutes; now about 2 s).
  const RUN = '11111111-1111-4111-8111-111111111111';
  const oneRun = (method: string, path: string, at: number, status: number, body: unknown, answer: unknown) => ({
    kind: 'exchange' as const,
    request: {
      id: nextId++,
      method,
      path,
      headers: { 'x-partner-key': 'k', authorization: 'Bearer t', 'content-type': 'application/json' },
      ...(body !== undefined ? { body: Buffer.from(JSON.stringify(body)) } : {}),
    },
    receivedAt: at,
    answeredAt: at + 1,
    status,
    responseHeaders: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) },
    responseBody: Buffer.from(
      JSON.stringify(status === 429 ? { error: 'rate_limited', message: 'slow down' } : answer),
    ),
    dropped: false,
    simulated: false,
  });
  const N = MAX_RECORDED_REQUESTS;
  // One in 7 answered 429 throughout; the run's clock moves 10 ms a request.
  // Shape, one request of it, the rule it must still judge, its verdict, fields read a request at most.
  const floods: Array<[string, (i: number) => ExchangeObservation, string, string, number]> = [
    [
      'polls of the run (running, then completed)',
      (i) =>
        oneRun('GET', `/v1/runs/${RUN}`, 2_000 + i * 10, i % 7 === 3 ? 429 : 200, undefined, {
          run_id: RUN,
          status: i < N / 2 ? 'running' : 'completed',
          candidates: [],
        }),
      'polling.running-run-read-at-most-every-5s',
      'warning',
      400,
    ],
    [
      // Batches of 20 (the bodies held, MAX_KEPT_BODIES of them, fit the held bytes), over 200 candidates
      // and 500 occurred_at values, each repeated: an instant names one action, but in one batch in 1,000,
      // where a later action (a note added to the same decision) reuses the occurred_at of the one before.
      // One in 11 refused 422.
      'decision batches to the run, candidates and occurred_at repeated and new',
      (i) =>
        oneRun(
          'POST',
          `/v1/runs/${RUN}/decisions`,
          2_000 + i * 10,
          i % 7 === 3 ? 429 : i % 11 === 5 ? 422 : 200,
          {
            acting_user_external_id: 'u1',
            decisions: Array.from({ length: 20 }, (_, k) => ({
              candidate_id: (i + k) % 200,
              decision: ['shortlisted', 'contacted', 'interviewing'][((i + k) % 500) % 3],
              ...(i % 1_000 === 999 ? { note: 'a later note' } : {}),
              occurred_at: new Date(1_000 + ((i + k) % 500) * 1_000).toISOString(),
            })),
            notices_shown: [],
          },
          { accepted: 20, duplicates: 0 },
        ),
      'decisions.later-action-new-occurred-at',
      'failed',
      6_000,
    ],
    [
      'reveals of one candidate and of 300 others',
      (i) =>
        oneRun(
          'POST',
          `/v1/runs/${RUN}/candidates/${i % 2 === 0 ? 7 : i % 300}/reveal`,
          2_000 + i * 10,
          i % 7 === 3 ? 429 : 200,
          undefined,
          { candidate_id: i % 2 === 0 ? 7 : i % 300, credits_charged: 0, wallet_balance_after: 10 },
        ),
      // Sent 10 ms after a 429 that said Retry-After: 1.
      'retries.retry-after-honoured',
      'failed',
      400,
    ],
  ];
  for (const [shape, make, ruleId, state, readsPerRequest] of floods)
    it(`judges ${N.toLocaleString('en')} ${shape} in linear time`, () => {
      const recorder = createRecorder();
      recorder.add(
        oneRun(
          'POST',
          '/v1/runs',
          1_000,
          202,
          {},
          { run_id: RUN, status: 'queued', sandbox: { fixture: 'cert-basic' } },
        ),
      );
      for (let i = 0; i < N - 1; i++) recorder.add(make(i));
      expect(recorder.traffic().requests).toHaveLength(N);
      const counted = countedTraffic(recorder.traffic());
      const judged = judgeAll(
        partnerRules(() => []),
        counted.traffic,
        { ...ctx, now: 2_000 + N * 10 + 1_000 },
      );
      expect(judged.filter((j) => j.error).map((j) => `${j.rule.id}: ${j.error!.message}`)).toEqual([]);
      // Judged, not lost in the flood.
      expect(judged.find((j) => j.rule.id === ruleId)!.verdict.state).toBe(state);
      // Linear: the fields read stay bounded per request, whatever N (about 140 to 170 a read or reveal,
      // 3,100 a batch of 20 decisions); comparing each held item with every later call read hundreds of thousands.
      expect(counted.reads() / N).toBeLessThan(readsPerRequest);
    });

  it(`records at most ${MAX_RECORDED_REQUESTS.toLocaleString('en')} requests and counts the rest, which the results name`, () => {
    const recorder = createRecorder({ maxRequests: 3 });
    for (let i = 0; i < 5; i++) recorder.add(floodRead(`/v1/runs/r-${i}`, 1_000 + i, {}, i === 4 ? 404 : 429));
    expect(recorder.traffic().requests.map((r) => r.path)).toEqual(['/v1/runs/r-0', '/v1/runs/r-1', '/v1/runs/r-2']);
    expect(recorder.unrecorded()).toEqual({ requests: 2, rateLimited: 1 });
    expect(judgingBoundNotice(3, 0)).toBeUndefined();
    expect(judgingBoundNotice(50_000, 13_211)?.message).toMatch(
      /^judged the first 50,000 of 63,211 requests the partner sent: .* the 13,211 after them were answered and counted, not judged$/,
    );
  });

  it('a session past its bound says so in its results, with every request counted', () => {
    const session = createPartnerSession({
      timeScale: 1,
      webhookRegistered: false,
      inject: false,
      secrets: [],
      config: {},
      maxRecordedRequests: 4,
    });
    for (let i = 0; i < 10; i++) session.observe(floodRead(`/v1/runs/s-${i}`, Date.now() + i, {}));
    const result = session.finish({ baseUrl: 'http://127.0.0.1:1/v1', environment: 'sandbox' });
    expect(result.stats).toMatchObject({ requests: 10, rateLimited: 10 });
    expect(result.notices?.map((n) => n.message)).toEqual([judgingBoundNotice(4, 6)!.message]);
  });
});
