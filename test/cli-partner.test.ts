// `svc-certify partner` as a user runs it (spawned bin/svc-certify.js): bad usage, a session that ends
// after --duration, and one a scripted partner exercises until SIGTERM, with every report written and no
// secret in any of them.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FILES, ROOT, run, start, tmp } from './cli-support.js';
import { exercise, PartnerClient, PartnerWebhookEndpoint, type Provision } from './support/partner-client.js';

async function waitFor(file: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!existsSync(file) || readFileSync(file, 'utf8').trim() === '') {
    if (Date.now() > until) throw new Error(`${file} never appeared`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function validateResults(file: string): Promise<void> {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const addFormats = (await import('ajv-formats')).default as unknown as (ajv: InstanceType<typeof Ajv2020>) => void;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'results.schema.json'), 'utf8')) as object);
  expect(validate(JSON.parse(readFileSync(file, 'utf8'))), JSON.stringify(validate.errors)).toBe(true);
}

describe('svc-certify partner', () => {
  it('without --provision: exit 2 and one line saying how to fix it', async () => {
    const r = await run(['partner', '--duration', '1s']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--provision');
  });

  it('a bad --duration: exit 2', async () => {
    const r = await run(['partner', '--provision', 'p.json', '--duration', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--duration');
  });

  it('ends after --duration; nothing exercised: every rule skipped with a hint, exit 0, and 1 with --strict', async () => {
    const dir = tmp();
    const plain = await run(['partner', '--provision', 'p.json', '--duration', '300ms', '--reporter', 'console,json', '--report-dir', 'out'], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as { checks: Array<{ status: string; message: string }> };
    expect(result.checks.every((c) => c.status === 'skipped' && (c.message.startsWith('not exercised') || c.message.includes('--webhook-url')))).toBe(true);
    expect(plain.stdout).toContain('injection run-start-500');
    const strict = await run(['partner', '--provision', 'p.json', '--duration', '300ms', '--reporter', 'json', '--report-dir', 'out', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
    // The shared report options: a baseline naming no rule of this certification fails the gate.
    writeFileSync(join(dir, 'known.json'), JSON.stringify({ expected_failures: [{ id: 'auth.no-such-rule', reason: 'test', until: '2999-01-01' }] }));
    const based = await run(['partner', '--provision', 'p.json', '--duration', '300ms', '--reporter', 'json', '--report-dir', 'out', '--baseline', 'known.json'], { cwd: dir });
    expect(based.code).toBe(1);
  });

  it('a partner that puts its org token in a query string: SIGTERM ends the session, exit 1, the evidence redacted in every report', async () => {
    const dir = tmp();
    const endpoint = new PartnerWebhookEndpoint({ orgTokenInQuery: true });
    const url = await endpoint.listen();
    const child = start(['partner', '--provision', 'p.json', '--time-scale', '100', '--webhook-url', url, '--allow-loopback-webhooks', '--report-dir', 'out'], { cwd: dir });
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    try {
      await waitFor(join(dir, 'p.json'));
      const provision = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8')) as Provision;
      endpoint.secret = provision.webhook_secret;
      const client = new PartnerClient(provision, { orgTokenInQuery: true }, 100);
      await exercise(client, endpoint, ['connect', 'fixtures', 'webhooks']);
      child.kill('SIGTERM');
      expect(await exited).toBe(1);
      const out = join(dir, 'out');
      expect(readdirSync(out).sort()).toEqual([...REPORT_FILES].sort());
      await validateResults(join(out, 'results.json'));
      const result = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { checks: Array<{ id: string; status: string; exchanges: Array<{ startedAt: string; request: { url: string } }> }> };
      const failed = result.checks.filter((c) => c.status === 'failed');
      expect(failed.map((c) => c.id)).toEqual(['secrets.not-in-url']);
      expect(failed[0]!.exchanges[0]!.request.url).toMatch(/org=sot_[0-9a-f]{8}…/);
      for (const secret of [provision.partner_key, provision.webhook_secret, client.orgToken]) {
        for (const f of REPORT_FILES) expect(readFileSync(join(out, f), 'utf8')).not.toContain(secret);
        expect(stdout).not.toContain(secret);
      }
      expect(stdout).toContain('secrets.not-in-url');
    } finally {
      child.kill('SIGKILL');
      await endpoint.close();
    }
  });
});
