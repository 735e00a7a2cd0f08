// A 429 rate_limited to an ordinary request: the target keeping its limit. The client honours
// Retry-After, slows its pacing and says so; past what a run waits, the check is told (not failed).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedactor } from '../config/redact.js';
import { createHttpEngine, type HttpEngine } from './client.js';
import { TargetKeptItsLimit } from './limit-kept.js';
import { createPacer } from './pacer.js';
import { loopbackServers } from './testing.js';

const servers = loopbackServers();
const engines: HttpEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  await servers.closeAll();
});

function engine(baseUrl: string): HttpEngine {
  const e = createHttpEngine({
    baseUrl,
    partnerKey: 'spk_live_' + '0'.repeat(48),
    orgToken: () => 'sot_' + '1'.repeat(48),
    redactor: createRedactor([]),
    ratePerMinute: 6000,
    timeScale: 1,
  });
  engines.push(e);
  return e;
}

/** A target that refuses the first `refusals` requests with 429 rate_limited and Retry-After. */
async function keeping(
  refusals: number,
  retryAfter: string,
  error = 'rate_limited',
): Promise<{ base: string; hits: () => number }> {
  let hits = 0;
  const base = await servers.http((_req, res) => {
    hits += 1;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (hits <= refusals) {
      res.statusCode = 429;
      res.setHeader('retry-after', retryAfter);
      res.end(JSON.stringify({ error, message: 'slow down' }));
    } else res.end('{"ok":true}');
  });
  return { base, hits: () => hits };
}

describe('a limit the target keeps', () => {
  it('is waited out (Retry-After) and the request sent again: the check sees the answer, the run a notice', async () => {
    const t = await keeping(1, '0');
    const e = engine(t.base);
    const res = await e.client(() => undefined).get('/runs/x');
    expect(res.status).toBe(200);
    expect(t.hits()).toBe(2);
    expect(e.notices().map((n) => n.id)).toEqual(['rate-limit.kept-by-target']);
    expect(e.notices()[0]!.message).toMatch(
      /^the target answered 429 rate_limited 1 time to requests that are not about limits: .* slowed its pacing from 5400 to 5400 requests a window/,
    );
  });

  it('past the spec’s three attempts, the check is told the target kept its limit (a set-up matter, not a failure)', async () => {
    const t = await keeping(10, '0');
    const records: unknown[] = [];
    const err = await engine(t.base)
      .client((x) => records.push(x))
      .get('/runs/x')
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(TargetKeptItsLimit);
    expect((err as Error).message).toMatch(/^the target kept its rate limit: it answered 429 rate_limited 3 times/);
    expect(t.hits()).toBe(3);
    // The last refusal is the check's evidence.
    expect(records).toHaveLength(1);
  });

  it('a Retry-After longer than a certification waits is not waited out', async () => {
    const t = await keeping(10, '86400');
    const err = await engine(t.base)
      .client(() => undefined)
      .get('/runs/x')
      .catch((x: unknown) => x);
    expect((err as Error).message).toMatch(/Retry-After 86400 s, longer than the certification waits/);
    expect(t.hits()).toBe(1);
  });

  it.each([
    ['a deliberate burst', { unpaced: true }],
    ['a simulated refusal', { headers: { 'x-svc-sandbox-simulate': 'rate_limited' } }],
  ])('leaves %s its 429: that answer is the check', async (_name, spec) => {
    const t = await keeping(10, '0');
    const e = engine(t.base);
    const res = await e.client(() => undefined).request({ method: 'GET', path: '/runs/x', ...spec });
    expect(res.status).toBe(429);
    expect(t.hits()).toBe(1);
    expect(e.notices()).toEqual([]);
  });

  it('leaves the sandbox run quota its 429: the quota is a different answer', async () => {
    const t = await keeping(10, '3600', 'sandbox_run_quota');
    const res = await engine(t.base)
      .client(() => undefined)
      .post('/runs', {});
    expect(res.status).toBe(429);
    expect(t.hits()).toBe(1);
  });
});

describe('pacer.slowDown', () => {
  it('pauses at the first refusal, then halves the budget for each pause, never below one request a window', () => {
    const pacer = createPacer({ ratePerMinute: 10, windowMs: 1000 });
    expect(pacer.slowDown(0)).toEqual({ before: 9, after: 9 });
    expect(pacer.slowDown(0)).toEqual({ before: 9, after: 4 });
    expect(pacer.slowDown(0)).toEqual({ before: 4, after: 2 });
    expect(pacer.slowDown(0)).toEqual({ before: 2, after: 1 });
    expect(pacer.slowDown(0)).toEqual({ before: 1, after: 1 });
  });

  it('halves once for the refusals of one pause: the requests in flight come back refused together', () => {
    const pacer = createPacer({ ratePerMinute: 100, windowMs: 1000 });
    pacer.slowDown(0);
    expect(pacer.slowDown(60_000)).toEqual({ before: 90, after: 45 });
    expect(pacer.slowDown(60_000)).toEqual({ before: 45, after: 45 });
  });

  it('holds every paced request until the Retry-After has passed', async () => {
    // On a fake clock (the pacer reads performance.now and waits with setTimeout), so "not yet" is a
    // fact of the clock, not of how long the test slept.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const pacer = createPacer({ ratePerMinute: 6000, windowMs: 1000 });
      pacer.slowDown(200);
      let held = false;
      const holding = pacer.hold().then((release) => ((held = true), release()));
      await vi.advanceTimersByTimeAsync(199);
      expect(held).toBe(false);
      await vi.advanceTimersByTimeAsync(2);
      expect(held).toBe(true);
      await holding;
    } finally {
      vi.useRealTimers();
    }
  });
});
