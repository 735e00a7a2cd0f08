// What "the same build gets the same verdict" compares between two certifications of the same target:
// the verdict, every check's outcome (status, and the kind of a skip) and the exploration's requests in
// order (each check's generated cases, by label: fresh identifiers carry a nonce, the cases do not).
// Shared by test/repeat-outcomes.test.ts and `npm run bench:repeat`.

import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { RunResult } from '../../src/runner/results.js';
import { verdictOfResult } from '../../src/runner/verdict.js';

export interface Outcome {
  verdict: string;
  checks: Record<string, string>;
  exploration: string[];
}

export function outcomeOf(run: RunResult): Outcome {
  const checks: Record<string, string> = {};
  for (const c of run.checks) checks[c.id] = c.skipKind ? `${c.status} (${c.skipKind})` : c.status;
  const exploration = run.checks
    .filter((c) => c.suite === 'explore')
    .flatMap((c) =>
      c.exchanges.filter((e) => /^(case \d+|shrink)/.test(e.label ?? '')).map((e) => `${c.id} ${e.label ?? ''}`),
    );
  // certify() leaves the verdict to the reports' step: decided here as that step decides it.
  return { verdict: run.verdict ?? verdictOfResult(run), checks, exploration };
}

/** Every way `b` differs from `a`, one line each (empty: the same outcome). */
export function differences(a: Outcome, b: Outcome): string[] {
  const out: string[] = [];
  if (a.verdict !== b.verdict) out.push(`verdict: ${a.verdict} → ${b.verdict}`);
  for (const id of new Set([...Object.keys(a.checks), ...Object.keys(b.checks)]))
    if (a.checks[id] !== b.checks[id]) out.push(`${id}: ${a.checks[id] ?? '(absent)'} → ${b.checks[id] ?? '(absent)'}`);
  if (a.exploration.join('\n') !== b.exploration.join('\n')) {
    const i = a.exploration.findIndex((x, k) => x !== b.exploration[k]);
    const at = i === -1 ? a.exploration.length : i;
    out.push(
      `exploration: ${a.exploration.length} → ${b.exploration.length} requests, first difference at ${at}: ${a.exploration[at] ?? '(none)'} → ${b.exploration[at] ?? '(none)'}`,
    );
  }
  return out;
}

function readAll(s: IncomingMessage): Promise<Buffer> {
  return new Promise((done) => {
    const parts: Buffer[] = [];
    s.on('data', (c: Buffer) => parts.push(c));
    s.on('end', () => done(Buffer.concat(parts)));
    s.on('error', () => done(Buffer.concat(parts)));
  });
}

/**
 * A proxy that answers every request `ms` later than its upstream would: a target far away. Its
 * upstream is set once known (`to`), before the first request.
 */
export async function startLatencyProxy(ms: number): Promise<{
  baseUrl: string;
  to(upstreamBaseUrl: string): void;
  close(): Promise<void>;
}> {
  let upstream: URL | undefined;
  const server: Server = createServer((req, res) => {
    void readAll(req).then((body) => {
      setTimeout(() => {
        if (!upstream) return void res.destroy();
        const forward = request(
          { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', () => res.destroy());
        forward.end(body);
      }, ms);
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
