// An exit 2 after the options are read: the one line on stderr, and the report files CI steps that
// run `always` publish (results.json with verdict error, junit.xml with one errored testcase, summary.md,
// report.html). In CI (cleanEnv sets CI=1) `run` without a target is such an exit 2.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, REPORT_FILES, run, start, tmp } from './cli-support.js';
import { vendorFile } from './support/vendor-file.js';

const KEY = `spk_live_${'ab'.repeat(24)}`;

interface ErrorResults {
  verdict: string;
  error: { reason: string };
  checks: unknown[];
}

function expectErrorReports(dir: string, line: RegExp): ErrorResults {
  for (const file of REPORT_FILES) expect(existsSync(join(dir, file)), file).toBe(true);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ErrorResults;
  expect(results.verdict).toBe('error');
  expect(results.error.reason).toMatch(line);
  expect(results.checks).toEqual([]);
  const lint = spawnSync('xmllint', ['--noout', '--schema', vendorFile('junit/junit-10.xsd'), join(dir, 'junit.xml')], {
    encoding: 'utf8',
  });
  expect(lint.status, lint.stderr).toBe(0);
  expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/errors="1"/);
  expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[0]).toBe(
    '# ❌ svc-certify: Error: the certification did not start (exit 2)',
  );
  return results;
}

describe('CI without a target fails closed', () => {
  it('CI=1, no --base-url: exit 2, one line naming SVC_BASE_URL and --embedded, and the four report files', async () => {
    const cwd = tmp();
    const r = await run(['run', '--report-dir', 'out'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'svc-certify: no target in CI: set SVC_BASE_URL (or --base-url) to the deployment to certify; to certify the reference sandbox give --embedded',
    ]);
    expectErrorReports(join(cwd, 'out'), /^no target in CI: set SVC_BASE_URL/);
  });
});

describe('every exit 2 after the options are read writes the report files', () => {
  it('run against a port nobody listens on: the unreachable target is the reason', async () => {
    const cwd = tmp();
    const port = await freePort();
    const r = await run(['run', '--base-url', `http://127.0.0.1:${port}/v1`, '--partner-key', KEY], {
      cwd,
      env: { SVC_REPORT_DIR: 'from-env' },
    });
    expect(r.code).toBe(2);
    const results = expectErrorReports(join(cwd, 'from-env'), /127\.0\.0\.1/);
    // The key never appears in full, in the reason or anywhere else.
    expect(JSON.stringify(results)).not.toContain(KEY.slice(12));
  });

  it('https:// to a served sandbox on plain HTTP: one clear line naming the http:// address, no OpenSSL record error', async () => {
    const port = await freePort();
    const serve = start(['serve', '--port', String(port)]);
    try {
      let out = '';
      serve.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
      while (!/listening on/.test(out) && serve.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      const cwd = tmp();
      const r = await run(['run', '--base-url', `https://127.0.0.1:${port}/v1`, '--partner-key', KEY], { cwd });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `svc-certify: target unreachable: https://127.0.0.1:${port}/v1: the port answered in plain HTTP, not TLS: the address says https:// but the server there speaks http://; give --base-url (or SVC_BASE_URL) as http://127.0.0.1:${port}/v1, or the service's TLS port`,
      ]);
      expectErrorReports(join(cwd, 'reports'), /the port answered in plain HTTP, not TLS/);
    } finally {
      serve.kill('SIGTERM');
    }
  });

  it('a bad option value: the reports follow --reporter (json only), in the folder the options name', async () => {
    const cwd = tmp();
    const r = await run(['run', '--embedded', '--time-scale', '0', '--reporter', 'json', '--report-dir', 'r'], { cwd });
    expect(r.code).toBe(2);
    expect(existsSync(join(cwd, 'r', 'junit.xml'))).toBe(false);
    const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as ErrorResults;
    expect(results.error.reason).toMatch(/--time-scale must be a number > 0/);
  });

  it('report with an unreadable input: exit 2, the reports written, the inputs beside them never overwritten', async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, 'reports'));
    writeFileSync(join(cwd, 'reports', 'results.json'), '{not json');
    const r = await run(['report', 'reports/results.json'], { cwd });
    expect(r.code).toBe(2);
    expect(readFileSync(join(cwd, 'reports', 'results.json'), 'utf8')).toBe('{not json');
    expect(existsSync(join(cwd, 'reports', 'junit.xml'))).toBe(true);
    // And `report` refuses an exit 2's results rather than merging nothing.
    const stopped = tmp();
    await run(['run', '--report-dir', 'first'], { cwd: stopped });
    const merged = await run(['report', 'first/results.json', '--report-dir', 'second'], { cwd: stopped });
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(/records a certification that stopped before any check ran \(no target in CI/);
  });
});
