// Loads the hostile matrix (test/support/hostile-matrix.ts) puts on the servers the CLI runs (`serve`,
// `partner`) before it sends them a signal: each throws when the server stops answering as it must, so
// the row fails with the reason (`interruptError`).

import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { computeSignature } from '../../src/webhook/signature.js';

const ANSWER_TIMEOUT_MS = 5000;

/** One request (through `agent`); resolves to the status (0: no answer). */
function status(
  url: URL,
  agent: Agent,
  opts: { method?: string; body?: Buffer; headers?: Record<string, string | number> } = {},
): Promise<number> {
  return new Promise((done) => {
    const req = request(
      url,
      {
        method: opts.method ?? 'GET',
        agent,
        headers: { 'content-type': 'application/json', ...opts.headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', () => done(0));
      },
    );
    req.on('error', () => done(0));
    // A server that stopped answering fails the row in seconds, not at the test's time-out.
    req.setTimeout(ANSWER_TIMEOUT_MS, () => req.destroy());
    req.end(opts.body);
  });
}

/** `count` sockets held open on `port` (into `held`), half with a request header never finished (slowloris), half idle. */
export async function holdConnections(port: number, count: number, held: Socket[]): Promise<void> {
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<Socket>((done) => {
          const s = connect(port, '127.0.0.1', () => done(s));
          s.on('error', () => done(s));
          if (i % 2 === 0) s.write('GET /v1/sandbox/fixtures HTTP/1.1\r\nHost: x\r\nX-Slow: ');
        }),
    ),
  );
  held.push(...sockets);
  // A body over the sandbox's 1 MiB limit, answered meanwhile.
  const agent = new Agent({ keepAlive: false });
  const big = await status(new URL(`http://127.0.0.1:${port}/v1/users`), agent, {
    method: 'POST',
    body: Buffer.alloc(2 * 1024 * 1024, 0x20),
  });
  if (big !== 413) throw new Error(`serve answered ${big} to a 2 MiB body, not 413`);
}

/** Bytes of a request header the slowloris client drips, one every DRIP_MS. */
const DRIP_MS = 20;
/** Requests from others served while the header drips; each must be answered. */
const OTHERS = 20;

/**
 * A slowloris client on `port` sending a request header one byte at a time (it goes on dripping, in
 * `held`, until cleanup), while OTHERS ordinary requests must all be answered by the server.
 */
export async function slowlorisWhileServing(port: number, held: Socket[], stop: Array<() => void>): Promise<void> {
  const header = `GET /v1/sandbox/fixtures HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(10_000)}`;
  const s = connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  held.push(s);
  let at = 0;
  const drip = setInterval(() => {
    if (!s.destroyed && at < header.length) s.write(header[at++]!);
  }, DRIP_MS);
  stop.push(() => clearInterval(drip));
  await new Promise((r) => setTimeout(r, 500));
  const agent = new Agent({ keepAlive: false });
  const url = new URL(`http://127.0.0.1:${port}/v1/sandbox/fixtures`);
  const answered: number[] = [];
  for (let i = 0; i < OTHERS; i++) answered.push(await status(url, agent));
  const unanswered = answered.filter((c) => c === 0).length;
  if (unanswered > 0) throw new Error(`serve left ${unanswered}/${OTHERS} requests unanswered under slowloris`);
  if (s.destroyed || at < 20) throw new Error(`the slowloris client was not dripping (${at} bytes sent)`);
}

export const FLOOD_REQUESTS = 3_000;
const FLOOD_BODY_BYTES = 250 * 1024;
const FLOOD_CONCURRENCY = 20;

/**
 * FLOOD_REQUESTS × 250 KB `POST /v1/jobs` with no valid key, FLOOD_CONCURRENCY at a time, at the
 * sandbox the `partner` session in `dir` provisioned (p.json): every one must get 401.
 */
export async function floodPartner(dir: string): Promise<void> {
  const provision = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8')) as { base_url: string };
  const url = new URL(`${provision.base_url.replace(/\/$/, '')}/jobs`);
  // A JSON body of many small fields: its parsed form is several times its text.
  const items = Array.from({ length: Math.ceil(FLOOD_BODY_BYTES / 40) }, (_, i) => ({ k: `v${i}`, n: i }));
  const filler = JSON.stringify({ items }).slice(0, FLOOD_BODY_BYTES - 40);
  const head = filler.slice(0, filler.lastIndexOf('},') + 1);
  const bodyOf = (i: number): Buffer => Buffer.from(`${head}],"external_id":"flood-${String(i).padStart(6, '0')}"}`);
  const agent = new Agent({ keepAlive: true, maxSockets: FLOOD_CONCURRENCY });
  const statuses = new Map<number, number>();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: FLOOD_CONCURRENCY }, async () => {
        while (next < FLOOD_REQUESTS) {
          const body = bodyOf(next++);
          const code = await status(url, agent, {
            method: 'POST',
            body,
            headers: {
              'content-length': body.length,
              'x-partner-key': 'spk_live_notavalidkey00000000',
              'x-svc-org': 'sot_notavalidtoken0000000000',
            },
          });
          statuses.set(code, (statuses.get(code) ?? 0) + 1);
          if (code === 0) return;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seen = JSON.stringify([...statuses.entries()]);
  if (seen !== JSON.stringify([[401, FLOOD_REQUESTS]])) throw new Error(`flood statuses [status, count]: ${seen}`);
}

const CRLF = '\r\n';

/**
 * One request written raw to `port` (what node's client refuses to send), with `bodyBytes` of `fill`
 * streamed after `head` (chunk-framed when `chunked`) until the server answers or closes; resolves to
 * the answer's status and body text (status 0: no answer).
 */
function rawExchange(
  port: number,
  head: string,
  body: { bytes: number; fill: string; chunked?: boolean } = { bytes: 0, fill: '' },
): Promise<{ status: number; body: string }> {
  return new Promise((done) => {
    const s = connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    let answered = false;
    const finish = (): void => {
      const text = got.toString('latin1');
      const end = text.indexOf(CRLF + CRLF);
      answered = end >= 0;
      done({
        status: answered ? Number(text.split(' ')[1]) : 0,
        body: answered ? got.subarray(end + 4).toString('utf8') : '',
      });
      s.destroy();
    };
    s.setTimeout(ANSWER_TIMEOUT_MS, finish);
    s.on('error', () => undefined);
    s.on('close', finish);
    s.on('data', (d: Buffer) => {
      got = Buffer.concat([got, d]);
      const text = got.toString('latin1');
      const end = text.indexOf(CRLF + CRLF);
      const length = /content-length: (\d+)/i.exec(text.slice(0, end));
      if (end >= 0 && length && got.length >= end + 4 + Number(length[1])) finish();
    });
    s.write(head);
    const block = Buffer.alloc(64 * 1024, body.fill);
    const frame = body.chunked
      ? Buffer.concat([Buffer.from(`${block.length.toString(16)}${CRLF}`), block, Buffer.from(CRLF)])
      : block;
    let sent = 0;
    const pump = (): void => {
      while (sent < body.bytes && !s.destroyed && !answered) {
        sent += block.length;
        if (!s.write(frame)) return void s.once('drain', pump);
      }
    };
    pump();
  });
}

/** The sandbox cases: each must be answered with `status` and the spec's JSON envelope `error`. */
const REFUSED: Array<{
  what: string;
  head: string;
  body?: Parameters<typeof rawExchange>[2];
  status: number;
  error: string;
}> = [
  {
    what: '50 MB of x with its Content-Length',
    head: `POST /v1/users HTTP/1.1${CRLF}host: x${CRLF}content-type: application/json${CRLF}content-length: ${50_000_000}${CRLF}${CRLF}`,
    body: { bytes: 50_000_000, fill: 'x' },
    status: 413,
    error: 'payload_too_large',
  },
  {
    what: '50 MB of spaces, chunked',
    head: `POST /v1/users HTTP/1.1${CRLF}host: x${CRLF}content-type: application/json${CRLF}transfer-encoding: chunked${CRLF}${CRLF}`,
    body: { bytes: 50_000_000, fill: ' ', chunked: true },
    status: 413,
    error: 'payload_too_large',
  },
  { what: 'a garbage request line', head: `GARBAGE${CRLF}${CRLF}`, status: 400, error: 'invalid_request' },
  {
    what: 'a duplicate Content-Length',
    head: `POST /v1/users HTTP/1.1${CRLF}host: x${CRLF}content-length: 2${CRLF}content-length: 3${CRLF}${CRLF}{}`,
    status: 400,
    error: 'invalid_request',
  },
  {
    what: 'a 100 KB header',
    head: `GET /v1/runs/x HTTP/1.1${CRLF}host: x${CRLF}x-padding: ${'a'.repeat(100 * 1024)}${CRLF}${CRLF}`,
    status: 431,
    error: 'headers_too_large',
  },
];

/** Sends `serve` on `port` every REFUSED request, one after the other; throws naming each answered otherwise. */
export async function refusedInEnvelope(port: number): Promise<void> {
  const wrong: string[] = [];
  for (const c of REFUSED) {
    const r = await rawExchange(port, c.head, c.body);
    const error = (() => {
      try {
        return (JSON.parse(r.body) as { error?: unknown }).error;
      } catch {
        return undefined;
      }
    })();
    if (r.status !== c.status || error !== c.error)
      wrong.push(`${c.what}: ${r.status} ${JSON.stringify(r.body.slice(0, 80))}, not ${c.status} ${c.error}`);
  }
  if (wrong.length > 0) throw new Error(wrong.join('; '));
}

/** A flood under way: stop() ends it; answered() counts the answers by status so far. */
export interface Flood {
  stop(): void;
  answered(): Map<number, number>;
  /** Answers (status ≠ 0) in the last `ms`. */
  answeredWithin(ms: number): number;
}

/**
 * `GET /v1/runs/{distinct id}` with the provisioned partner key of the session in `dir` (p.json),
 * `concurrency` at a time, until stopped: past the rate limit nearly all are answered 429. With
 * `headerBytes`, each request also carries an `x-padding` header of that size, distinct per request;
 * with `padding`, that header is what it makes of the partner key, the same in every request.
 */
export function startReadFlood(
  dir: string,
  opts: { concurrency?: number; headerBytes?: number; padding?: (partnerKey: string) => string } = {},
): Flood {
  const provision = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8')) as { base_url: string; partner_key: string };
  const base = provision.base_url.replace(/\/$/, '');
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 20 });
  const counts = new Map<number, number>();
  const recent: number[] = [];
  let stopped = false;
  let next = 0;
  const padding = opts.padding
    ? opts.padding(provision.partner_key)
    : opts.headerBytes
      ? 'p'.repeat(opts.headerBytes)
      : undefined;
  const worker = async (): Promise<void> => {
    while (!stopped) {
      const i = next++;
      const headers: Record<string, string> = { 'x-partner-key': provision.partner_key };
      if (padding) headers['x-padding'] = opts.padding ? padding : `${i}-${padding}`;
      const code = await status(new URL(`${base}/runs/flood-${i}`), agent, { headers });
      counts.set(code, (counts.get(code) ?? 0) + 1);
      if (code !== 0) {
        recent.push(Date.now());
        if (recent.length > 100_000) recent.splice(0, 50_000);
      } else await new Promise((r) => setTimeout(r, 20));
    }
  };
  for (let w = 0; w < (opts.concurrency ?? 20); w++) void worker();
  return {
    stop() {
      stopped = true;
      agent.destroy();
    },
    answered: () => new Map(counts),
    answeredWithin(ms) {
      const since = Date.now() - ms;
      let n = 0;
      for (let i = recent.length - 1; i >= 0 && recent[i]! >= since; i--) n++;
      return n;
    },
  };
}

/**
 * Floods a partner session for `ms`, then checks that it still answers (some answer in the last second)
 * and that nearly everything was answered 429; the flood goes on (the signal must cut through it) until
 * `flood.stop()`.
 */
export async function floodFor(flood: Flood, ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
  const counts = flood.answered();
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (flood.answeredWithin(1000) === 0)
    throw new Error(`the session stopped answering under the flood: ${JSON.stringify([...counts.entries()])}`);
  if ((counts.get(429) ?? 0) < total / 2)
    throw new Error(`the flood was not mostly answered 429: ${JSON.stringify([...counts.entries()])}`);
}

/**
 * Unsigned posts of `bytes` each to `url`, `concurrency` at a time, `total` of them or until stopped
 * (whoever knows the URL of `run`'s webhook receiver can send them); counts the answers by status.
 */
export function startUnsignedPosts(
  url: string,
  opts: { bytes: number; concurrency?: number; total?: number; secret?: string },
): Flood {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 4 });
  // Signed (with `secret`): an event no check waits for, which the receiver must keep bounded all the same.
  const body = Buffer.from(
    `{"event":"${opts.secret ? 'flood_test' : 'run_completed'}","pad":"${'x'.repeat(Math.max(0, opts.bytes - 40))}"}`,
  );
  const signature: Record<string, string> = opts.secret
    ? { 'x-svc-signature': computeSignature(opts.secret, body) }
    : {};
  const counts = new Map<number, number>();
  let stopped = false;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (!stopped && sent++ < (opts.total ?? Infinity)) {
      const code = await status(new URL(url), agent, {
        method: 'POST',
        body,
        headers: { 'content-length': body.length, ...signature },
      });
      counts.set(code, (counts.get(code) ?? 0) + 1);
      if (code === 0) await new Promise((r) => setTimeout(r, 50));
    }
  };
  for (let w = 0; w < (opts.concurrency ?? 4); w++) void worker();
  return {
    stop() {
      stopped = true;
      agent.destroy();
    },
    answered: () => new Map(counts),
    answeredWithin: () => 0,
  };
}

/** Floods until `count` answers came (at most `maxMs`), then checks as floodFor does; the flood goes on. */
export async function floodUntil(flood: Flood, count: number, maxMs: number): Promise<void> {
  const began = Date.now();
  const total = (): number => [...flood.answered().values()].reduce((a, b) => a + b, 0);
  while (total() < count) {
    if (Date.now() - began > maxMs) throw new Error(`only ${total()} of ${count} answers in ${maxMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await floodFor(flood, 0);
}
