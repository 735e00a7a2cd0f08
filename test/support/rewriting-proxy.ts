// A proxy in front of the embedded sandbox that rewrites chosen exchanges: a test stands up, in a few
// lines, a target that takes a reading the sandbox does not (a 500 on control characters, a 400 that
// stored the write), without a fault or variant of the reference sandbox for it.

import { createServer, request, type IncomingMessage, type Server } from 'node:http';

export interface Seen {
  method: string;
  path: string;
  body: string;
}

/** What to do with one request: forward it (its body replaced, if given) and answer `status`/`json` instead. */
export interface Rewrite {
  forwardBody?: string;
  answer?: { status: number; json: unknown };
}

function readAll(s: IncomingMessage): Promise<Buffer> {
  return new Promise((done) => {
    const parts: Buffer[] = [];
    s.on('data', (c: Buffer) => parts.push(c));
    s.on('end', () => done(Buffer.concat(parts)));
    s.on('error', () => done(Buffer.concat(parts)));
  });
}

export async function startRewritingProxy(rewrite: (seen: Seen) => Rewrite | undefined): Promise<{
  baseUrl: string;
  to(upstreamBaseUrl: string): void;
  close(): Promise<void>;
}> {
  let upstream: URL | undefined;
  const server: Server = createServer((req, res) => {
    void readAll(req).then((raw) => {
      if (!upstream) return void res.destroy();
      const seen = { method: req.method ?? 'GET', path: req.url ?? '/', body: raw.toString('utf8') };
      const r = rewrite(seen);
      const body = r?.forwardBody !== undefined ? Buffer.from(r.forwardBody) : raw;
      const headers = { ...req.headers, 'content-length': String(body.length) };
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          if (!r?.answer) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          answer.resume();
          const text = JSON.stringify(r.answer.json);
          res.writeHead(r.answer.status, {
            'content-type': 'application/json; charset=utf-8',
            'x-svc-environment': 'sandbox',
          });
          res.end(text);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    to(upstreamBaseUrl) {
      upstream = new URL(upstreamBaseUrl);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
