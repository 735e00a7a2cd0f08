// `svc-certify scan` and `svc-certify receiver` as a partner runs them (the spawned launcher): exit
// codes, one-line usage errors, results.json valid against the schema (findings[] included), and
// no key, token or secret in full anywhere in the output or the reports.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../src/runner/results.js';
import { ROOT, run, tmp } from './cli-support.js';
import { startPartnerReceiver, type PartnerReceiver } from './support/partner-receiver.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validateResults = ajv.compile(
  JSON.parse(readFileSync(join(ROOT, 'schemas', 'results.schema.json'), 'utf8')) as object,
);

const HEX = 'e7'.repeat(24);
const KEY = `spk_live_${HEX}`;
const SECRET = 'whsec_cli_test_0123456789abcdefghij';

function everything(dir: string, ran: { stdout: string; stderr: string }): string {
  const reports = join(dir, 'reports');
  const files = readdirSync(reports).map((f) => readFileSync(join(reports, f), 'utf8'));
  return [ran.stdout, ran.stderr, ...files].join('\n');
}

describe('svc-certify scan', () => {
  it('exits 1 with findings, writes findings[] valid against the schema, never a whole key', async () => {
    const dir = tmp('svc-scan-');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'main.js'), `var a=1;var k="${KEY}";`);
    const ran = await run(['scan', 'dist', '--reporter', 'console,json,junit,html,markdown,sarif'], { cwd: dir });
    expect(ran.code, ran.stderr).toBe(1);
    const result = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as RunResult;
    expect(validateResults(result), JSON.stringify(validateResults.errors)).toBe(true);
    expect(result.certification).toBe('scan');
    expect(result.findings).toEqual([
      {
        check: 'scan.no-partner-key-string',
        prefix: 'spk_',
        file: join('dist', 'main.js'),
        line: 1,
        column: 16,
        kind: 'partner-key',
        location: null,
        excerpt: 'var a=1;var k="spk_live_e7e…',
      },
    ]);
    const all = everything(dir, ran);
    expect(all).not.toContain(HEX.slice(0, 4));
    expect(readdirSync(join(dir, 'reports')).sort()).toEqual([
      'junit.xml',
      'report.html',
      'results.json',
      'results.sarif',
      'summary.md',
    ]);
  });

  it('an empty folder judges nothing: incomplete (exit 3), never a clean bill', async () => {
    const dir = tmp('svc-scan-');
    const empty = tmp('svc-scan-empty-');
    const ran = await run(['scan', empty, '--reporter', 'console,json'], { cwd: dir });
    expect(ran.code, ran.stdout + ran.stderr).toBe(3);
    const result = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as RunResult;
    expect(result.verdict).toBe('incomplete');
    expect(result.checks.every((c) => c.status === 'skipped' && c.skipKind === 'inconclusive')).toBe(true);
  });

  it('exits 0 when nothing is found', async () => {
    const dir = tmp('svc-scan-');
    writeFileSync(join(dir, 'clean.js'), 'const task_spk = despk_a + is_sot_ready + SPK_MAX;');
    const ran = await run(['scan', 'clean.js', '--reporter', 'json'], { cwd: dir });
    expect(ran.code, ran.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as RunResult).findings).toEqual([]);
  });

  it('exits 2 with one line naming a path that does not exist', async () => {
    const ran = await run(['scan', 'missing-folder', '--reporter', 'json']);
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim().split('\n')).toEqual([
      'svc-certify: scan: cannot read missing-folder: no such file or folder',
    ]);
  });
});

describe('svc-certify receiver', () => {
  let receiver: PartnerReceiver;
  beforeAll(async () => {
    receiver = await startPartnerReceiver({ secret: SECRET });
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('passes a correct local receiver with --allow-private (secret from SVC_WEBHOOK_SECRET), never printing the secret; incomplete: the URL rule waits for the public URL', async () => {
    const dir = tmp('svc-receiver-');
    const ran = await run(['receiver', '--url', receiver.url, '--allow-private', '--reporter', 'console,json'], {
      cwd: dir,
      env: { SVC_WEBHOOK_SECRET: SECRET },
    });
    // A local run is not the certification: every delivery check passed, the URL check needs the public URL.
    expect(ran.code, ran.stdout + ran.stderr).toBe(3);
    expect(ran.stdout).toMatch(/Incomplete/);
    const result = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as RunResult;
    expect(validateResults(result), JSON.stringify(validateResults.errors)).toBe(true);
    expect(result.certification).toBe('receiver');
    expect(result.summary).toMatchObject({ passed: 13, failed: 0, skipped: 1 });
    expect(result.verdict).toBe('incomplete');
    expect(result.checks.find((c) => c.id === 'receiver.url-is-deliverable')).toMatchObject({
      skipKind: 'needs-input',
    });
    expect(everything(dir, ran)).not.toContain(SECRET);
    // Many deliveries listen for the interrupt at once: that is no leak, and Node must not say it is.
    expect(ran.stderr).not.toMatch(/MaxListenersExceededWarning/);
  });

  it('a receiver that answers its refusals with its own secret: the secret is written nowhere (the whole result redacted once)', async () => {
    const careless = await startPartnerReceiver({ secret: SECRET, variants: ['refuses-naming-its-secret'] });
    try {
      const dir = tmp('svc-receiver-');
      const ran = await run(
        ['receiver', '--url', careless.url, '--allow-private', '--reporter', 'console,json,junit,markdown,html'],
        { cwd: dir, env: { SVC_WEBHOOK_SECRET: SECRET } },
      );
      expect(ran.code, ran.stdout + ran.stderr).toBe(3);
      const result = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as RunResult;
      // The refusals were recorded: the bodies that named the secret are in the evidence, redacted.
      const refusals = result.checks.flatMap((c) => c.exchanges).filter((e) => e.response?.status === 401);
      expect(refusals.length).toBeGreaterThan(0);
      expect(refusals.map((e) => e.response?.body ?? '').join('\n')).toContain('invalid_signature');
      expect(everything(dir, ran)).not.toContain(SECRET);
    } finally {
      await careless.close();
    }
  });

  it('https:// to the plain-HTTP receiver: exit 2 with one clear line naming the http:// address, no OpenSSL record error', async () => {
    const ran = await run(['receiver', '--url', receiver.url.replace(/^http:/, 'https:'), '--allow-private'], {
      env: { SVC_WEBHOOK_SECRET: SECRET },
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim().split('\n')).toEqual([
      `svc-certify: receiver: ${new URL(receiver.url).origin.replace(/^http:/, 'https:')}: the port answered in plain HTTP, not TLS: the address says https:// but the server there speaks http://; give --url as ${receiver.url} (with --allow-private on a private host), or the endpoint's TLS port`,
    ]);
    expect(ran.stderr).not.toMatch(/ssl3_get_record|SSL routines|openssl/i);
  });

  it('fails a URL the service would not deliver to without sending anything', async () => {
    const dir = tmp('svc-receiver-');
    const before = receiver.processed.length;
    const ran = await run(['receiver', '--url', receiver.url, '--webhook-secret', SECRET, '--reporter', 'json'], {
      cwd: dir,
    });
    expect(ran.code).toBe(1);
    const result = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as RunResult;
    expect(result.checks.find((c) => c.id === 'receiver.url-is-deliverable')?.status).toBe('failed');
    expect(result.checks.filter((c) => c.status === 'skipped')).toHaveLength(13);
    expect(receiver.processed.length).toBe(before);
  });

  it('exits 2 with one line when the secret or the URL is missing', async () => {
    const noSecret = await run(['receiver', '--url', 'https://hooks.example.com/svc']);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr.trim().split('\n')).toHaveLength(1);
    expect(noSecret.stderr).toMatch(/SVC_WEBHOOK_SECRET/);
    const noUrl = await run(['receiver', '--webhook-secret', SECRET]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/--url is required/);
    expect(noUrl.stderr).not.toContain(SECRET);
  });
});
