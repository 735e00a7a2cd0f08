// What reaches the socket adapter before the app can answer it (bodies over the limit, requests node's
// parser refuses) must still be answered in the spec's JSON envelope. Raw sockets, since fetch would
// refuse to send most of these requests.
import { connect as netConnect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from './app.js';
import { startSandbox, type ObservedExchange, type RunningSandbox, type SandboxOptions } from './index.js';
import { parseJson } from './json.js';

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const s = await startSandbox(opts);
  running.push(s);
  return s;
}

const MB = 1000 * 1000;
const CRLF = '\r\n';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A client on a raw socket: writes what it is given, reads responses as they come. */
class RawClient {
  readonly socket: Socket;
  /** Body bytes handed to the socket so far. */
  sent = 0;
  /** Resolves when the connection is gone (closed or reset by the server). */
  readonly closed: Promise<void>;
  private received = Buffer.alloc(0);
  private wake: () => void = () => {};

  constructor(port: number) {
    this.socket = netConnect(port, '127.0.0.1');
    // A server that stops reading resets the connection under a writing client: expected here.
    this.socket.on('error', () => {});
    this.socket.on('data', (d: Buffer) => {
      this.received = Buffer.concat([this.received, d]);
      this.wake();
    });
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
    void this.closed.then(() => this.wake());
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Writes chunks as fast as the socket takes them, until they end or the connection is gone. */
  async pump(chunks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<void> {
    for await (const chunk of chunks) {
      if (this.socket.destroyed || this.socket.writableEnded) return;
      const more = this.socket.write(chunk);
      this.sent += chunk.length;
      if (!more) await this.drainedOrClosed();
    }
  }

  /** The next complete response (framed by Content-Length), or a rejection if the connection ends first. */
  async next(): Promise<RawResponse> {
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.socket.destroyed)
        throw new Error(
          `connection closed before a complete response; received: ${JSON.stringify(this.received.toString('latin1').slice(0, 200))}`,
        );
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private take(): RawResponse | undefined {
    const end = this.received.indexOf(CRLF + CRLF);
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = this.received.subarray(0, end).toString('latin1').split(CRLF);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? NaN);
    if (!Number.isInteger(length)) throw new Error(`response without Content-Length: ${statusLine}`);
    const start = end + 4;
    if (this.received.length < start + length) return undefined;
    const body = this.received.subarray(start, start + length).toString('utf8');
    this.received = this.received.subarray(start + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  private drainedOrClosed(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }
}

function portOf(s: RunningSandbox): number {
  return Number(new URL(s.baseUrl).port);
}

/** `total` bytes of `byte`, one reused 64 KiB buffer at a time: the body is never held whole. */
function* filler(total: number, byte: string): Generator<Buffer> {
  const block = Buffer.alloc(64 * 1024, byte);
  for (let left = total; left > 0; left -= block.length) yield left >= block.length ? block : block.subarray(0, left);
}

function chunkFrame(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(data.length.toString(16) + CRLF), data, Buffer.from(CRLF)]);
}

function head(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1${CRLF}host: 127.0.0.1${CRLF}${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}${CRLF}`)
    .join('')}${CRLF}`;
}

/** The spec's error envelope, as every non-2xx answer of the sandbox must carry it. */
function expectEnvelope(
  r: RawResponse,
  status: number,
  error: string,
  mode: 'sandbox' | 'production' = 'sandbox',
): void {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(r.headers['x-svc-environment']).toBe(mode === 'sandbox' ? 'sandbox' : undefined);
  const json = parseJson(r.body) as Record<string, unknown>;
  expect(json.error).toBe(error);
  expect(json.message).toBeTypeOf('string');
  expect(json.message).not.toBe('');
}

async function connectOrg(s: RunningSandbox): Promise<Record<string, string>> {
  const p = s.provision();
  const key = { 'x-partner-key': p.partner_key, 'content-type': 'application/json' };
  const redeemed = await fetch(`${p.base_url}/activations/redeem`, {
    method: 'POST',
    headers: key,
    body: JSON.stringify({ code: p.activation_codes[0], external_id: 'acme' }),
  });
  const { org_token } = (await redeemed.json()) as { org_token: string };
  return { ...key, 'x-svc-org': org_token };
}

describe('bodies over the limit: 413 however they are sent', () => {
  it('50 MB with Content-Length: 413 at once, no more than the limit kept, the connection closed under the writer', async () => {
    const exchanges: ObservedExchange[] = [];
    const s = await sandbox({ hooks: { observe: (o) => void (o.kind === 'exchange' && exchanges.push(o)) } });
    const auth = await connectOrg(s);
    exchanges.length = 0;
    const client = new RawClient(portOf(s));
    const total = 50 * MB;
    client.write(head('POST', '/v1/users', { ...auth, 'content-length': total }));
    const pumping = client.pump(filler(total, 'x'));
    expectEnvelope(await client.next(), 413, 'payload_too_large');
    await client.closed;
    await pumping;
    expect(client.sent).toBeLessThan(total);
    expect(exchanges.map((e) => [e.status, e.request.body?.length])).toEqual([[413, MAX_BODY_BYTES + 1]]);
  });

  it('valid JSON followed by 50 MB of spaces: 413, and the user is not stored', async () => {
    const s = await sandbox();
    const auth = await connectOrg(s);
    const user = Buffer.from(
      JSON.stringify({ external_id: 'padded', email: 'p@example.com', full_name: 'P', role: 'recruiter' }),
    );
    const total = user.length + 50 * MB;
    const client = new RawClient(portOf(s));
    client.write(head('POST', '/v1/users', { ...auth, 'content-length': total }));
    const pumping = client.pump(
      (function* () {
        yield user;
        yield* filler(50 * MB, ' ');
      })(),
    );
    expectEnvelope(await client.next(), 413, 'payload_too_large');
    await client.closed;
    await pumping;
    const again = await fetch(`${s.baseUrl}/users`, { method: 'POST', headers: auth, body: user });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: true });
  });

  it('chunked, streamed slowly and never finished: 413 once past the limit, then the connection is closed', async () => {
    const s = await sandbox();
    const auth = await connectOrg(s);
    const client = new RawClient(portOf(s));
    client.write(head('POST', '/v1/users', { ...auth, 'transfer-encoding': 'chunked' }));
    const piece = chunkFrame(Buffer.alloc(64 * 1024, 'x'));
    const pumping = client.pump(
      (async function* () {
        for (;;) {
          yield piece;
          await delay(10);
        }
      })(),
    );
    const answer = await client.next();
    expectEnvelope(answer, 413, 'payload_too_large');
    // Answered near the limit, not at some later cap.
    expect(client.sent).toBeLessThan(4 * MAX_BODY_BYTES);
    await client.closed;
    await pumping;
  });

  it('chunked 50 MB sent fast: 413, the connection closed before the upload ends', async () => {
    const s = await sandbox();
    const auth = await connectOrg(s);
    const client = new RawClient(portOf(s));
    client.write(head('POST', '/v1/users', { ...auth, 'transfer-encoding': 'chunked' }));
    const total = 50 * MB;
    const pumping = client.pump(
      (function* () {
        for (const block of filler(total, '[')) yield chunkFrame(block);
        yield Buffer.from('0' + CRLF + CRLF);
      })(),
    );
    expectEnvelope(await client.next(), 413, 'payload_too_large');
    await client.closed;
    await pumping;
    expect(client.sent).toBeLessThan(total);
  });

  it('a client that finishes a body slightly over the limit keeps its connection for the next request', async () => {
    const s = await sandbox();
    const client = new RawClient(portOf(s));
    client.write(
      head('POST', '/v1/users', { 'content-type': 'application/json', 'content-length': MAX_BODY_BYTES + 1000 }),
    );
    await client.pump(filler(MAX_BODY_BYTES + 1000, 'x'));
    expectEnvelope(await client.next(), 413, 'payload_too_large');
    client.write(head('GET', '/v1/nope', {}));
    expectEnvelope(await client.next(), 404, 'not_found');
    client.socket.destroy();
  });
});

describe('requests node refuses to parse: the JSON envelope, then the connection closed', () => {
  const cases: Array<[string, string, number, string]> = [
    ['a garbage request line', `GARBAGE${CRLF}${CRLF}`, 400, 'invalid_request'],
    [
      'a duplicate Content-Length',
      `POST /v1/users HTTP/1.1${CRLF}host: 127.0.0.1${CRLF}content-length: 2${CRLF}content-length: 3${CRLF}${CRLF}{}`,
      400,
      'invalid_request',
    ],
    ['a 100 KB header', head('GET', '/v1/runs/x', { 'x-padding': 'a'.repeat(100 * 1024) }), 431, 'headers_too_large'],
    [
      'a malformed chunk size',
      `POST /v1/users HTTP/1.1${CRLF}host: 127.0.0.1${CRLF}transfer-encoding: chunked${CRLF}${CRLF}zz${CRLF}`,
      400,
      'invalid_request',
    ],
  ];
  for (const [name, request, status, error] of cases) {
    it(`${name}: ${status} ${error}`, async () => {
      const s = await sandbox();
      const client = new RawClient(portOf(s));
      client.write(request);
      expectEnvelope(await client.next(), status, error);
      await client.closed;
    });
  }

  it('after a complete exchange on the same connection, a garbage request still gets the envelope', async () => {
    const s = await sandbox();
    const client = new RawClient(portOf(s));
    client.write(head('GET', '/v1/nope', {}));
    expectEnvelope(await client.next(), 404, 'not_found');
    client.write(`GARBAGE${CRLF}${CRLF}`);
    expectEnvelope(await client.next(), 400, 'invalid_request');
    await client.closed;
  });

  it('production mode: the envelope without x-svc-environment', async () => {
    const s = await sandbox({ mode: 'production' });
    const client = new RawClient(portOf(s));
    client.write(`GARBAGE${CRLF}${CRLF}`);
    expectEnvelope(await client.next(), 400, 'invalid_request', 'production');
    await client.closed;
  });
});
