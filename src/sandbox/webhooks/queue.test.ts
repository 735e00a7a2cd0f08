import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pointsOf, resolveFaults } from '../faults/index.js';
import { createWebhookQueue } from './queue.js';
import type { WebhookEnvelope, WebhookQueue, WebhookQueueOptions } from './types.js';

const SECRET = 'whsec_test_0123456789abcdef';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

interface Receiver {
  url: string;
  received: Received[];
  /** Answers by request number (0-based); default 200. */
  answer: (n: number, req: Received) => { status: number; headers?: Record<string, string>; delayMs?: number };
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(): Promise<Receiver> {
  const r: Receiver = { url: '', received: [], answer: () => ({ status: 200 }), close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const item = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      const n = r.received.push(item) - 1;
      const a = r.answer(n, item);
      const reply = () => {
        res.writeHead(a.status, a.headers ?? {});
        res.end();
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  cleanups.push(() => r.close());
  return r;
}

function queue(rcv: Receiver, over: Partial<WebhookQueueOptions> = {}): WebhookQueue {
  const faults = over.faults ?? new Set();
  const q = createWebhookQueue({
    timeScale: 600, // 1 min → 100 ms
    ackTimeoutMs: 3_000,
    faults,
    points: pointsOf(faults),
    sandboxHeader: true,
    allowLoopback: true,
    target: () => ({ url: rcv.url, secret: SECRET }),
    paused: () => false,
    ...over,
  });
  cleanups.push(() => q.close());
  return q;
}

function envelope(over: Partial<WebhookEnvelope> = {}): WebhookEnvelope {
  return {
    event_id: randomUUID(),
    event: 'run_completed',
    run_id: randomUUID(),
    organization_external_id: 'acme-org',
    job_external_id: 'job-1',
    occurred_at: new Date().toISOString(),
    progress: { confirmed: 3, target: 3, screened: 40 },
    ...over,
  };
}

const item = (env: WebhookEnvelope, extra: { wrongSignature?: boolean; dedupe?: boolean } = {}) => ({
  partnerId: 'p1',
  organizationId: 'o1',
  envelope: env,
  ...extra,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// The queue's own account of each item's end ("delivered", "dropped after 8 attempts", "waiting: …"): a
// finished item has no timer left, so waiting for its line proves nothing more will be sent, where a
// sleep would only hope so.
function logged(): { lines: string[]; log: (line: string) => void; count: (text: string) => number } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line), count: (text) => lines.filter((l) => l.includes(text)).length };
}
/** Waits for `cond` by turns of the event loop, for tests whose timers are fake (a sleep would never end). */
async function untilIo(cond: () => boolean, turns = 1_000_000): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i >= turns) throw new Error(`condition not reached in ${turns} turns of the event loop`);
    await new Promise((r) => setImmediate(r));
  }
}
async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(10);
  }
}
const hmac = (body: Buffer, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const json = (r: Received) => JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;

describe('webhook queue delivery', () => {
  it('posts JSON signed over the exact bytes sent, with the sandbox header and the int64 written exactly', async () => {
    const rcv = await receiver();
    const q = queue(rcv);
    const env = envelope({ event: 'candidate_revealed', candidate_id: 9007199254740993n });
    q.enqueue(item(env));
    await until(() => rcv.received.length === 1);
    const got = rcv.received[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-svc-environment']).toBe('sandbox');
    expect(got.headers['x-svc-signature']).toBe(hmac(got.body));
    expect(got.body.toString('utf8')).toContain('"candidate_id":9007199254740993');
    expect(json(got)).toMatchObject({
      event_id: env.event_id,
      organization_external_id: 'acme-org',
      occurred_at: env.occurred_at,
    });
    await until(() => q.attempts().length === 1);
    expect(q.attempts()[0]).toMatchObject({ eventId: env.event_id, attempt: 1, url: rcv.url, status: 200 });
  });

  it('sends an acknowledged event once more, the same bytes, when the embedder asks (at-least-once), and asks once', async () => {
    const rcv = await receiver();
    const { log, count } = logged();
    const asked: string[] = [];
    const q = queue(rcv, {
      log,
      redeliverAfterMs: (d) => {
        asked.push(`${d.event} ${d.eventId}`);
        return 50;
      },
    });
    const env = envelope();
    q.enqueue(item(env));
    await until(() => count('delivered') === 1);
    expect(rcv.received).toHaveLength(2);
    expect(rcv.received[1]!.body.equals(rcv.received[0]!.body)).toBe(true);
    expect(rcv.received[1]!.headers['x-svc-signature']).toBe(hmac(rcv.received[0]!.body));
    expect(asked).toEqual([`run_completed ${env.event_id}`]);
    expect(q.attempts().map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('omits x-svc-environment outside the sandbox', async () => {
    const rcv = await receiver();
    queue(rcv, { sandboxHeader: false }).enqueue(item(envelope()));
    await until(() => rcv.received.length === 1);
    expect(rcv.received[0]!.headers['x-svc-environment']).toBeUndefined();
  });

  it('retries after a 500, about 1 min / timeScale later, with the same event_id', async () => {
    const rcv = await receiver();
    rcv.answer = (n) => ({ status: n === 0 ? 500 : 204 });
    const book = logged();
    const q = queue(rcv, { log: book.log });
    const env = envelope();
    q.enqueue(item(env));
    await until(() => book.count('delivered') === 1);
    expect(rcv.received.map((r) => json(r).event_id)).toEqual([env.event_id, env.event_id]);
    expect(rcv.received[1]!.at - rcv.received[0]!.at).toBeGreaterThanOrEqual(90);
    expect(rcv.received).toHaveLength(2);
    expect(q.attempts().map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 204],
    ]);
  });

  it('never follows a 3xx and counts it as a failed attempt', async () => {
    const rcv = await receiver();
    rcv.answer = (n) => (n === 0 ? { status: 302, headers: { location: '/elsewhere' } } : { status: 200 });
    const q = queue(rcv);
    q.enqueue(item(envelope()));
    await until(() => rcv.received.length === 2);
    // The receiver sees the request before the queue has read the answer and recorded the attempt.
    await until(() => q.attempts().length === 2);
    expect(rcv.received.map((r) => r.path)).toEqual(['/hook', '/hook']);
    expect(q.attempts().map((a) => a.status)).toEqual([302, 200]);
  });

  it('retries when no answer comes within the acknowledgement time-out', async () => {
    const rcv = await receiver();
    rcv.answer = (n) => ({ status: 200, delayMs: n === 0 ? 600 : 0 });
    const q = queue(rcv, { ackTimeoutMs: 150 });
    q.enqueue(item(envelope()));
    await until(() => q.attempts().length === 2);
    expect(q.attempts()[0]).toMatchObject({ status: null, error: expect.stringContaining('no answer') });
    expect(q.attempts()[1]!.status).toBe(200);
  });

  it('stops after 8 attempts in all', async () => {
    const rcv = await receiver();
    rcv.answer = () => ({ status: 503 });
    // 1+2+5+15+30+60+120 min of backoff = 233 min; at 60 000x that is about a quarter of a second.
    const book = logged();
    const q = queue(rcv, { timeScale: 60_000, log: book.log });
    q.enqueue(item(envelope()));
    await until(() => book.count('dropped after 8 attempts') === 1);
    expect(rcv.received).toHaveLength(8);
    expect(new Set(rcv.received.map((r) => json(r).event_id)).size).toBe(1);
  });

  it('sends a wrong-signature item once with a signature that does not verify, never retried', async () => {
    const rcv = await receiver();
    rcv.answer = () => ({ status: 401 });
    const book = logged();
    const q = queue(rcv, { log: book.log });
    q.enqueue(item(envelope(), { wrongSignature: true, dedupe: false }));
    await until(() => book.count('bad-signature test sent once, not retried') === 1);
    expect(rcv.received).toHaveLength(1);
    const got = rcv.received[0]!;
    expect(got.headers['x-svc-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(got.headers['x-svc-signature']).not.toBe(hmac(got.body));
  });

  it('waits while paused, without a URL or with a refused URL, and sends after wake()', async () => {
    const rcv = await receiver();
    let disabled = true;
    let url: string | undefined;
    const book = logged();
    const q = queue(rcv, {
      log: book.log,
      paused: () => disabled,
      target: () => (url ? { url, secret: SECRET } : undefined),
    });
    q.enqueue(item(envelope()));
    await until(() => book.count('waiting: no webhook configured') === 1);
    disabled = false;
    q.wake();
    await until(() => book.count('waiting: no webhook configured') === 2);
    url = 'https://10.0.0.1/hook';
    q.wake();
    await until(() => book.count('waiting: URL refused') === 1);
    expect(rcv.received).toHaveLength(0);
    expect(q.attempts()).toHaveLength(0);
    url = rcv.url;
    q.wake();
    await until(() => rcv.received.length === 1);
  });

  it('drops an event still unsent 7 days after it occurred', async () => {
    const rcv = await receiver();
    const book = logged();
    const q = queue(rcv, { timeScale: 1, log: book.log });
    q.enqueue(item(envelope({ occurred_at: new Date(Date.now() - 8 * 86_400_000).toISOString() })));
    q.enqueue(item(envelope({ occurred_at: new Date(Date.now() - 6 * 86_400_000).toISOString() })));
    await until(() => book.count('dropped: unsent 7 days after it occurred') === 1 && book.count('delivered') === 1);
    expect(rcv.received).toHaveLength(1);
  });

  it('dedupes run events per run and candidate_revealed per (run, candidate), unless told not to', async () => {
    const rcv = await receiver();
    const book = logged();
    const q = queue(rcv, { log: book.log });
    const runId = randomUUID();
    q.enqueue(item(envelope({ run_id: runId, event: 'run_completed' })));
    q.enqueue(item(envelope({ run_id: runId, event: 'run_failed' })));
    q.enqueue(item(envelope({ run_id: runId, event: 'candidate_revealed', candidate_id: 5n })));
    q.enqueue(item(envelope({ run_id: runId, event: 'candidate_revealed', candidate_id: 5n })));
    q.enqueue(item(envelope({ run_id: runId, event: 'candidate_revealed', candidate_id: 6n })));
    q.enqueue(item(envelope({ run_id: runId, event: 'run_completed' }), { dedupe: false }));
    await until(() => book.count('delivered') === 4);
    expect(book.count('already emitted')).toBe(2);
    expect(rcv.received.map((r) => `${String(json(r).event)}:${String(json(r).candidate_id ?? '')}`).sort()).toEqual([
      'candidate_revealed:5',
      'candidate_revealed:6',
      'run_completed:',
      'run_completed:',
    ]);
  });

  it('close() stops pending retries: no timer is left, and none fires once every retry was due', async () => {
    // The queue's timers run on a fake clock (the loopback I/O stays real), so "nothing more is sent"
    // is read from the timers themselves instead of hoped for after a sleep.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const rcv = await receiver();
      rcv.answer = () => ({ status: 500 });
      const book = logged();
      const q = queue(rcv, { log: book.log });
      q.enqueue(item(envelope()));
      await vi.advanceTimersByTimeAsync(0);
      await untilIo(() => book.count('attempt 1 -> 500') === 1);
      // The retry is due 1 min / 600 = 100 ms later: its timer, the only one, is pending.
      expect(vi.getTimerCount()).toBe(1);
      await q.close();
      expect(vi.getTimerCount()).toBe(0);
      // Past the whole backoff (233 min / 600).
      await vi.advanceTimersByTimeAsync(24_000);
      expect(rcv.received).toHaveLength(1);
      expect(book.count('attempt')).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('webhook faults', () => {
  async function deliveries(
    fault: string,
    opts: {
      answer?: Receiver['answer'];
      env?: Partial<WebhookEnvelope>;
      wrongSignature?: boolean;
      count?: number;
      /** Waits for the item's end, as the queue logs it ("given up", "delivered", …). */
      untilFinished?: string;
    } = {},
  ) {
    const rcv = await receiver();
    if (opts.answer) rcv.answer = opts.answer;
    const book = logged();
    const q = queue(rcv, { faults: resolveFaults([fault]), log: book.log });
    q.enqueue(item(envelope(opts.env), { wrongSignature: opts.wrongSignature ?? false }));
    await until(() => rcv.received.length >= (opts.count ?? 1));
    // The queue's own line for the item's end: nothing more can be sent after it.
    if (opts.untilFinished) await until(() => book.count(opts.untilFinished!) === 1);
    return rcv.received;
  }

  it('webhooks.signature-uppercase-hex', async () => {
    const [got] = await deliveries('webhooks.signature-uppercase-hex');
    expect(got!.headers['x-svc-signature']).toBe(`sha256=${hmac(got!.body).slice(7).toUpperCase()}`);
  });

  it('webhooks.signature-missing-prefix', async () => {
    const [got] = await deliveries('webhooks.signature-missing-prefix');
    expect(got!.headers['x-svc-signature']).toBe(hmac(got!.body).slice(7));
  });

  it('webhooks.signature-over-different-bytes', async () => {
    const [got] = await deliveries('webhooks.signature-over-different-bytes');
    expect(got!.headers['x-svc-signature']).not.toBe(hmac(got!.body));
    expect(got!.headers['x-svc-signature']).toBe(hmac(got!.body.subarray(0, -1)));
  });

  it('webhooks.bad-signature-test-valid', async () => {
    const [got] = await deliveries('webhooks.bad-signature-test-valid', {
      wrongSignature: true,
      answer: () => ({ status: 401 }),
    });
    expect(got!.headers['x-svc-signature']).toBe(hmac(got!.body));
  });

  it('webhooks.bad-signature-test-retried', async () => {
    const got = await deliveries('webhooks.bad-signature-test-retried', {
      wrongSignature: true,
      answer: () => ({ status: 401 }),
      count: 2,
    });
    expect(got.length).toBeGreaterThanOrEqual(2);
  });

  it('webhooks.new-event-id-on-retry', async () => {
    const got = await deliveries('webhooks.new-event-id-on-retry', {
      answer: (n) => ({ status: n === 0 ? 500 : 200 }),
      count: 2,
    });
    expect(json(got[0]!).event_id).not.toBe(json(got[1]!).event_id);
  });

  it('webhooks.no-retry-after-server-error', async () => {
    const got = await deliveries('webhooks.no-retry-after-server-error', {
      answer: () => ({ status: 500 }),
      untilFinished: 'given up',
    });
    expect(got).toHaveLength(1);
  });

  it('webhooks.redirect-followed', async () => {
    const got = await deliveries('webhooks.redirect-followed', {
      answer: (n) => (n === 0 ? { status: 307, headers: { location: '/elsewhere' } } : { status: 200 }),
      count: 2,
    });
    expect(got.map((r) => r.path)).toEqual(['/hook', '/elsewhere']);
  });

  it('webhooks.duplicate-candidate-revealed', async () => {
    const got = await deliveries('webhooks.duplicate-candidate-revealed', {
      env: { event: 'candidate_revealed', candidate_id: 7n },
      count: 2,
    });
    expect(got.map((r) => json(r).candidate_id)).toEqual([7, 7]);
  });

  it('webhooks.envelope-missing-organization-external-id', async () => {
    const [got] = await deliveries('webhooks.envelope-missing-organization-external-id');
    expect(json(got!)).not.toHaveProperty('organization_external_id');
    expect(json(got!)).toHaveProperty('job_external_id');
  });

  it('webhooks.occurred-at-not-utc', async () => {
    const occurred = new Date(Math.floor(Date.now() / 1000) * 1000);
    const [got] = await deliveries('webhooks.occurred-at-not-utc', { env: { occurred_at: occurred.toISOString() } });
    const sent = String(json(got!).occurred_at);
    expect(sent).toMatch(/\+02:00$/);
    expect(Date.parse(sent)).toBe(occurred.getTime());
  });

  it('webhooks.environment-header-missing', async () => {
    const [got] = await deliveries('webhooks.environment-header-missing');
    expect(got!.headers['x-svc-environment']).toBeUndefined();
    expect(got!.headers['x-svc-signature']).toBe(hmac(got!.body));
  });

  it('webhooks.content-type-not-json', async () => {
    const [got] = await deliveries('webhooks.content-type-not-json');
    expect(got!.headers['content-type']).toBe('text/plain');
  });
});
