// Rows of the hostile matrix (test/support/hostile-matrix.ts) for signals and bounds under stalls and
// floods: a target that stops answering after the pre-flight or trickles a byte a second (`run`), a
// webhook endpoint that never answers (`receiver`), a partner session flooded with small reads answered
// 429 or with 15 KB headers (ended by SIGTERM or by --duration), and `run`'s own webhook receiver posted
// unsigned 1 MiB bodies while it certifies a conformant sandbox. Kept in one file so the matrix lists them
// with one line.

import { cleanEnv, freePort, provisionedRunArgs } from '../cli-support.js';
import { floodFor, floodUntil, startReadFlood, startUnsignedPosts, type Flood } from './hostile-loads.js';
import type { MatrixRow } from './hostile-matrix.js';
import { startSilentEndpoint, startStallingTarget } from './hostile-targets.js';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_BIN } from './peak-rss.js';
import { leaksIn } from './secret-leaks.js';
import { MAX_RECORDED_REQUESTS } from '../../src/partner/recorder.js';

/** `serve` of this build in a child process on a free port, provisioned into `dir`/sandbox.json. */
async function startServe(
  dir: string,
  extra: string[],
): Promise<{ provision: Record<string, unknown>; close(): Promise<void> }> {
  const file = join(dir, 'sandbox.json');
  const child = spawn(
    process.execPath,
    [PACKAGE_BIN, 'serve', '--port', String(await freePort()), '--provision', file, ...extra],
    { env: cleanEnv({}), stdio: 'ignore' },
  );
  const closed = new Promise<void>((r) => child.once('exit', () => r()));
  for (let waited = 0; !existsSync(file); waited += 50) {
    if (waited > 20_000 || child.exitCode !== null) throw new Error('serve did not write its provision');
    await new Promise((r) => setTimeout(r, 50));
  }
  // Written once the sandbox listens; read once it parses (a write may be under way).
  let provision: Record<string, unknown> | undefined;
  for (let waited = 0; provision === undefined; waited += 50) {
    try {
      provision = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      if (waited > 5_000) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    provision,
    async close() {
      child.kill('SIGTERM');
      await closed;
    },
  };
}

const PARTNER_KEY = `spk_live_${'ab'.repeat(24)}`;
const ORG_TOKEN = `sot_${'cd'.repeat(24)}`;
const WEBHOOK_SECRET = `whsec_${'ef'.repeat(24)}`;

/** `run` with an org token against a target that stalls after the pre-flight; SIGTERM 0.5 s into the stall. */
function stalledRun(kind: 'silent' | 'trickle'): MatrixRow['prepare'] {
  return async () => {
    const target = await startStallingTarget(kind);
    return {
      args: ['run', '--base-url', target.baseUrl, '--partner-key', PARTNER_KEY, '--org-token', ORG_TOKEN],
      interrupt: { signal: 'SIGTERM', before: () => target.stalled, afterMs: 500 },
      cleanup: () => target.close(),
    };
  };
}

/** A partner session flooded until `count` answers, then SIGTERM while the flood goes on. */
function floodedPartnerPast(count: number): MatrixRow['prepare'] {
  return async (dir) => {
    let flood: Flood | undefined;
    return {
      args: ['partner', '--provision', 'p.json'],
      interrupt: {
        signal: 'SIGTERM',
        whenOutput: /judging until/,
        before: () => {
          flood = startReadFlood(dir);
          return floodUntil(flood, count, 400_000);
        },
      },
      cleanup: async () => flood?.stop(),
    };
  };
}

/** A partner session flooded (from "judging until" on) for `ms`, then SIGTERM while the flood goes on. */
function floodedPartner(
  ms: number,
  headerBytes?: number,
  padding?: (partnerKey: string) => string,
): MatrixRow['prepare'] {
  return async (dir) => {
    let flood: Flood | undefined;
    return {
      args: ['partner', '--provision', 'p.json'],
      interrupt: {
        signal: 'SIGTERM',
        whenOutput: /judging until/,
        before: () => {
          flood = startReadFlood(dir, { ...(headerBytes ? { headerBytes } : {}), ...(padding ? { padding } : {}) });
          return floodFor(flood, ms);
        },
      },
      cleanup: async () => flood?.stop(),
    };
  };
}

/** Requests a partner session answered, from results.json: a problem when fewer than `min`. */
function sawRequests(results: unknown, min: number): string | undefined {
  const n = (results as { stats?: { requests?: number } }).stats?.requests ?? 0;
  return n < min ? `stats.requests ${n}, fewer than ${min}: the flood was not recorded` : undefined;
}

/**
 * The flood's reads carry no x-svc-org, a real offence: that rule fails, and only it (none errs), so the
 * session ends not-certified (exit 1).
 */
const FLOOD_OFFENCE = 'requests.org-token-on-every-request-but-redeem';

function onlyTheFloodsOffence(results: unknown): string | undefined {
  const checks = (results as { checks?: Array<{ id: string; status: string; message: string }> }).checks ?? [];
  const bad = checks.filter((c) => (c.status === 'failed' && c.id !== FLOOD_OFFENCE) || c.status === 'error');
  if (bad.length > 0) return bad.map((c) => `${c.id} ${c.status}: ${c.message.slice(0, 160)}`).join('; ');
  return checks.some((c) => c.id === FLOOD_OFFENCE && c.status === 'failed')
    ? undefined
    : `${FLOOD_OFFENCE} did not fail`;
}

/**
 * Past the requests a session records, the results name the bound (judged the first N of M), and the
 * console shows it; below it, no such notice.
 */
function judgingBoundNamed(
  results: unknown,
  outputs: ReadonlyArray<{ name: string; text: string }>,
): string | undefined {
  const r = results as { stats?: { requests?: number }; notices?: Array<{ id: string; message: string }> };
  const requests = r.stats?.requests ?? 0;
  const notice = (r.notices ?? []).find((n) => n.id === 'partner.requests-past-recording-bound');
  if (requests <= MAX_RECORDED_REQUESTS) return notice ? `a bound notice at ${requests} requests` : undefined;
  if (!notice) return `${requests} requests, past the ${MAX_RECORDED_REQUESTS} recorded, and no notice says so`;
  const said = `judged the first ${MAX_RECORDED_REQUESTS.toLocaleString('en')} of ${requests.toLocaleString('en')}`;
  for (const name of ['stdout', 'summary.md', 'report.html', 'junit.xml'])
    if (!outputs.find((o) => o.name === name)?.text.includes(said)) return `${name} does not say "${said}"`;
  return undefined;
}

/** results.json as the row wrote it (among `outputs`), parsed. */
function readResults(outputs: ReadonlyArray<{ name: string; text: string }>): unknown {
  const file = outputs.find((o) => o.name === 'results.json');
  return file ? JSON.parse(file.text) : {};
}

/** A problem when any check ended failed or error (a conformant target, or traffic of no offence). */
function noFailure(results: unknown): string | undefined {
  const checks = (results as { checks?: Array<{ id: string; status: string; message: string }> }).checks ?? [];
  const bad = checks.filter((c) => c.status === 'failed' || c.status === 'error');
  return bad.length > 0 ? `${bad.map((c) => `${c.id} ${c.status}: ${c.message.slice(0, 160)}`).join('; ')}` : undefined;
}

/**
 * run against a conformant sandbox (serve) while its own webhook receiver is posted 100 bodies of 1 MiB,
 * 4 at a time: unsigned, or validly signed deliveries of an event no check waits for.
 */
function postedToItsReceiver(opts: { signed: boolean }): MatrixRow['prepare'] {
  return async (dir) => {
    const port = await freePort();
    // The sandbox in a process of its own (serve), so that neither the flood's sender nor the CLI
    // shares its event loop: what the flood disturbs is the CLI alone.
    const sandbox = await startServe(dir, [
      '--time-scale',
      '60',
      '--webhook-url',
      `http://127.0.0.1:${port}/hooks/run`,
      '--allow-loopback-webhooks',
    ]);
    let flood: Flood | undefined;
    return {
      args: [...provisionedRunArgs(sandbox.provision), '--webhook-listen', `127.0.0.1:${port}`],
      interrupt: {
        signal: 'SIGTERM',
        whenOutput: /^[✓✗○!] /m,
        before: () => {
          flood = startUnsignedPosts(`http://127.0.0.1:${port}/hooks/run`, {
            bytes: 1024 * 1024,
            total: 100,
            ...(opts.signed ? { secret: String(sandbox.provision.webhook_secret) } : {}),
          });
          // The whole run long: the CLI ends first and the signal is never sent.
          return new Promise<void>(() => undefined);
        },
      },
      cleanup: async () => {
        flood?.stop();
        await sandbox.close();
      },
    };
  };
}

/**
 * A partner flood row whose session is not certified for the flood's own offence alone, saw at least
 * `sawAtLeast` requests, and names the judging bound when it was reached.
 */
function judgedFlood(row: Omit<MatrixRow, 'expect' | 'verify' | 'verifyOutputs'> & { sawAtLeast: number }): MatrixRow {
  const { sawAtLeast, ...rest } = row;
  return {
    ...rest,
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: (results) => sawRequests(results, sawAtLeast) ?? onlyTheFloodsOffence(results),
    verifyOutputs: (outputs) => judgingBoundNamed(readResults(outputs), outputs),
  };
}

const DURATION_S = 6;

export const BOUNDS_ROWS: MatrixRow[] = [
  {
    name: 'run-silent-after-preflight-sigterm',
    what: 'run with an org token, the target answers the pre-flight and never again; SIGTERM 0.5 s into the silence',
    prepare: stalledRun('silent'),
    expect: { code: 143, verdict: 'interrupted', reports: true },
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-trickle-sigterm',
    what: 'run with an org token, every answer after the pre-flight trickles one byte a second; SIGTERM 0.5 s in',
    prepare: stalledRun('trickle'),
    expect: { code: 143, verdict: 'interrupted', reports: true },
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'receiver-silent-sigterm',
    what: 'receiver against an endpoint that reads every delivery and never answers; SIGTERM 0.5 s after the first',
    async prepare() {
      const endpoint = await startSilentEndpoint();
      return {
        args: ['receiver', '--url', endpoint.url, '--allow-private'],
        env: { SVC_WEBHOOK_SECRET: WEBHOOK_SECRET },
        interrupt: { signal: 'SIGTERM', before: () => endpoint.reached, afterMs: 500 },
        cleanup: () => endpoint.close(),
      };
    },
    expect: { code: 143, verdict: 'interrupted', reports: true },
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  judgedFlood({
    name: 'partner-429-flood-sigterm',
    what: 'partner flooded for 4 s with GET /v1/runs/{distinct id}, 20 at a time, nearly all 429; SIGTERM with the flood still on',
    prepare: floodedPartner(4000),
    sawAtLeast: 500,
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  }),
  judgedFlood({
    name: 'partner-header-flood-sigterm',
    what: 'partner flooded for 4 s with reads carrying a distinct 15 KB header each, nearly all 429; SIGTERM with the flood still on',
    prepare: floodedPartner(4000, 15 * 1024),
    sawAtLeast: 500,
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  }),
  {
    name: 'partner-key-at-header-cut',
    what: 'partner flooded for 2 s with reads whose 500-character x-padding header has the partner key across the cut of a long header (character 64): 15 of its characters before the cut, one short of a piece the redaction recognises',
    prepare: floodedPartner(2000, undefined, (key) => `${'w'.repeat(48)} ${key} ${'p'.repeat(400)}`),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: (results) => sawRequests(results, 100) ?? onlyTheFloodsOffence(results),
    // The partner key never leaves in any form, nor more of its head than the 12 characters of a preview.
    verifyOutputs: (outputs, dir) => {
      const key = (JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8')) as { partner_key: string }).partner_key;
      const head = outputs.filter((o) => o.text.includes(key.slice(0, 13))).map((o) => o.name);
      return (
        leaksIn(outputs, [key]) ??
        (head.length > 0 ? `${head.join(', ')} show 13 or more characters of the key` : undefined)
      );
    },
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  judgedFlood({
    name: 'partner-429-flood-duration',
    what: `partner --duration ${DURATION_S}s flooded from its start with reads nearly all answered 429: ends on time`,
    async prepare(dir) {
      let flood: Flood | undefined;
      return {
        args: ['partner', '--provision', 'p.json', '--duration', `${DURATION_S}s`],
        // No signal: the flood starts with the session and runs until the row ends.
        interrupt: {
          signal: 'SIGTERM',
          whenOutput: /judging until/,
          before: () => {
            flood = startReadFlood(dir);
            // Never over: the CLI ends first and the signal is never sent.
            return new Promise<void>(() => undefined);
          },
        },
        cleanup: async () => flood?.stop(),
      };
    },
    sawAtLeast: 500,
    // Start-up (1 to 3 s on a loaded machine), the duration, and 2 s to end: a session that overruns fails.
    maxSeconds: DURATION_S + 6,
    testedIn: 'test/hostile-matrix.test.ts',
  }),
  // Slow rows (bench only): the issue's floods at their length.
  judgedFlood({
    name: 'partner-429-flood-20s-sigterm',
    what: 'partner flooded for 20 s with GET /v1/runs/{distinct id}, 20 at a time, nearly all 429; SIGTERM with the flood still on',
    prepare: floodedPartner(20_000),
    sawAtLeast: 1000,
    maxSeconds: 60,
    testedIn: 'bench',
  }),
  judgedFlood({
    name: 'partner-429-flood-60000-sigterm',
    what: `partner flooded with GET /v1/runs/{distinct id}, 20 at a time, until 60,000 answers (past the ${MAX_RECORDED_REQUESTS.toLocaleString('en')} recorded); SIGTERM with the flood still on`,
    prepare: floodedPartnerPast(60_000),
    sawAtLeast: 60_000,
    maxSeconds: 400,
    testedIn: 'bench',
  }),
  judgedFlood({
    name: 'partner-header-flood-15s-sigterm',
    what: 'partner flooded for 15 s with reads carrying a distinct 15 KB header each; SIGTERM with the flood still on',
    prepare: floodedPartner(15_000, 15 * 1024),
    sawAtLeast: 1000,
    maxSeconds: 60,
    testedIn: 'bench',
  }),
  {
    name: 'run-webhook-unsigned-flood',
    what: 'run against a conformant sandbox (serve) while its own webhook receiver is posted 100 unsigned 1 MiB bodies, 4 at a time',
    prepare: postedToItsReceiver({ signed: false }),
    // A conformant sandbox given every input but the limits' burst: incomplete (exit 3), nothing failed.
    expect: { code: 3, verdict: 'incomplete', reports: true },
    verify: (results) => noFailure(results),
    maxSeconds: 300,
    testedIn: 'bench',
  },
  {
    name: 'run-webhook-signed-flood',
    what: 'run against a conformant sandbox (serve) while its own webhook receiver is posted 100 validly signed 1 MiB deliveries of an event no check waits for, 4 at a time',
    prepare: postedToItsReceiver({ signed: true }),
    // A conformant sandbox given every input but the limits' burst: incomplete (exit 3), nothing failed.
    expect: { code: 3, verdict: 'incomplete', reports: true },
    verify: (results) => noFailure(results),
    maxSeconds: 300,
    testedIn: 'bench',
  },
];
