import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { selfSignedCertificate } from '../../test/support/self-signed.js';
import {
  MAX_KEPT_DELIVERIES,
  REFUSED_HEAD_BYTES,
  SIGNED_HEAD_BYTES,
  startWebhookReceiver,
  type ReceiverOptions,
  type WebhookReceiver,
} from './receiver.js';
import { computeSignature } from './signature.js';
import { parseListenAddress } from './listen-address.js';

const SECRET = 'whsec_receiver_test_secret';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(
  url: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
  opts: { method?: string; chunked?: boolean } = {},
): Promise<Reply> {
  const target = new URL(url);
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: opts.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          ...(opts.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(bytes.length) }),
          ...headers,
        },
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    // The receiver may answer 413 before the upload ends; the answer is what counts.
    req.on('error', reject);
    if (!opts.chunked) return void req.end(bytes);
    // Several chunks with no declared length: the limit must hold on the stream itself.
    for (let i = 0; i < bytes.length; i += 512) req.write(bytes.subarray(i, i + 512));
    req.end();
  });
}

function signed(body: Buffer | string): Record<string, string> {
  return { 'x-svc-signature': computeSignature(SECRET, Buffer.isBuffer(body) ? body : Buffer.from(body)) };
}

const open: WebhookReceiver[] = [];
async function start(opts: Partial<ReceiverOptions> = {}): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver({ secret: SECRET, ...opts });
  open.push(r);
  return r;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((r) => r.close()));
});

/** The receiver's clock and timers made fake from here to the end of the test; sockets stay real. */
function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

const EVENT = (event: string, extra = '') =>
  `{"event_id":"evt_${event}","event":"${event}","run_id":"3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b"${extra}}`;

describe('listen address', () => {
  test('parses host:port forms', () => {
    expect(parseListenAddress()).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseListenAddress('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseListenAddress('0.0.0.0:9000')).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(parseListenAddress('9000')).toEqual({ host: '127.0.0.1', port: 9000 });
    expect(() => parseListenAddress('localhost')).toThrow(/HOST:PORT/);
    expect(() => parseListenAddress('h:70000')).toThrow(/65535/);
  });
});

describe('webhook receiver', () => {
  test('a validly signed delivery is answered 2xx and kept byte for byte', async () => {
    const r = await start();
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/[0-9a-f]{12}$/);
    // Odd spacing, non-ASCII and an int64 id: a receiver that re-serialized would change the bytes.
    const raw = Buffer.from(`{ "event":"candidate_revealed" ,"candidate_id":9223372036854775807,"name":"מועמד"}\n`);
    const reply = await send(r.url, raw, { ...signed(raw), 'x-svc-environment': 'sandbox' });
    expect(reply.status).toBeGreaterThanOrEqual(200);
    expect(reply.status).toBeLessThan(300);
    const [d] = r.deliveries();
    expect(d?.body.equals(raw)).toBe(true);
    expect(d?.signature).toEqual({ header: computeSignature(SECRET, raw), valid: true });
    expect(d?.headers['x-svc-environment']).toBe('sandbox');
    expect(d).toMatchObject({ seq: 1, method: 'POST', path: new URL(r.url).pathname, answeredStatus: reply.status });
    expect((d?.json as { candidate_id: unknown }).candidate_id).toBe(9223372036854775807n);
  });

  test('any path is accepted', async () => {
    const r = await start();
    const body = EVENT('run_failed');
    const reply = await send(new URL('/elsewhere?x=1', r.url).href, body, signed(body));
    expect(reply.status).toBe(200);
    expect(r.deliveries()[0]?.path).toBe('/elsewhere?x=1');
  });

  test('a bad or missing signature is answered 401 and kept as refused', async () => {
    const r = await start();
    const body = EVENT('run_completed');
    const wrong = await send(r.url, body, { 'x-svc-signature': computeSignature('wrong-secret', Buffer.from(body)) });
    const missing = await send(r.url, body);
    expect([wrong.status, missing.status]).toEqual([401, 401]);
    const [a, b] = r.deliveries();
    expect(a?.signature.valid).toBe(false);
    expect(a?.signature.reason).toMatch(/does not match/);
    expect(a?.answeredStatus).toBe(401);
    expect(b?.signature).toMatchObject({ header: undefined, valid: false });
  });

  test('a planned 500 answers one matching delivery, the next one gets 2xx', async () => {
    const r = await start();
    r.planResponse((d) => (d.json as { event?: string } | undefined)?.event === 'run_completed', { status: 500 });
    const other = EVENT('run_failed');
    const body = EVENT('run_completed');
    expect((await send(r.url, other, signed(other))).status).toBe(200);
    expect((await send(r.url, body, signed(body))).status).toBe(500);
    expect((await send(r.url, body, signed(body))).status).toBe(200);
    expect(r.deliveries().map((d) => d.answeredStatus)).toEqual([200, 500, 200]);
    expect(r.deliveries()[1]?.plan).toEqual({ status: 500 });
  });

  test('plans never apply to a bad signature', async () => {
    const r = await start();
    r.planResponse(() => true, { status: 500 });
    const body = EVENT('run_completed');
    expect((await send(r.url, body, { 'x-svc-signature': `sha256=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await send(r.url, body, signed(body))).status).toBe(500);
  });

  test('a planned 302 points back at the receiver, and a follower is detected', async () => {
    const r = await start();
    r.planResponse(() => true, { status: 302 });
    const body = EVENT('run_completed');
    const reply = await send(r.url, body, signed(body));
    expect(reply.status).toBe(302);
    const location = reply.headers.location ?? '';
    expect(location.startsWith(`${r.url}/`)).toBe(true);
    const followed = await send(location, body, signed(body));
    expect(followed.status).toBe(200);
    const [first, second] = r.deliveries();
    expect(first?.answeredStatus).toBe(302);
    expect(second?.followedRedirectOf).toBe(first?.seq);
  });

  test('a planned 3xx points through the public URL when one is given', async () => {
    const r = await start({ publicUrl: 'https://tunnel.example.test/partner/hooks/' });
    r.planResponse(() => true, { status: 307 });
    const body = EVENT('run_failed');
    const reply = await send(r.url, body, signed(body));
    const location = new URL(reply.headers.location ?? '');
    expect(location.origin + location.pathname.replace(/\/[^/]+\/\d+$/, '')).toBe(
      'https://tunnel.example.test/partner/hooks/svc-certify-redirect',
    );
    // The tunnel forwards the path as is: the follow-up is recognised whatever prefix it carries.
    const followed = await send(new URL(location.pathname, r.url).href, body, signed(body));
    expect(followed.status).toBe(200);
    expect(r.deliveries()[1]?.followedRedirectOf).toBe(1);
  });

  test('a planned 3xx keeps a Location given by the plan', async () => {
    const r = await start();
    r.planResponse(() => true, { status: 308, headers: { Location: 'https://example.invalid/x' } });
    const body = EVENT('run_failed');
    const reply = await send(r.url, body, signed(body));
    expect([reply.status, reply.headers.location]).toEqual([308, 'https://example.invalid/x']);
  });

  test('a slow reply is delayed, and the delivery is visible before the answer', async () => {
    const r = await start();
    r.planResponse(() => true, { status: 200, delayMs: 400 });
    // The receiver's timers on a fake clock, the delivery over a real socket: "not before the delay" is
    // a fact of the clock the receiver waits on.
    useFakeClock();
    const body = EVENT('run_completed');
    let answered = false;
    const pending = send(r.url, body, signed(body)).finally(() => (answered = true));
    const seen = await r.waitFor(() => true, 5_000);
    expect(seen?.answeredAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(399);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const reply = await pending;
    expect(reply.status).toBe(200);
    expect(r.deliveries()[0]?.answeredAt).toBeTypeOf('number');
  });

  test('a held plan applies to a delivery that came before the plan could match it; disarmed, it holds nothing', async () => {
    const r = await start();
    // The trigger's answer (naming the run) arrives after the delivery did: the plan is asked first as the
    // delivery arrives (no match), and matches when asked again while the delivery is held.
    let asked = 0;
    // Held for up to 10 minutes, far past the test's time-out: a delivery held by a plan that should no
    // longer act fails the test by hanging, without a bound on the clock.
    const disarm = r.planResponse(() => ++asked > 1, { status: 500, holdMs: 600_000 });
    const body = EVENT('run_completed');
    const pending = send(r.url, body, signed(body));
    expect((await pending).status).toBe(500);
    expect(asked).toBe(2);
    disarm();
    const other = EVENT('run_failed');
    expect((await send(r.url, other, signed(other))).status).toBe(200);
    // An armed plan that never matches holds a delivery for its holdMs, then lets it through (on a fake
    // clock: held is then a fact of the receiver's clock).
    useFakeClock();
    // The plan is asked about each delivery as it arrives: that is the arrival, whatever the load.
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    r.planResponse(() => (arrived(), false), { status: 500, holdMs: 300 });
    let answered = false;
    const late = send(r.url, other, signed(other)).finally(() => (answered = true));
    await arrival;
    await vi.advanceTimersByTimeAsync(299);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect((await late).status).toBe(200);
  });

  test('deliveries held at the same time are numbered in the order they arrived, each once', async () => {
    const r = await start();
    r.planResponse(() => false, { status: 500, holdMs: 300 });
    const bodies = ['run_completed', 'run_failed', 'candidate_revealed'].map((e) => EVENT(e));
    await Promise.all(bodies.map((b) => send(r.url, b, signed(b))));
    expect(
      r
        .deliveries()
        .map((d) => d.seq)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  test('an oversized body is answered 413, declared or streamed', async () => {
    const r = await start({ maxBodyBytes: 1024 });
    const big = Buffer.alloc(5000, 0x20);
    expect((await send(r.url, big, signed(big))).status).toBe(413);
    expect((await send(r.url, big, signed(big), { chunked: true })).status).toBe(413);
    const [declared, streamed] = r.deliveries();
    expect(declared).toMatchObject({ answeredStatus: 413, bodyTruncated: true });
    expect(declared?.signature.valid).toBe(false);
    expect(streamed?.body.length).toBe(1024);
    const small = EVENT('run_failed');
    expect((await send(r.url, small, signed(small))).status).toBe(200);
  });

  test('waitFor: past, future, time-out and abort', async () => {
    const r = await start();
    const body = EVENT('run_completed');
    await send(r.url, body, signed(body));
    expect((await r.waitFor((d) => d.signature.valid, 1_000))?.seq).toBe(1);

    const future = r.waitFor((d) => (d.json as { event?: string } | undefined)?.event === 'run_failed', 5_000);
    const failed = EVENT('run_failed');
    await send(r.url, failed, signed(failed));
    expect((await future)?.seq).toBe(2);

    useFakeClock();
    let waited = false;
    const nothing = r.waitFor(() => false, 150).then((d) => ((waited = true), d));
    await vi.advanceTimersByTimeAsync(149);
    expect(waited).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await nothing).toBeUndefined();

    const controller = new AbortController();
    const aborted = r.waitFor(() => false, 60_000, controller.signal);
    controller.abort();
    expect(await aborted).toBeUndefined();
  });

  test('close ends pending waits and open sockets', async () => {
    const r = await startWebhookReceiver({ secret: SECRET });
    // The reply and the wait are 10 minutes away, far past the test's time-out: both settle in time only
    // because close ended them (a close that left them fails the test by hanging, no clock bound needed).
    r.planResponse(() => true, { status: 200, delayMs: 600_000 });
    const body = EVENT('run_completed');
    const pending = send(r.url, body, signed(body)).catch((e: Error) => e);
    const waiting = r.waitFor(() => false, 600_000);
    await r.waitFor(() => true, 5_000);
    await r.close();
    expect(await waiting).toBeUndefined();
    expect(await pending).toBeInstanceOf(Error);
  });

  test('serves TLS with a given certificate', async () => {
    const r = await start({ tls: selfSignedCertificate() });
    expect(r.url.startsWith('https://127.0.0.1:')).toBe(true);
    const body = EVENT('run_completed');
    expect((await send(r.url, body, signed(body))).status).toBe(200);
    expect(r.deliveries()[0]?.signature.valid).toBe(true);
  });
});

describe('bounded against whoever knows the URL', () => {
  test('a refused 1 MiB body keeps its head only, unparsed; a signed delivery meanwhile is judged as ever', async () => {
    const rx = await start();
    const junk = Buffer.from(`{"event":"run_completed","pad":"${'x'.repeat(1024 * 1024 - 40)}"}`);
    const refused = await Promise.all(Array.from({ length: 8 }, () => send(rx.url, junk)));
    expect(refused.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 401));
    const body = '{"event":"run_completed","event_id":"e-1"}';
    expect((await send(rx.url, body, signed(body))).status).toBe(200);
    const all = rx.deliveries();
    const unsigned = all.filter((d) => d.answeredStatus === 401);
    expect(unsigned).toHaveLength(8);
    for (const d of unsigned) {
      expect(d.body.length).toBe(REFUSED_HEAD_BYTES);
      expect(d.bodyTruncated).toBe(true);
      expect(d.json).toBeUndefined();
    }
    const valid = all.find((d) => d.signature.valid);
    expect(valid?.json).toEqual({ event: 'run_completed', event_id: 'e-1' });
    expect(valid?.body.toString()).toBe(body);
  });

  test(`a signed delivery over ${SIGNED_HEAD_BYTES} bytes keeps its head, size and hash, verified over every byte, not parsed`, async () => {
    const rx = await start();
    const big = Buffer.from(`{"event":"run_completed","event_id":"e-big","pad":"${'y'.repeat(300 * 1024)}"}`);
    expect((await send(rx.url, big, signed(big))).status).toBe(200);
    const small = '{"event":"run_failed","event_id":"e-small"}';
    expect((await send(rx.url, small, signed(small))).status).toBe(200);
    const [d, s] = rx.deliveries();
    expect(d?.signature.valid).toBe(true);
    expect(d?.body.length).toBe(SIGNED_HEAD_BYTES);
    expect(d?.body.equals(big.subarray(0, SIGNED_HEAD_BYTES))).toBe(true);
    expect(d?.bodyTruncated).toBe(true);
    expect(d?.bodyBytes).toBe(big.length);
    expect(d?.bodySha256).toBe(createHash('sha256').update(big).digest('hex'));
    expect(d?.json).toBeUndefined();
    // A delivery of a real size is kept byte for byte and read, with nothing added.
    expect(s?.body.toString()).toBe(small);
    expect(s?.json).toEqual({ event: 'run_failed', event_id: 'e-small' });
    expect(s?.bodyTruncated).toBeUndefined();
    expect(s?.bodyBytes).toBeUndefined();
  });

  test(`keeps at most ${MAX_KEPT_DELIVERIES} deliveries, the refused ones forgotten first`, async () => {
    const rx = await start();
    const body = '{"event":"run_completed","event_id":"kept"}';
    expect((await send(rx.url, body, signed(body))).status).toBe(200);
    for (let i = 0; i < MAX_KEPT_DELIVERIES + 20; i += 20)
      await Promise.all(Array.from({ length: 20 }, () => send(rx.url, '{"no":"signature"}')));
    const all = rx.deliveries();
    expect(all).toHaveLength(MAX_KEPT_DELIVERIES);
    expect(all[0]?.signature.valid).toBe(true);
    expect(all[0]?.json).toEqual({ event: 'run_completed', event_id: 'kept' });
  }, 60_000);
});
