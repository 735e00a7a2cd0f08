// A proxy in front of the embedded sandbox that rewrites chosen exchanges: a test stands up, in a few
// lines, a target that takes a reading the sandbox does not (a 500 on control characters, a 400 that
// stored the write), without a fault or variant of the reference sandbox for it.

import { forward, startProxy, type Proxy } from './loopback-server.js';

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

export async function startRewritingProxy(rewrite: (seen: Seen) => Rewrite | undefined): Promise<Proxy> {
  return startProxy((req, res, raw, upstream) => {
    const seen = { method: req.method ?? 'GET', path: req.url ?? '/', body: raw.toString('utf8') };
    const r = rewrite(seen);
    const body = r?.forwardBody !== undefined ? Buffer.from(r.forwardBody) : raw;
    const headers = { ...req.headers, 'content-length': String(body.length) };
    const answer = r?.answer;
    forward(upstream, req, res, body, {
      headers,
      ...(answer
        ? {
            reply: (upstreamAnswer) => {
              upstreamAnswer.resume();
              res.writeHead(answer.status, {
                'content-type': 'application/json; charset=utf-8',
                'x-svc-environment': 'sandbox',
              });
              res.end(JSON.stringify(answer.json));
            },
          }
        : {}),
    });
  });
}
