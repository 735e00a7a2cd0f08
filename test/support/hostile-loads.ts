// Loads the hostile matrix (test/support/hostile-matrix.ts) puts on the servers the CLI runs (`serve`,
// `partner`) before it sends them a signal: each throws when the server stops answering as it must, so
// the row fails with the reason (`interruptError`).

import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';

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
