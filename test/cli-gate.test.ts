// The gate profile as a pipeline runs it on every deployment: `run --gate` against a served sandbox
// with only an org token. Passed, never "Certified"; no activation code spent, no real run, and what
// only a certification covers listed in every report; a fault in what the gate covers still fails it.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { provisionedRunArgs, run, serveProvisioned, tmp, type ServedSandbox } from './cli-support.js';
import type { RunResult } from '../src/runner/results.js';

/** A served sandbox at time scale 60 with `extra` arguments (cli-support.ts). */
const serve = (extra: string[] = []): Promise<ServedSandbox> => serveProvisioned(extra, tmp('svc-gate-'));

/** `run` against a served sandbox with its partner key and one org token, at time scale 60, reports in r/. */
function tokenArgs(p: ServedSandbox['provision'], more: string[] = []): string[] {
  return [
    'run',
    '--base-url',
    String(p['base_url']),
    '--partner-key',
    String(p['partner_key']),
    '--org-token',
    String(p['org_token']),
    '--time-scale',
    '60',
    '--report-dir',
    'r',
    ...more,
  ];
}

/** The gate's command line: a target, its partner key and one org token; no code, no limit, no receiver. */
function gateArgs(p: ServedSandbox['provision'], more: string[] = []): string[] {
  return tokenArgs(p, ['--gate', ...more]);
}

function results(cwd: string): RunResult {
  return JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as RunResult;
}

/** Redeems that answered 200: each would have spent an activation code. */
function codesSpent(r: RunResult): number {
  const redeemed = new Set<string>();
  for (const c of r.checks) {
    for (const e of c.exchanges) {
      if (!('request' in e) || !e.request || !e.response) continue;
      if (/\/activations\/redeem$/.test(e.request.url) && e.response.status === 200) redeemed.add(e.startedAt);
    }
  }
  return redeemed.size;
}

describe('run --gate', () => {
  const served: ServedSandbox[] = [];
  afterAll(async () => {
    for (const s of served) await s.stop();
  });

  it('twice in a row on one served sandbox with one org token: both exit 0, passed but not certified, no code spent, no real run', async () => {
    const s = await serve();
    served.push(s);
    for (const attempt of [1, 2]) {
      const cwd = tmp('svc-gate-run-');
      const r = await run(gateArgs(s.provision), { cwd });
      expect(r.code, `attempt ${attempt}: ${r.stderr}${r.stdout.slice(-3000)}`).toBe(0);
      const res = results(cwd);
      expect(res.verdict).toBe('passed-not-certified');
      expect(res.uncertifiedBy).toEqual(['gate']);
      expect(res.summary.failed).toBe(0);
      expect(res.summary.error).toBe(0);
      expect(res.config['activationCodes']).toBe(0);
      expect(codesSpent(res)).toBe(0);
      expect(res.stats!.realRuns).toBeLessThanOrEqual(1);
      // What only a certification covers, grouped by why, each check deselected with that reason.
      const only = res.gate!.certificationOnly;
      expect(only.map((g) => g.why)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^spends an activation code/),
          expect.stringMatching(/^follows a real run to its end/),
          expect.stringMatching(/^uses up the rate limit/),
        ]),
      );
      for (const id of only.flatMap((g) => g.checks)) {
        const check = res.checks.find((c) => c.id === id)!;
        expect(check, id).toMatchObject({ status: 'skipped', skipKind: 'deselected' });
        expect(check.message, id).toMatch(/^certification only: /);
      }
      // Every other skip is not applicable to a sandbox: the gate is complete in what it covers.
      const otherSkips = res.checks.filter((c) => c.status === 'skipped' && c.skipKind !== 'deselected');
      for (const c of otherSkips) expect(c.skipKind, `${c.id}: ${c.message}`).toBe('not-applicable');
      // Printed and written as passed, not a certification, with the list.
      expect(r.stdout).toMatch(/^Passed, not a certification: /m);
      expect(r.stdout).not.toMatch(/^Certified/m);
      expect(r.stdout).toMatch(/^ {2}certification only: spends an activation code/m);
      const md = readFileSync(join(cwd, 'r', 'summary.md'), 'utf8');
      expect(md).toMatch(/^# ⚠️ svc-certify: Passed, not a certification\n/);
      expect(md).toContain('- certification only: follows a real run to its end');
      const junit = readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8');
      expect(junit).toContain('<property name="verdict" value="passed-not-certified"/>');
      expect(junit).toMatch(/<property name="verdict\.note" value="certification only: /);
      expect(readFileSync(join(cwd, 'r', 'report.html'), 'utf8')).toContain('<li>certification only: ');
      // The org token is a secret: never in full in any output.
      const token = String(s.provision['org_token']);
      for (const f of ['results.json', 'junit.xml', 'summary.md', 'report.html']) {
        expect(readFileSync(join(cwd, 'r', f), 'utf8'), f).not.toContain(token.slice(12));
      }
      expect(r.stdout + r.stderr).not.toContain(token.slice(12));
    }
  });

  it('still catches a fault in what it covers: not certified, exit 1', async () => {
    const s = await serve(['--fault', 'jobs.title-not-required']);
    served.push(s);
    const cwd = tmp('svc-gate-fault-');
    const r = await run(gateArgs(s.provision), { cwd });
    expect(r.code, r.stdout.slice(-3000)).toBe(1);
    const res = results(cwd);
    expect(res.verdict).toBe('not-certified');
    expect(res.checks.find((c) => c.id === 'jobs.rejects-missing-title')!.status).toBe('failed');
  });

  it.each([
    [
      ['--activation-code', 'SVC-ABCD-EFGH'],
      /^svc-certify: --activation-code has no effect with --gate: the gate spends no activation code/,
    ],
    [['--exhaust-limits'], /^svc-certify: --exhaust-limits has no effect with --gate: the gate never exhausts a limit/],
  ])('refuses %j with --gate: exit 2 with one line, before anything is sent', async (more, line) => {
    const cwd = tmp('svc-gate-usage-');
    const args = gateArgs(
      {
        base_url: 'http://127.0.0.1:9/v1',
        partner_key: `spk_live_${'a'.repeat(48)}`,
        org_token: `sot_${'b'.repeat(48)}`,
      },
      more,
    );
    const r = await run(args, { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a real target without --org-token: the gate redeems no code', async () => {
    const cwd = tmp('svc-gate-usage-');
    const r = await run(
      ['run', '--gate', '--base-url', 'http://127.0.0.1:9/v1', '--partner-key', `spk_live_${'a'.repeat(48)}`],
      { cwd },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^svc-certify: --gate needs the organization of --org-token \(or SVC_ORG_TOKEN\)/);
  });
});

describe('run --activation-code-command', () => {
  const served: ServedSandbox[] = [];
  afterAll(async () => {
    for (const s of served) await s.stop();
  });

  it('takes each code the certification spends from the helper, once per code: no check waits for a code', async () => {
    const s = await serve();
    served.push(s);
    const dir = tmp('svc-code-helper-');
    const calls = join(dir, 'calls');
    writeFileSync(calls, '0');
    const codes = join(dir, 'codes');
    writeFileSync(codes, (s.provision['activation_codes'] as string[]).join('\n'));
    const script = join(dir, 'next-code.cjs');
    writeFileSync(
      script,
      `const fs = require('fs'); const n = Number(fs.readFileSync(${JSON.stringify(calls)}, 'utf8'));
       fs.writeFileSync(${JSON.stringify(calls)}, String(n + 1));
       console.log(fs.readFileSync(${JSON.stringify(codes)}, 'utf8').split('\\n')[n]);`,
    );
    const p = s.provision;
    const cwd = tmp('svc-code-run-');
    // Every input of the provision but its codes (the helper hands them out) and the webhook secret.
    const r = await run(
      [
        ...provisionedRunArgs({ ...p, activation_codes: [] }, ['webhook_secret']),
        '--exhaust-limits',
        '--report-dir',
        'r',
        '--suite',
        'activation,users,limits',
      ],
      { cwd, env: { SVC_ACTIVATION_CODE_COMMAND: `"${process.execPath}" "${script}"` } },
    );
    expect(r.code, r.stderr + r.stdout.slice(-3000)).toBe(0);
    // Three roles (the primary organization, the typed redemption, external_id_taken) and the quota's fresh organization.
    expect(Number(readFileSync(calls, 'utf8'))).toBe(4);
    const res = results(cwd);
    expect(res.verdict).toBe('passed-not-certified');
    expect(res.config['activationCodes']).toBe(4);
    expect(res.config['activationCodeCommand']).toBe(true);
    expect(res.checks.filter((c) => c.status === 'skipped' && c.skipKind !== 'not-applicable')).toEqual([]);
    for (const id of [
      'activation.normalizes-code-input',
      'activation.external-id-taken-keeps-code',
      'limits.sandbox-run-quota',
    ])
      expect(res.checks.find((c) => c.id === id)!.status, id).toBe('passed');
    // The console never shows a code in full.
    for (const code of s.provision['activation_codes'] as string[]) expect(r.stdout + r.stderr).not.toContain(code);
  });

  it('a helper that fails is a set-up error: exit 2 with one line, before the target is touched', async () => {
    const cwd = tmp('svc-code-run-');
    const r = await run(
      [
        'run',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--partner-key',
        `spk_live_${'a'.repeat(48)}`,
        '--report-dir',
        'r',
      ],
      { cwd, env: { SVC_ACTIVATION_CODE_COMMAND: "echo 'no codes left' >&2; exit 4" } },
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'svc-certify: --activation-code-command (call 1 of 3) exited with status 4: no codes left',
    );
  });
});

describe('a limit the target keeps below --rate-limit', () => {
  it('is waited out and named, never blamed: 0 failed against a sandbox whose limit is a twelfth of --rate-limit', async () => {
    const s = await serve(['--rate-limit', '20']);
    try {
      const p = s.provision;
      const cwd = tmp('svc-limit-run-');
      const r = await run(tokenArgs(p, ['--rate-limit', '240', '--suite', 'jobs,users,decisions,conventions']), {
        cwd,
      });
      const res = results(cwd);
      const blamed = res.checks.filter((c) => c.status === 'failed' || c.status === 'error');
      expect(blamed.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      // Passed, or incomplete for inputs not given (no receiver, no other partner's key): never not-certified.
      expect(r.code === 0 || r.code === 3, `exit ${r.code}: ${r.stdout.slice(-3000)}`).toBe(true);
      expect(res.summary.failed).toBe(0);
      expect(res.notices?.map((n) => n.id)).toContain('rate-limit.kept-by-target');
      expect(r.stdout).toMatch(
        /^ {2}the target answered 429 rate_limited \d+ times? to requests that are not about limits/m,
      );
    } finally {
      await s.stop();
    }
  });
});
