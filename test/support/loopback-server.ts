// The pieces every loopback target and proxy of the tests is built from: a server listening on
// 127.0.0.1 whose close ends every connection it holds, a request read whole, and a request passed
// on to an upstream with its answer piped back. The hostile targets, the rewriting and latency
// proxies and the stalling exploration each add only what they do differently.

import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';

export interface LoopbackServer {
  /** The base URL, ending in /v1. */
  baseUrl: string;
  close(): Promise<void>;
}

/** `server` listening on a free loopback port; its close destroys every connection first (a stalled answer included). */
export async function listening(
  server: Server | NetServer,
  scheme: 'http' | 'https' = 'http',
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  return {
    baseUrl: `${scheme}://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/v1`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * A target refusing every request once read whole: 422 invalid_request, as a sandbox says it (the
 * x-svc-environment header); `received` is told of each request.
 */
export function refusingEverything(received: () => void = () => undefined): Promise<LoopbackServer> {
  return listening(
    createServer((req, res) => {
      received();
      void readAll(req).then(() => {
        res.writeHead(422, { 'content-type': 'application/json; charset=utf-8', 'x-svc-environment': 'sandbox' });
        res.end('{"error":"invalid_request","message":"no"}');
      });
    }),
  );
}

/** Everything a stream sends; on an error, what came before it. */
export function readAll(s: IncomingMessage): Promise<Buffer> {
  return new Promise((done) => {
    const parts: Buffer[] = [];
    s.on('data', (c: Buffer) => parts.push(c));
    s.on('end', () => done(Buffer.concat(parts)));
    s.on('error', () => done(Buffer.concat(parts)));
  });
}

/** The upstream's answer as it came: status, headers and body piped through. */
function pipeBack(res: ServerResponse): (answer: IncomingMessage) => void {
  return (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  };
}

/**
 * Sends `req`, with `body` (and `headers`, by default its own), on to `upstream`; `reply` answers the
 * client from the upstream's answer (by default, that answer piped back). A failed upstream ends the
 * client's connection.
 */
export function forward(
  upstream: URL,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  opts: { headers?: IncomingHttpHeaders; reply?: (answer: IncomingMessage) => void } = {},
): void {
  const sent = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: opts.headers ?? req.headers,
    },
    opts.reply ?? pipeBack(res),
  );
  sent.on('error', () => res.destroy());
  sent.end(body);
}

export interface Proxy extends LoopbackServer {
  /** Sets the upstream once it is known, before the first request. */
  to(upstreamBaseUrl: string): void;
}

/**
 * A proxy on a loopback port: each request is read whole and handed to `handle` with the upstream
 * (a request before `to` named one is dropped).
 */
export async function startProxy(
  handle: (req: IncomingMessage, res: ServerResponse, body: Buffer, upstream: URL) => void,
): Promise<Proxy> {
  let upstream: URL | undefined;
  const server = createServer((req, res) => {
    void readAll(req).then((body) => {
      if (!upstream) return void res.destroy();
      handle(req, res, body, upstream);
    });
  });
  return {
    ...(await listening(server)),
    to(upstreamBaseUrl) {
      upstream = new URL(upstreamBaseUrl);
    },
  };
}
