// `svc-certify scan` under hostile files: each input is generated on
// the fly, scanned by the built CLI in a child process whose peak RSS and time are measured, and
// the run must end bounded (under 512 MB, in seconds), honestly (what could not be read fails the
// check, never a silent pass), with results.json written and no full key in any output.
// Needs the build (`npx tsc -p tsconfig.build.json`). HOSTILE_BIN=<other build>/bin/svc-certify.js
// runs the same tests against another build (they fail against the one before these bounds).

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult, ScanFinding } from '../src/runner/results.js';
import { HEX_A, HEX_B, JSON_DEPTH_BOUND, KEY, TOKEN, scanCase } from './support/hostile-inputs.js';
import { PACKAGE_BIN, runMeasured, type MeasuredRun } from './support/peak-rss.js';

const PEAK_BOUND_MB = 512;
/** Each case takes well under 5 s here; the margin is for a busy shared CI core. */
const SECONDS_BOUND = 15;
/** Past these the child is killed: an unbounded scan fails the test fast instead of taking the machine. */
const KILL_ABOVE_MB = 1024;
const KILL_AFTER_MS = 30_000;
const REPORTERS = 'console,json,junit,html,markdown,sarif';
/** More of a key or token than its first 12 characters (Authentication, rule 9). */
const TOO_MUCH = [KEY.slice(0, 13), TOKEN.slice(0, 13), HEX_A.slice(0, 9), HEX_B.slice(0, 9)];

interface CaseRun {
  run: MeasuredRun;
  expectedCode: number;
  /** Every report file written, by name. */
  reports: Record<string, string>;
  results: RunResult | undefined;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function runCase(name: string): Promise<CaseRun> {
  if (!process.env.HOSTILE_BIN && !existsSync(join(PACKAGE_BIN, '..', '..', 'dist', 'src', 'cli', 'main.js'))) {
    throw new Error('not built: run `npx tsc -p tsconfig.build.json` first');
  }
  const c = scanCase(name);
  const dir = mkdtempSync(join(tmpdir(), `svc-hostile-${name}-`));
  dirs.push(dir);
  const args = await c.prepare(dir);
  const run = await runMeasured([...args, '--report-dir', 'report', '--reporter', REPORTERS], {
    cwd: dir,
    killAboveMb: KILL_ABOVE_MB,
    timeoutMs: KILL_AFTER_MS,
  });
  const reportDir = join(dir, 'report');
  const reports: Record<string, string> = {};
  if (existsSync(reportDir))
    for (const f of readdirSync(reportDir)) reports[f] = readFileSync(join(reportDir, f), 'utf8');
  const results =
    reports['results.json'] === undefined ? undefined : (JSON.parse(reports['results.json']) as RunResult);
  return { run, expectedCode: c.expectedCode, reports, results };
}

/** Bounded, with the expected exit code, and (unless a usage error) results.json written. */
function expectBounded(r: CaseRun): void {
  const { run } = r;
  const summary = `exit ${run.code} ${run.signal ?? ''} ${run.killed ?? ''}, ${run.peakRssMb.toFixed(0)} MB, ${run.seconds.toFixed(1)} s, stderr: ${run.stderr.slice(0, 300)}`;
  expect(run.killed, summary).toBeUndefined();
  expect(run.peakRssMb, summary).toBeLessThanOrEqual(PEAK_BOUND_MB);
  expect(run.seconds, summary).toBeLessThan(SECONDS_BOUND);
  expect(run.code, summary).toBe(r.expectedCode);
  if (r.expectedCode !== 2)
    expect(Object.keys(r.reports)).toEqual(
      expect.arrayContaining(['results.json', 'results.sarif', 'junit.xml', 'report.html', 'summary.md']),
    );
}

function expectNoFullKey(r: CaseRun): void {
  const outputs = { ...r.reports, stdout: r.run.stdout, stderr: r.run.stderr };
  for (const [name, text] of Object.entries(outputs))
    for (const bad of TOO_MUCH) expect(text.includes(bad), `${name} shows ${bad}`).toBe(false);
}

function findings(r: CaseRun): ScanFinding[] {
  return r.results?.findings ?? [];
}

describe('scan under hostile files', () => {
  it('a gzip of 150 MB of "[" (.har.gz): not scanned past the decompression bound, and the check fails', async () => {
    const r = await runCase('deep-har-gz');
    expectBounded(r);
    const unread = findings(r).filter((f) => f.kind === 'not-scanned');
    expect(unread.map((f) => f.check).sort()).toEqual(['scan.no-org-token-string', 'scan.no-partner-key-string']);
    expect(unread[0]!.excerpt).toMatch(/^not scanned: decompresses past \d+ MiB/);
    expect(r.results!.checks.every((c) => c.status === 'failed')).toBe(true);
  });

  it('20 MB of "[" (.har): the structure is given up past the depth bound and the rest searched as text', async () => {
    const r = await runCase('deep-har-plain');
    expectBounded(r);
    expect(findings(r).map((f) => [f.kind, f.location])).toEqual([
      ['partner-key', `nested deeper than ${JSON_DEPTH_BOUND} levels, scanned as text`],
    ]);
    expectNoFullKey(r);
  });

  it('100,000 nested members (.har): seconds, not minutes, and the innermost token is found', async () => {
    const r = await runCase('deep-members');
    expectBounded(r);
    expect(findings(r).map((f) => [f.kind, f.location])).toEqual([
      ['org-token', `nested deeper than ${JSON_DEPTH_BOUND} levels, scanned as text`],
    ]);
    expectNoFullKey(r);
  });

  it('a million strings at the depth bound: time linear in the input, the path shown bounded', async () => {
    const r = await runCase('deep-values');
    expectBounded(r);
    const [f, ...rest] = findings(r);
    expect(rest).toEqual([]);
    expect(f!.kind).toBe('org-token');
    // Read as JSON (not the text fallback): the path names the value, its middle elided.
    expect(f!.location).toMatch(/^\[0\]\[0\].*….*\[0\]\[1000000\]$/);
    expect(f!.location!.length).toBeLessThan(300);
    expectNoFullKey(r);
  });

  it('a source map with 30 million sources: bounded memory, the finding still named by its source', async () => {
    const r = await runCase('map-many-sources');
    expectBounded(r);
    expect(findings(r).map((f) => [f.kind, f.location, f.line])).toEqual([
      ['partner-key', 'gzip-decompressed › source src/config.ts', 1],
    ]);
    expectNoFullKey(r);
  });

  it('10 GB of zeros gzipped twice (.gz.gz): not scanned, exit 1, in seconds', async () => {
    const r = await runCase('gzip-bomb');
    expectBounded(r);
    const unread = findings(r).filter((f) => f.kind === 'not-scanned');
    expect(unread).toHaveLength(2);
    expect(unread[0]!.excerpt).toMatch(/more than \d+ times its size/);
    expect(unread[0]!.location).toBe('gzip › gzip-decompressed');
  });

  it('gzip inside a file named only .gz is decompressed too (within the same bound): the key inside is found', async () => {
    const r = await runCase('gzip-in-gzip');
    expectBounded(r);
    expect(findings(r).map((f) => [f.kind, f.location])).toEqual([['partner-key', 'gzip › gzip-decompressed']]);
    expectNoFullKey(r);
  });

  it('a key used as a member name is a finding, shown with its first 12 characters only', async () => {
    const r = await runCase('key-as-member-name');
    expectBounded(r);
    expect(findings(r).map((f) => [f.kind, f.location, f.excerpt])).toEqual([
      ['partner-key', 'log.entries[0].request.headers[0] (member name)', 'spk_live_a1a…'],
    ]);
    expectNoFullKey(r);
  });

  it('a file named with a key or token: every path shown is cut to 12 characters of it', async () => {
    const r = await runCase('key-in-file-name');
    expectBounded(r);
    expect(findings(r).map((f) => f.file)).toEqual([
      `dist/${KEY.slice(0, 12)}….js`,
      `dist/nested/${TOKEN.slice(0, 12)}….js`,
    ]);
    expect((r.results!.config as { paths: string[] }).paths).toEqual([`dist/${KEY.slice(0, 12)}….js`, 'dist/nested']);
    expectNoFullKey(r);
  });

  it('a HAR with a 100 MB base64 body: read through in bounded memory, the key in the next entry found', async () => {
    const r = await runCase('har-100mb-base64');
    expectBounded(r);
    expect(findings(r).map((f) => [f.kind, f.location])).toEqual([
      ['partner-key', 'log.entries[1].request.headers[0].value (x-partner-key)'],
    ]);
    expectNoFullKey(r);
  });

  it('a folder with symlink loops: links are not followed, the bundle is scanned, clean', async () => {
    const r = await runCase('symlink-loops');
    expectBounded(r);
    expect(findings(r)).toEqual([]);
    expect(r.results!.checks.map((c) => c.status)).toEqual(['passed', 'passed']);
  });

  it('a named pipe given to scan: one line naming it, exit 2, without blocking', async () => {
    const r = await runCase('fifo');
    expectBounded(r);
    expect(r.run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/scan.*pipe\.js.*FIFO/)]);
  });

  it('/dev/zero given to scan: one line naming it, exit 2, without reading forever', async () => {
    const r = await runCase('device');
    expectBounded(r);
    expect(r.run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/scan.*\/dev\/zero.*device/)]);
  });

  it('a named pipe inside a folder is skipped, and the report says so', async () => {
    const r = await runCase('fifo-in-folder');
    expectBounded(r);
    for (const c of r.results!.checks) expect(c.message).toMatch(/skipped, not read: dist\/pipe\.js \(a FIFO/);
  });
});

describe('scan of what it cannot read: a finding, named, and the rest of the scan goes on', () => {
  const shown = (r: CaseRun): Array<[string, string, string | null]> =>
    findings(r)
      .map((f): [string, string, string | null] => [f.file, f.kind, f.location])
      .sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));

  it('gzip bytes named served.js are recognised by their signature: the key inside is found', async () => {
    const r = await runCase('gzip-named-js');
    expectBounded(r);
    expect(shown(r)).toEqual([['served.js', 'partner-key', 'gzip-decompressed']]);
    expectNoFullKey(r);
  });

  it('a .tgz is decompressed and the tar searched: the key in a member is found', async () => {
    const r = await runCase('tgz');
    expectBounded(r);
    expect(shown(r)).toEqual([['bundle.tgz', 'partner-key', 'gzip-decompressed']]);
    expectNoFullKey(r);
  });

  it('a .zip is a not-scanned finding naming it a zip archive: both checks fail, never a pass', async () => {
    const r = await runCase('zip');
    expectBounded(r);
    const unread = findings(r).filter((f) => f.kind === 'not-scanned');
    expect(unread.map((f) => f.check).sort()).toEqual(['scan.no-org-token-string', 'scan.no-partner-key-string']);
    expect(unread[0]!.excerpt).toMatch(/^not scanned: zip archive/);
    expect(r.results!.checks.every((c) => c.status === 'failed')).toBe(true);
  });

  it('.zz (zlib) and .deflate (raw deflate) are decompressed: the key and the token are found', async () => {
    const r = await runCase('zlib-deflate');
    expectBounded(r);
    expect(shown(r)).toEqual([
      ['app.js.deflate', 'org-token', 'deflate-raw-decompressed'],
      ['app.js.zz', 'partner-key', 'zlib-decompressed'],
    ]);
    expectNoFullKey(r);
  });

  it('a name that is not valid UTF-8 is read by its bytes, a .gz of brotli is a finding, the rest is scanned', async () => {
    const r = await runCase('unreadable-entries');
    expectBounded(r);
    const rows = shown(r);
    expect(rows).toEqual([
      ['dist/brotli.js.gz', 'not-scanned', null],
      ['dist/brotli.js.gz', 'not-scanned', null],
      ['dist/k\uFFFD\uFFFD.js', 'partner-key', null],
      ['dist/z.js', 'org-token', null],
    ]);
    const unread = findings(r).find((f) => f.kind === 'not-scanned');
    expect(unread!.excerpt).toMatch(/^not scanned: cannot decompress \(gzip\)/);
    expectNoFullKey(r);
  });
});
