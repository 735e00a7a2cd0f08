// Secrets never leave in clear, on every path out: the partner's live console (CI lines), every report,
// and secrets too short to redact are refused before anything runs.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, start, tmp } from './cli-support.js';

describe('secrets too short to redact are refused (exit 2, one line)', () => {
  it('receiver with SVC_WEBHOOK_SECRET=x', async () => {
    const r = await run(['receiver', '--url', 'http://127.0.0.1:9/hook', '--allow-private'], {
      env: { SVC_WEBHOOK_SECRET: 'x' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^svc-certify: SVC_WEBHOOK_SECRET is 1 character\(s\) long, too short to redact safely/);
  });

  it('run with --webhook-secret of 5 characters', async () => {
    const r = await run(['run', '--embedded', '--webhook-secret', 'q7z9w']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--webhook-secret is 5 character\(s\) long, too short to redact safely/);
  });
});

describe('partner: the live console is redacted before it prints', () => {
  it('an org token put in a URL path, and the partner key upper-cased or as HTTP Basic, appear nowhere in full', async () => {
    const cwd = tmp('svc-partner-secrets-');
    const provisionFile = join(cwd, 'p.json');
    const child = start(
      ['partner', '--provision', provisionFile, '--time-scale', '60', '--no-inject', '--report-dir', 'out'],
      { cwd },
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const deadline = Date.now() + 20_000;
    while (!/listening on http/.test(stdout) || !existsSync(provisionFile)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`partner did not start: ${stdout}${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const p = JSON.parse(readFileSync(provisionFile, 'utf8')) as {
      base_url: string;
      partner_key: string;
      activation_codes: string[];
    };
    const redeem = await fetch(`${p.base_url}/activations/redeem`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-partner-key': p.partner_key },
      body: JSON.stringify({ code: p.activation_codes[0], external_id: 'secrets-org' }),
    });
    const token = ((await redeem.json()) as { org_token: string }).org_token;
    expect(token).toMatch(/^sot_/);
    // The offences: the token in a URL path and a query, the key upper-cased in a body, the key as Basic auth.
    await fetch(`${p.base_url}/runs/${token}?org=${token}`, {
      headers: { 'x-partner-key': p.partner_key, 'x-svc-org': token },
    });
    await fetch(`${p.base_url}/jobs`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-partner-key': p.partner_key,
        'x-svc-org': token,
        authorization: `Basic ${Buffer.from(`${p.partner_key}:`).toString('base64')}`,
      },
      body: JSON.stringify({
        external_id: 'j1',
        title: 'T',
        description_text: `key ${p.partner_key.toUpperCase()}`,
        location_text: 'Tel Aviv',
      }),
    });
    // The live checklist re-judges every 250 ms: wait until it has printed both offences (the lines a
    // leak would be in), not for a time that only hopes it has.
    const printed = Date.now() + 20_000;
    while (!/secrets\.not-in-url/.test(stdout) || !/secrets\.not-in-body/.test(stdout)) {
      if (Date.now() > printed || child.exitCode !== null)
        throw new Error(`the live checklist never printed both offences: ${stdout}${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
    const outputs = [
      stdout,
      stderr,
      ...readdirSync(join(cwd, 'out')).map((f) => readFileSync(join(cwd, 'out', f), 'utf8')),
    ];
    const basic = Buffer.from(`${p.partner_key}:`).toString('base64');
    for (const text of outputs) {
      expect(text).not.toContain(token.slice(12));
      expect(text.toLowerCase()).not.toContain(p.partner_key.slice(12).toLowerCase());
      expect(text).not.toContain(basic.slice(8, 48));
    }
    // The offence was seen and printed, redacted.
    expect(stdout).toMatch(/secrets\.not-in-url/);
  }, 60_000);
});
