import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedactor } from '../config/redact.js';
import { JsonDecimal } from '../json/lossless.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { createHttpEngine } from './client.js';
import type { HttpEngine, HttpEngineOptions } from './client.js';
import { loopbackServers } from './testing.js';

const KEY = 'spk_live_' + '0123456789abcdef'.repeat(3);
const TOKEN = 'sot_' + 'fedcba9876543210'.repeat(3);
const LATE_TOKEN = 'tok-not-in-the-spec-format-0123456789';

const servers = loopbackServers();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await servers.closeAll();
});
const httpServer = servers.http;
const rawServer = servers.raw;

function engine(baseUrl: string, extra: Partial<HttpEngineOptions> = {}): HttpEngine {
  const e = createHttpEngine({
    baseUrl,
    partnerKey: KEY,
    orgToken: () => TOKEN,
    redactor: createRedactor([]),
    ratePerMinute: 6000,
    timeScale: 1,
    userAgent: 'svc-certify/test',
    ...extra,
  });
  cleanups.push(() => e.close());
  return e;
}

function collect(): { records: RecordedExchange[]; record: (x: RecordedExchange) => void } {
  const records: RecordedExchange[] = [];
  return { records, record: (x) => records.push(x) };
}

describe('HttpEngine client', () => {
  it('round-trips int64 ids above 2^53 exactly and keeps float and exponent tokens apart', async () => {
    let received = '';
    const base = await httpServer((_req, res, body) => {
      received = body;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end('{"id":9223372036854775807,"small":7,"float":990000000001.0,"exp":9.90000000001e11}');
    });
    const { records, record } = collect();
    const res = await engine(base)
      .client(record)
      .post('/echo', { id: 2n ** 63n - 1n, n: 1 });
    expect(received).toBe('{"id":9223372036854775807,"n":1}');
    expect(res.status).toBe(200);
    const json = res.json as Record<string, unknown>;
    expect(json.id).toBe(9223372036854775807n);
    expect(json.small).toBe(7);
    expect(json.float).toBeInstanceOf(JsonDecimal);
    expect((json.float as JsonDecimal).raw).toBe('990000000001.0');
    expect((json.exp as JsonDecimal).raw).toBe('9.90000000001e11');
    expect(records).toHaveLength(1);
    expect(records[0]?.request.body).toBe(received);
    expect(records[0]?.response?.body).toContain('9223372036854775807');
    expect(res.exchange).toBe(records[0]);
  });

  it('reports text that is not JSON through jsonError, whatever the content type', async () => {
    const base = await httpServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('<html>oops</html>');
    });
    const res = await engine(base)
      .client(() => {})
      .get('/runs/x');
    expect(res.status).toBe(200);
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toBeTruthy();
    expect(res.text).toBe('<html>oops</html>');
  });

  it('sends auth, language and content type as the request asks', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const base = await httpServer((req, res) => {
      seen.push(req.headers);
      res.end('{}');
    });
    const api = engine(base).client(() => {});
    await api.post('/runs', { a: 1 }, { lang: 'en' });
    await api.get('/x', { auth: 'partner' });
    await api.get('/x', { auth: 'none' });
    await api.get('/x', { auth: { partnerKey: '' } });
    await api.request({ method: 'post', path: '/x', rawBody: '{bad', headers: { 'X-Extra': 'v' } });
    expect(seen[0]?.['x-partner-key']).toBe(KEY);
    expect(seen[0]?.['x-svc-org']).toBe(TOKEN);
    expect(seen[0]?.['x-svc-lang']).toBe('en');
    expect(seen[0]?.['content-type']).toBe('application/json');
    expect(seen[0]?.['user-agent']).toBe('svc-certify/test');
    expect(seen[1]?.['x-partner-key']).toBe(KEY);
    expect(seen[1]?.['x-svc-org']).toBeUndefined();
    expect(seen[2]?.['x-partner-key']).toBeUndefined();
    expect(seen[3]?.['x-partner-key']).toBe('');
    expect(seen[3]?.['x-svc-org']).toBeUndefined();
    expect(seen[4]?.['content-type']).toBeUndefined();
    expect(seen[4]?.['x-extra']).toBe('v');
  });

  it('returns a redirect as is', async () => {
    let hits = 0;
    const base = await httpServer((_req, res) => {
      hits++;
      res.writeHead(302, { location: '/v1/elsewhere' });
      res.end();
    });
    const res = await engine(base)
      .client(() => {})
      .get('/runs');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/v1/elsewhere');
    expect(hits).toBe(1);
  });

  it('turns garbage bytes into invalid_http, not an exception', async () => {
    const base = await rawServer((s) => s.end('\x00\x01\xffgarbage\r\n\r\n'));
    const { records, record } = collect();
    const res = await engine(base).client(record).get('/runs');
    expect(res.status).toBe(0);
    expect(res.transportError?.code).toBe('invalid_http');
    expect(records[0]?.transportError?.code).toBe('invalid_http');
    expect(records[0]?.response).toBeUndefined();
  });

  it('times out a target that hangs after timeoutMs, not before', async () => {
    // The timers on a fake clock, the request over a real socket: "not before the limit" is then a
    // fact of the clock the client waits on, not of the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let arrived!: () => void;
      const requestArrived = new Promise<void>((r) => (arrived = r));
      const base = await rawServer(() => arrived());
      let settled = false;
      const answer = engine(base, { timeoutMs: 300 })
        .client(() => {})
        .get('/runs')
        .finally(() => (settled = true));
      await requestArrived;
      await vi.advanceTimersByTimeAsync(299);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const res = await answer;
      // Which limit ended it is in the error itself.
      expect(res.transportError).toMatchObject({
        code: 'timeout',
        message: expect.stringContaining('no complete response within 300 ms'),
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('times out a body that stops midway, keeping what came', async () => {
    const base = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nabc'));
    const { records, record } = collect();
    const res = await engine(base).client(record).get('/runs', { timeoutMs: 200 });
    expect(res.status).toBe(0);
    expect(res.transportError?.code).toBe('timeout');
    expect(records[0]?.response?.status).toBe(200);
    expect(records[0]?.response?.body).toBe('abc');
  });

  it('reports a socket destroyed mid-response as connection_reset', async () => {
    const base = await rawServer((s) => {
      s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"id":');
      setTimeout(() => s.destroy(), 20);
    });
    const { records, record } = collect();
    const res = await engine(base).client(record).get('/runs');
    expect(res.status).toBe(0);
    expect(res.transportError?.code).toBe('connection_reset');
    expect(records[0]?.response?.body).toBe('{"id":');
  });

  it('reports connection_refused for a closed port', async () => {
    const base = await httpServer((_req, res) => res.end());
    const closed = base.replace(/:\d+\//, ':1/');
    const res = await engine(closed)
      .client(() => {})
      .get('/runs');
    expect(res.transportError?.code).toBe('connection_refused');
  });

  it('stops reading a huge body at maxBodyBytes and records a small part', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const base = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(50 * chunk.length) });
      res.on('error', () => {});
      let sent = 0;
      const pump = () => {
        while (sent < 50 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const { records, record } = collect();
    const res = await engine(base).client(record).get('/huge');
    expect(res.status).toBe(0);
    expect(res.transportError?.code).toBe('body_too_large');
    // Over the limit the answer is a transport finding: its first 64 KiB are kept as evidence, not 8 MiB.
    expect(res.text.length).toBe(64 * 1024);
    const rec = records[0];
    expect(rec?.response?.status).toBe(200);
    expect(rec?.response?.bodyTruncated).toBe(true);
    expect(rec?.response?.body?.length).toBe(64 * 1024);
    expect(rec?.response?.bodyBytes).toBeGreaterThan(8 * 1024 * 1024);
  });

  it('returns aborted when the check is aborted, and closed after the engine closed', async () => {
    const base = await rawServer(() => {});
    const e = engine(base);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const res = await e.client(() => {}, { signal: controller.signal }).get('/runs');
    expect(res.transportError?.code).toBe('aborted');
    await e.close();
    const after = await e.client(() => {}).get('/runs');
    expect(after.transportError?.code).toBe('closed');
  });

  it('numbers exchanges per client, labels them and counts statuses', async () => {
    const base = await httpServer((req, res) => {
      res.statusCode = req.url?.endsWith('/limited') ? 429 : 200;
      // The target keeping its limit: the client retries after Retry-After, three attempts in all.
      if (res.statusCode === 429) res.setHeader('retry-after', '0');
      res.end('{}');
    });
    const e = engine(base);
    const { records, record } = collect();
    const api = e.client(record, { labelPrefix: 'setup' });
    await api.get('/a', { label: 'redeem' });
    await expect(api.get('/limited')).rejects.toThrow(/^the target kept its rate limit/);
    // In the order they were made: the check that keeps them numbers them (check-record.ts).
    expect(records.map((r) => r.label)).toEqual(['setup: redeem', 'setup']);
    expect(records[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(records[0]?.startedAt ?? '')).not.toBeNaN();
    // Every attempt went out; the answer the request ended with is counted once.
    expect(e.stats()).toEqual({ requests: 4, rateLimited: 1, byStatus: { '200': 1, '429': 1 } });
  });
});

describe('redaction of recorded exchanges', () => {
  /** Every form a secret could take once results.json is written and read back. */
  function leaks(records: RecordedExchange[], secret: string): boolean {
    const serialized = JSON.stringify(records);
    const decoded = serialized.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const unescaped = decoded.replace(/\\\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return [serialized, decoded, unescaped, decodeURIComponent(unescaped.replace(/%(?![0-9a-fA-F]{2})/g, '%25'))].some(
      (s) => s.includes(secret),
    );
  }

  it('keeps the partner key and org tokens out of every recorded field', async () => {
    const escaped = (s: string) => [...s].map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('');
    const base = await httpServer((req, res, body) => {
      // Never answered: the request ends in a time-out, whose record must be redacted too.
      if (req.url?.includes('/x/')) return;
      res.setHeader('x-echo-key', String(req.headers['x-partner-key']));
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/activations/redeem')) {
        res.end(JSON.stringify({ org_token: LATE_TOKEN, organization_external_id: 'o1' }));
        return;
      }
      // A hostile echo: the key JSON-escaped, the body and the URL as received.
      res.end(
        `{"key":"${escaped(String(req.headers['x-partner-key']))}","url":${JSON.stringify(req.url)},"body":${JSON.stringify(body)}}`,
      );
    });
    const redactor = createRedactor([]);
    let org: string | undefined = TOKEN;
    const e = engine(base, { redactor, orgToken: () => org });
    const { records, record } = collect();
    const api = e.client(record);
    const echoed = await api.post(`/runs?key=${encodeURIComponent(KEY)}&t=${TOKEN}`, { secret: KEY, token: TOKEN });
    // The certifier itself sees the truth; only the record is redacted.
    expect((echoed.json as Record<string, unknown>).key).toBe(KEY);
    const redeemed = await api.post('/activations/redeem', { code: 'SVC-1' }, { auth: 'partner' });
    expect((redeemed.json as Record<string, unknown>).org_token).toBe(LATE_TOKEN);
    org = LATE_TOKEN;
    await api.post('/users', { note: `token ${LATE_TOKEN}` });
    const failure = await api.get(`/x/${KEY}`, { timeoutMs: 50, headers: { 'x-note': LATE_TOKEN } });
    expect([failure.status, failure.transportError?.code]).toEqual([0, 'timeout']);

    expect(records).toHaveLength(4);
    for (const secret of [KEY, TOKEN, LATE_TOKEN]) expect(leaks(records, secret)).toBe(false);
    expect(records[0]?.request.headers['x-partner-key']).toBe('spk_live_012…');
    expect(records[0]?.response?.headers['x-echo-key']).toBe('spk_live_012…');
    expect(records[0]?.request.url).toContain('key=spk_live_012…');
    expect(records[1]?.response?.body).toContain('"org_token":"tok-not-in-t…"');
    expect(records[2]?.curl).toContain(`'x-svc-org: '"$SVC_ORG_TOKEN_2"`);
    expect(records[0]?.curl).toContain(`'x-partner-key: '"$SVC_PARTNER_KEY"`);
    expect(redactor.secrets().map((s) => s.envVar)).toEqual(['SVC_PARTNER_KEY', 'SVC_ORG_TOKEN', 'SVC_ORG_TOKEN_2']);
  });

  it('redacts a record made before its secret was known', async () => {
    const base = await httpServer((_req, res) => res.end(JSON.stringify({ echo: LATE_TOKEN })));
    const redactor = createRedactor([]);
    const { records, record } = collect();
    await engine(base, { redactor }).client(record).get('/x');
    expect(records[0]?.response?.body).toContain(LATE_TOKEN);
    redactor.add({ value: LATE_TOKEN, envVar: 'SVC_WEBHOOK_SECRET' });
    expect(records[0]?.response?.body).toBe('{"echo":"tok-not-in-t…"}');
  });
});

describe('pacing through the engine', () => {
  it('never lets the target see more than the budget in any window', async () => {
    // The pacer's clock and timers are fake, the requests real: each arrival is stamped with the
    // pacer's own clock, so the windows counted here are the ones it paced by, whatever the load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const windowMs = 200;
      const arrivals: number[] = [];
      const base = await httpServer((_req, res) => {
        arrivals.push(performance.now());
        res.end('{}');
      });
      // ratePerMinute 60 over a 200 ms "minute": 54 requests per window with the 10 % margin.
      const e = engine(base, { ratePerMinute: 60, timeScale: 60_000 / windowMs });
      const api = e.client(() => {});
      const started = performance.now();
      let answered = 0;
      const all = Promise.all(Array.from({ length: 100 }, () => api.get('/runs').finally(() => (answered += 1))));
      // The fake clock moves only once every request the pacer let go has been answered.
      while (answered < 100) {
        await new Promise((r) => setImmediate(r));
        if (answered === e.sendTimes().length) await vi.advanceTimersByTimeAsync(1);
      }
      const results = await all;
      expect(results.every((r) => r.status === 200)).toBe(true);
      let worst = 0;
      for (let i = 0; i < arrivals.length; i++) {
        let j = i;
        while (j < arrivals.length && (arrivals[j] ?? Infinity) - (arrivals[i] ?? 0) < windowMs) j++;
        worst = Math.max(worst, j - i);
      }
      expect(worst).toBeLessThanOrEqual(54);
      expect(worst).toBeGreaterThan(20);
      // The first window's budget went at once; the request past it waited a whole window.
      arrivals.sort((a, b) => a - b);
      expect(arrivals[0]).toBe(started);
      expect(arrivals[54]! - started).toBeGreaterThanOrEqual(windowMs);
    } finally {
      vi.useRealTimers();
    }
  });
});
