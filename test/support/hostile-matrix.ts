// The hostile matrix of issue 17: every case once, as a row that the tests and `npm run bench:hostile`
// both read. A row prepares what it needs (a target in this process, files generated on the fly, a
// load), names the command line, an optional signal sent mid-work, and the outcome a bounded, honest
// CLI gives (exit code, verdict, whether reports are written). Every row is held to PEAK_RSS_BOUND_MB
// (measured on the child, test/support/peak-rss.ts) and its own time bound; a row with a signal also
// to SIGNAL_EXIT_BOUND_S from the signal to the exit. `testedIn` names the test that runs the row:
// the matrix test, a test that asserts more about it, or only the bench (the slow, before/after rows).

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../cli-support.js';
import { SCAN_CASES } from './hostile-inputs.js';
import { startChunkedFlood, startInflatingTarget, type InflatingTarget } from './hostile-targets.js';
import type { Interrupt } from './peak-rss.js';

export const PEAK_RSS_BOUND_MB = 512;
/** DESIGN.md: signals always win, within 2 s, reports written. */
export const SIGNAL_EXIT_BOUND_S = 2;

export interface Prepared {
  args: string[];
  env?: Record<string, string>;
  interrupt?: Interrupt;
  /** Stops what `prepare` started (a target). */
  cleanup?: () => Promise<void>;
}

export interface MatrixRow {
  name: string;
  what: string;
  prepare(dir: string): Promise<Prepared>;
  expect: { code: number; verdict?: string; reports: boolean; stderr?: RegExp };
  maxSeconds: number;
  testedIn: 'test/hostile-matrix.test.ts' | 'test/hostile-scan.test.ts' | 'bench';
}

function runArgs(t: InflatingTarget): string[] {
  const p = t.provision;
  return [
    'run',
    '--base-url',
    t.baseUrl,
    '--partner-key',
    p.partner_key,
    ...p.activation_codes.flatMap((c) => ['--activation-code', c]),
    '--expired-code',
    p.expired_code,
    '--disabled-org-token',
    p.disabled_org_token,
    '--disabled-partner-key',
    p.disabled_partner_key,
    '--webhook-secret',
    p.webhook_secret,
    '--time-scale',
    '60',
  ];
}

/** A `run` against the sandbox behind a proxy adding two `items`-element arrays to every JSON answer. */
function inflatedRun(items: number, interrupt?: Interrupt): MatrixRow['prepare'] {
  return async () => {
    const target = await startInflatingTarget(items);
    return { args: runArgs(target), ...(interrupt ? { interrupt } : {}), cleanup: () => target.close() };
  };
}

/** The first check printed: the certification is under way (CI console, one line per check). */
const FIRST_CHECK = /^[✓✗○!] /m;

/** `count` sockets held open on `port` (into `held`), half with a request header never finished (slowloris), half idle. */
async function loadServe(port: number, count: number, held: Socket[]): Promise<void> {
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
  // A body over the sandbox's 1 MiB limit, and a request Node's parser refuses, answered meanwhile.
  const agent = new Agent({ keepAlive: false });
  const status = (path: string, body: Buffer): Promise<number> =>
    new Promise((done) => {
      const req = request(
        { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.on('error', () => done(0));
      req.end(body);
    });
  const big = await status('/v1/users', Buffer.alloc(2 * 1024 * 1024, 0x20));
  if (big !== 413) throw new Error(`serve answered ${big} to a 2 MiB body, not 413`);
  held.push(...sockets);
}

export const MATRIX: MatrixRow[] = [
  {
    name: 'run-inflated-1e5-sigterm',
    what: 'run, every JSON answer swollen by two 1e5-item arrays; SIGTERM 1 s after the first check ends',
    prepare: inflatedRun(100_000, { signal: 'SIGTERM', whenOutput: FIRST_CHECK, afterMs: 1000 }),
    expect: { code: 143, verdict: 'interrupted', reports: true },
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-2gb-chunked',
    what: 'run, every answer a 2 GB chunked body',
    async prepare() {
      const target = await startChunkedFlood(2 * 1024 ** 3);
      return {
        args: ['run', '--base-url', target.baseUrl, '--partner-key', `spk_live_${'ab'.repeat(24)}`],
        cleanup: () => target.close(),
      };
    },
    expect: { code: 1, verdict: 'not-certified', reports: true },
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'receiver-secret-x',
    what: 'receiver with SVC_WEBHOOK_SECRET=x',
    prepare: async () => ({
      args: ['receiver', '--url', 'http://127.0.0.1:9/hook', '--allow-private'],
      env: { SVC_WEBHOOK_SECRET: 'x' },
    }),
    expect: { code: 2, reports: false, stderr: /too short to redact safely/ },
    maxSeconds: 15,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'scan-4gb-sigterm',
    what: 'scan of a 4 GB (sparse) bundle; SIGTERM after 1 s',
    async prepare(dir) {
      writeFileSync(join(dir, 'big.js'), '');
      execFileSync('truncate', ['-s', '4G', join(dir, 'big.js')]);
      return { args: ['scan', 'big.js'], interrupt: { signal: 'SIGTERM', afterMs: 1000 } };
    },
    expect: { code: 143, verdict: 'interrupted', reports: true },
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'serve-load-sigterm',
    what: 'serve holding 2,000 connections (half slowloris), a 2 MiB body answered 413; then SIGTERM',
    async prepare() {
      const port = await freePort();
      const held: Socket[] = [];
      return {
        args: ['serve', '--port', String(port)],
        interrupt: { signal: 'SIGTERM', whenOutput: /listening on/, before: () => loadServe(port, 2000, held) },
        cleanup: async () => held.forEach((s) => s.destroy()),
      };
    },
    expect: { code: 0, reports: false },
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  ...SCAN_CASES.map((c): MatrixRow => ({
    name: `scan-${c.name}`,
    what: c.what,
    prepare: async (dir) => ({ args: await c.prepare(dir) }),
    expect: { code: c.expectedCode, reports: c.expectedCode !== 2 },
    maxSeconds: 15,
    testedIn: 'test/hostile-scan.test.ts',
  })),
  // Slow rows, for the before/after figures of the issue (minutes with the old build).
  {
    name: 'run-inflated-1e5',
    what: 'run to its end, every JSON answer swollen by two 1e5-item arrays (~600 KB)',
    prepare: inflatedRun(100_000),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    maxSeconds: 300,
    testedIn: 'bench',
  },
  {
    name: 'run-inflated-1e6-sigterm',
    what: 'run, every JSON answer swollen by two 1e6-item arrays (~6 MB); SIGTERM 5 s after the first check ends',
    prepare: inflatedRun(1_000_000, { signal: 'SIGTERM', whenOutput: FIRST_CHECK, afterMs: 5000 }),
    expect: { code: 143, verdict: 'interrupted', reports: true },
    maxSeconds: 300,
    testedIn: 'bench',
  },
  {
    name: 'run-inflated-1e6',
    what: 'run to its end, every JSON answer swollen by two 1e6-item arrays (~6 MB)',
    prepare: inflatedRun(1_000_000),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    maxSeconds: 900,
    testedIn: 'bench',
  },
];
