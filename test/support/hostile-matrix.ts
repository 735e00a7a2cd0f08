// The hostile matrix: every hostile case once, as a row that the tests and `npm run bench:hostile`
// both read. A row prepares what it needs (a target in this process, files generated on the fly, a
// load), names the command line, an optional signal sent mid-work, and the outcome a bounded, honest
// CLI gives (exit code, verdict, whether reports are written). Every row is held to PEAK_RSS_BOUND_MB
// (measured on the child, test/support/peak-rss.ts) and its own time bound; a row with a signal also
// to SIGNAL_EXIT_BOUND_S from the signal to the exit. `testedIn` names the test that runs the row:
// the matrix test, a test that asserts more about it, or only the bench (the slow, before/after rows).

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { freePort, provisionedRunArgs } from '../cli-support.js';
import { BOUNDS_ROWS } from './hostile-bounds-rows.js';
import { SCAN_CASES, UNREADABLE_CASES } from './hostile-inputs.js';
import {
  FLOOD_REQUESTS,
  floodPartner,
  holdConnections,
  refusedInEnvelope,
  slowlorisWhileServing,
} from './hostile-loads.js';
import {
  startChunkedFlood,
  startInflatingTarget,
  startMisbehaving,
  type InflatingTarget,
  type Misbehaviour,
} from './hostile-targets.js';
import type { Interrupt } from './peak-rss.js';
import { SECRET_ROWS } from './hostile-secret-rows.js';
import { REPORT_ROWS } from './hostile-report-rows.js';
import { EXPLORE_ROWS } from './hostile-explore-rows.js';
import { OBSERVATION_TEXT_CHARS } from '../../src/runner/limits.js';

export const PEAK_RSS_BOUND_MB = 512;
/** docs/design.md: signals always win, within 2 s, reports written. */
export const SIGNAL_EXIT_BOUND_S = 2;

interface Prepared {
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
  /** `reportFiles`: the files written when not the four of ROW_REPORT_FILES (a row asking for SARIF too). */
  expect: { code: number; verdict?: string; reports: boolean; stderr?: RegExp; reportFiles?: string[] };
  /** What else the outcome must show, read from results.json: a problem, or undefined when it holds. */
  verify?: (results: unknown) => string | undefined;
  /** What else every output must show (each report file by name, `stdout`, `stderr`; `dir` the row's folder): a problem, or undefined. */
  verifyOutputs?: (outputs: ReadonlyArray<{ name: string; text: string }>, dir: string) => string | undefined;
  maxSeconds: number;
  testedIn: 'test/hostile-matrix.test.ts' | 'test/hostile-scan.test.ts' | 'bench';
}

/** Every input but the second partner key, against the proxy's address. */
function runArgs(t: InflatingTarget): string[] {
  return provisionedRunArgs({ ...t.provision, base_url: t.baseUrl }, ['other_partner_key']);
}

/** A `run` against the sandbox behind a proxy adding two `items`-element arrays to every JSON answer. */
function inflatedRun(items: number, interrupt?: Interrupt): MatrixRow['prepare'] {
  return async () => {
    const target = await startInflatingTarget(items);
    return { args: runArgs(target), ...(interrupt ? { interrupt } : {}), cleanup: () => target.close() };
  };
}

/** A `run` with a partner key only against a target misbehaving on every request. */
function misbehavingRun(kind: Misbehaviour): MatrixRow['prepare'] {
  return async () => {
    const target = await startMisbehaving(kind);
    return {
      args: ['run', '--base-url', target.baseUrl, '--partner-key', `spk_live_${'ab'.repeat(24)}`],
      cleanup: () => target.close(),
    };
  };
}

/** A problem unless some failed check's message matches `message` and no check is an engine error. */
function judgedWithoutError(results: unknown, message: RegExp): string | undefined {
  const checks = (results as { checks?: Array<{ id: string; status: string; message: string }> }).checks ?? [];
  const errors = checks.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.message}`);
  if (errors.length > 0) return `engine errors: ${errors.join('; ')}`;
  if (!checks.some((c) => c.status === 'failed' && message.test(c.message))) return `no failed check says ${message}`;
  return undefined;
}

/** results.json of REPORT_BOUND_CHARS at most, and no observation text past OBSERVATION_TEXT_CHARS and its note. */
function reportOfReadableSize(results: unknown): string | undefined {
  const size = JSON.stringify(results).length;
  if (size > REPORT_BOUND_CHARS) return `results.json holds ${size} characters (bound ${REPORT_BOUND_CHARS})`;
  const checks =
    (results as { checks?: Array<{ id: string; observations?: Array<{ message: string }> }> }).checks ?? [];
  const long = checks.find((c) => (c.observations ?? []).some((o) => o.message.length > OBSERVATION_TEXT_CHARS + 60));
  return long ? `${long.id} keeps an observation message past ${OBSERVATION_TEXT_CHARS} characters` : undefined;
}

/**
 * A report a person can open: the 1e5 run wrote a 40 MB results.json before its texts were bounded;
 * now about 8 MB, nearly all of it the 64 KiB heads of the answers its failed observations cite.
 */
const REPORT_BOUND_CHARS = 12_000_000;

/** The first check printed: the certification is under way (CI console, one line per check). */
const FIRST_CHECK = /^[✓✗○!] /m;

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
    name: 'run-inflated-1e5',
    what: 'run to its end, every JSON answer swollen by two 1e5-item arrays (~600 KB)',
    prepare: inflatedRun(100_000),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: (results) => reportOfReadableSize(results),
    maxSeconds: 100,
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
        interrupt: { signal: 'SIGTERM', whenOutput: /listening on/, before: () => holdConnections(port, 2000, held) },
        cleanup: async () => held.forEach((s) => s.destroy()),
      };
    },
    expect: { code: 0, reports: false },
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'serve-slowloris-bytewise',
    what: 'serve with a client sending a request header one byte every 20 ms: 20 other requests answered; then SIGTERM',
    async prepare() {
      const port = await freePort();
      const held: Socket[] = [];
      const stop: Array<() => void> = [];
      return {
        args: ['serve', '--port', String(port)],
        interrupt: {
          signal: 'SIGTERM',
          whenOutput: /listening on/,
          before: () => slowlorisWhileServing(port, held, stop),
        },
        cleanup: async () => {
          stop.forEach((f) => f());
          held.forEach((s) => s.destroy());
        },
      };
    },
    expect: { code: 0, reports: false },
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'serve-refused-in-envelope',
    what: 'serve sent 50 MB bodies (Content-Length, chunked), a garbage request line, a duplicate Content-Length, a 100 KB header: each its 413/400/431 JSON envelope; then SIGTERM',
    async prepare() {
      const port = await freePort();
      return {
        args: ['serve', '--port', String(port)],
        interrupt: { signal: 'SIGTERM', whenOutput: /listening on/, before: () => refusedInEnvelope(port) },
      };
    },
    expect: { code: 0, reports: false },
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'partner-flood-sigterm',
    what: `partner (live console) flooded with ${FLOOD_REQUESTS.toLocaleString('en')} × 250 KB POST /v1/jobs, all 401; then SIGTERM`,
    prepare: async (dir) => ({
      args: ['partner', '--provision', 'p.json'],
      interrupt: { signal: 'SIGTERM', whenOutput: /judging until/, before: () => floodPartner(dir) },
    }),
    // Nothing exercised but the flood: incomplete, every request counted, none a failure.
    expect: { code: 3, verdict: 'incomplete', reports: true },
    verify(results) {
      const r = results as { stats?: { requests?: number }; checks?: Array<{ id: string; status: string }> };
      const failed = (r.checks ?? []).filter((c) => c.status === 'failed').map((c) => c.id);
      if (failed.length > 0) return `failed checks: ${failed.join(', ')}`;
      if (r.stats?.requests !== FLOOD_REQUESTS) return `stats.requests ${r.stats?.requests}, not ${FLOOD_REQUESTS}`;
      return undefined;
    },
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-redirect-loop',
    what: 'run, every answer a 302 to the path asked',
    prepare: misbehavingRun('redirect-loop'),
    // No redirect is followed: each 302 is judged as the answer it is.
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: (results) => judgedWithoutError(results, /answered 302/),
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-reset',
    what: 'run, every connection reset at the first byte',
    prepare: misbehavingRun('reset'),
    // The pre-flight finds no HTTP answer at all: a usage error naming the target, no certification.
    expect: { code: 2, reports: false, stderr: /target unreachable: .*connection_reset/ },
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-self-signed-tls',
    what: 'run over HTTPS, the certificate self-signed',
    prepare: misbehavingRun('self-signed'),
    expect: { code: 2, reports: false, stderr: /self-signed certificate.*NODE_EXTRA_CA_CERTS/ },
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-1gb-answers',
    what: 'run, every answer a 1 GiB JSON body with its Content-Length',
    prepare: misbehavingRun('gigabyte'),
    // An oversized answer is a failed check with evidence, not "unreachable".
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: (results) => judgedWithoutError(results, /body_too_large|too large|larger than/),
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  ...[...SCAN_CASES, ...UNREADABLE_CASES].map((c): MatrixRow => ({
    name: `scan-${c.name}`,
    what: c.what,
    prepare: async (dir) => ({ args: await c.prepare(dir) }),
    expect: { code: c.expectedCode, reports: c.expectedCode !== 2 },
    maxSeconds: 15,
    testedIn: 'test/hostile-scan.test.ts',
  })),
  // Signals under stalls and floods, the bounded partner and webhook receiver (their own file).
  ...BOUNDS_ROWS,
  // Secrets in every form, reports of crafted input, deep values, control sequences, symlinks.
  ...SECRET_ROWS,
  // `report` given edited numbers, a full disk, many inputs, a signal; deep answers; checks at a signal.
  ...REPORT_ROWS,
  ...EXPLORE_ROWS,
  // Slow rows, for the before/after figures of the issue (minutes with the old build).

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
