// End to end: the real launcher, real sockets on 127.0.0.1, the embedded sandbox and `serve`.

import { once } from 'node:events';
import { defaultExploreRequests } from '../src/config/explore-defaults.js';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, provisionedRunArgs, REPORT_FILES, ROOT, run, start, tmp, type Ran } from './cli-support.js';

const FULL_SECRET = /(spk_live_[0-9a-f]{48}|sot_[0-9a-f]{48}|whsec_[0-9a-f]{7,})/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Every byte written to disk under `dir` and to the console, searched for full secrets. */
function expectNoLeak(ran: Ran, dir: string, known: string[] = []): void {
  const blobs = [ran.stdout, ran.stderr, ...filesUnder(dir).map((f) => readFileSync(f, 'latin1'))];
  for (const blob of blobs) {
    expect(FULL_SECRET.exec(blob)?.[0]).toBeUndefined();
    for (const secret of known) expect(blob.includes(secret)).toBe(false);
  }
}

function expectOneLineError(ran: Ran, pattern: RegExp): void {
  expect(ran.code).toBe(2);
  const lines = ran.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-certify: /);
  expect(lines[0]).toMatch(pattern);
  expect(ran.stderr).not.toMatch(/\n\s+at /);
}

describe('svc-certify --help and --version', () => {
  it('prints help with examples for every command', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Examples:');
    for (const cmd of ['run', 'list', 'serve']) {
      const r = await run([cmd, '--help']);
      expect(r.code, cmd).toBe(0);
      expect(r.stdout, cmd).toContain('Examples:');
    }
    const runHelp = (await run(['run', '--help'])).stdout;
    for (const flag of [
      '--base-url',
      '--partner-key',
      '--activation-code',
      '--webhook-tls-key',
      '--exhaust-limits',
      'SVC_TIME_SCALE',
    ]) {
      expect(runHelp).toContain(flag);
    }
  });

  it('prints the package version', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(version);
  });
});

describe('svc-certify run against the embedded sandbox', () => {
  it('certifies it, exits 0, writes every report and leaks no secret', async () => {
    const cwd = tmp();
    const reports = join(cwd, 'out');
    const r = await run(['run', '--embedded', '--report-dir', reports], { cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // Skipped only for inputs an embedded sandbox cannot have: production, spending, limits, no webhook.
    expect(r.stdout).toMatch(/\d+ passed, 0 failed, \d+ skipped/);
    for (const f of REPORT_FILES) expect(existsSync(join(reports, f)), f).toBe(true);
    const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as {
      summary: { failed: number; passed: number };
      checks: Array<{ id: string; status: string }>;
      target: { embedded: boolean; environment: string };
      spec: { sha256: string };
      exploration?: { seed: number; cap: number; sent: number };
      stats?: { exploreRequests?: number };
    };
    expect(results.summary.failed).toBe(0);
    expect(results.target).toMatchObject({ embedded: true, environment: 'sandbox' });
    expect(results.spec.sha256).toMatch(/^[0-9a-f]{64}$/);
    const ids = results.checks.map((c) => c.id);
    expect(ids).toContain('auth.missing-partner-key-refused-401');
    // It explores by default, with its fixed seed printed in every report.
    const seed = results.exploration?.seed;
    expect(seed).toBe(1);
    expect(results.exploration?.cap).toBe(defaultExploreRequests(120));
    expect(results.exploration?.sent).toBeGreaterThan(0);
    expect(results.stats?.exploreRequests).toBe(results.exploration?.sent);
    expect(r.stdout).toContain(`exploration: seed ${seed} (replay with --seed ${seed})`);
    expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toContain(
      `<property name="exploration.seed" value="${seed}"/>`,
    );
    expect(readFileSync(join(reports, 'report.html'), 'utf8')).toContain(`exploration: seed ${seed}`);
    expect(readFileSync(join(reports, 'summary.md'), 'utf8')).toContain(`exploration: seed ${seed}`);
    expectNoLeak(r, cwd);
  });

  it('selects with --suite and --grep', async () => {
    const cwd = tmp();
    const r = await run(
      ['run', '--embedded', '--suite', 'auth', '--grep', 'org-token', '--reporter', 'json', '--report-dir', 'r'],
      {
        cwd,
      },
    );
    expect(r.code).toBe(0);
    const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
      checks: Array<{ id: string }>;
    };
    expect(results.checks.map((c) => c.id)).toEqual([
      'auth.disabled-org-token-refused-403',
      'auth.missing-org-token-refused-401',
      'auth.redeem-needs-no-org-token',
      'auth.unknown-org-token-refused-401',
    ]);
  });
});

describe('svc-certify run refuses bad configuration with exit 2 and one line', () => {
  const key = `spk_live_${'ab'.repeat(24)}`;
  const cases: Array<[string, string[], RegExp, Record<string, string>?]> = [
    ['time scale 0', ['run', '--embedded', '--time-scale', '0'], /--time-scale must be a number > 0 \(got "0"\)/],
    [
      'time scale from env',
      ['run', '--embedded'],
      /SVC_TIME_SCALE must be a number > 0 \(got "x"\)/,
      { SVC_TIME_SCALE: 'x' },
    ],
    [
      'base URL without /v1',
      ['run', '--base-url', 'https://x.example/api', '--partner-key', key],
      /--base-url must end in \/v1/,
    ],
    ['base URL without key', ['run', '--base-url', 'https://x.example/v1'], /no partner key.*--partner-key/],
    [
      'bad activation code',
      ['run', '--embedded', '--activation-code', 'SVC-0000-0000'],
      /--activation-code must be an activation code/,
    ],
    ['unknown reporter', ['run', '--embedded', '--reporter', 'pdf'], /unknown reporter "pdf"/],
    ['unknown suite', ['run', '--embedded', '--suite', 'nope'], /unknown suite "nope"/],
    ['grep matching nothing', ['run', '--embedded', '--grep', 'zzz-nothing'], /matches no check/],
    ['bad environment', ['run', '--embedded', '--environment', 'staging'], /--environment must be one of/],
    ['bad webhook listen', ['run', '--embedded', '--webhook-listen', 'nope'], /--webhook-listen must be HOST:PORT/],
    [
      'tls cert without key',
      ['run', '--base-url', 'https://x.example/v1', '--partner-key', key, '--webhook-tls-cert', 'c.pem'],
      /--webhook-tls-cert is given without --webhook-tls-key/,
    ],
    ['unknown option', ['run', '--embedded', '--bogus'], /unknown option '--bogus'/],
    ['unknown command', ['frobnicate'], /unknown command/],
    ['unknown fault', ['serve', '--fault', 'no.such-fault'], /unknown fault "no.such-fault"/],
    [
      'unknown variant',
      ['serve', '--variant', 'no.such-variant'],
      /unknown variant "no.such-variant"; see: svc-certify serve --list-variants/,
    ],
    ['empty user role', ['run', '--embedded', '--user-role', ''], /--user-role is empty/],
    ['bad serve port', ['serve', '--port', 'abc'], /--port must be a whole number/],
  ];
  for (const [name, args, pattern, env] of cases) {
    it(name, async () => expectOneLineError(await run(args, { env }), pattern));
  }

  it('an unknown key in svc-certify.config.json', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 'svc-certify.config.json'), JSON.stringify({ baseURL: 'https://x.example/v1' }));
    expectOneLineError(await run(['run', '--embedded'], { cwd }), /unknown key "baseURL"/);
  });

  it('an unreachable target, without echoing the key', async () => {
    const r = await run(['run', '--base-url', 'http://127.0.0.1:9/v1', '--partner-key', key]);
    expectOneLineError(r, /target unreachable: http:\/\/127\.0\.0\.1:9\/v1: /);
    expect(r.stderr).not.toContain(key);
  });
});

describe('svc-certify list', () => {
  it('--by-spec lists every section of the spec with its checks or a reason', async () => {
    const spec = readFileSync(join(ROOT, 'spec', 'partner-api-v1.md'), 'utf8');
    const headings = [...spec.matchAll(/^#{2,3}\s+(.+?)\s*$/gm)].map((m) => m[1]!);
    const r = await run(['list', '--by-spec']);
    expect(r.code).toBe(0);
    for (const h of headings) expect(r.stdout, h).toContain(h);
    expect(r.stdout).toMatch(/^Authentication\n {4}auth\./m);
    expect(r.stdout).toContain('(no check: operator-only');
    expect(r.stdout).not.toContain('no such section');
  });

  it('lists checks with id, title and spec sections', async () => {
    const r = await run(['list', '--suite', 'auth']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('auth.missing-partner-key-refused-401');
    expect(r.stdout).toContain('spec: Authentication');
    expect(r.stdout).not.toContain('fixtures.');
  });
});

describe('svc-certify serve', () => {
  it('--list-faults prints "id  summary" lines and exits 0', async () => {
    const r = await run(['serve', '--list-faults']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^[a-z0-9.-]+ {2,}\S/);
  });

  it('--list-variants prints "id  summary" lines and exits 0', async () => {
    const r = await run(['serve', '--list-variants']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(12);
    for (const line of lines) expect(line).toMatch(/^[a-z0-9.-]+ {2,}\S/);
    expect(r.stdout).toContain('users.strict-role-list');
  });

  async function serveWithProvision(
    extra: string[],
  ): Promise<{ stop: () => Promise<number | null>; provision: Record<string, unknown>; dir: string }> {
    const dir = tmp();
    const file = join(dir, 'provision.json');
    const child = start(['serve', '--time-scale', '60', '--provision', file, ...extra], { cwd: dir });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const deadline = Date.now() + 20_000;
    while (!/listening on http/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const provision = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(out).not.toContain(String(provision.partner_key));
    return {
      provision,
      dir,
      async stop() {
        child.kill('SIGINT');
        const [code] = (await once(child, 'exit')) as [number | null];
        return code;
      },
    };
  }

  function runArgs(p: Record<string, unknown>): string[] {
    return [...provisionedRunArgs(p), '--report-dir', 'r'];
  }

  /** Every input the served sandbox provisions, so the verdict can be `certified` (the quota check's code included). */
  function fullArgs(p: Record<string, unknown>): string[] {
    return [...runArgs(p), '--exhaust-limits'];
  }

  it('--provision writes the keys a certifier needs, and `run --base-url` certifies it (the worked example of docs/getting-started.md)', async () => {
    // The receiver's address must be known before the sandbox registers it: take a free port.
    const port = await freePort();
    const s = await serveWithProvision([
      '--webhook-url',
      `http://127.0.0.1:${port}/hooks`,
      '--allow-loopback-webhooks',
    ]);
    try {
      const p = s.provision;
      expect(Object.keys(p).sort()).toEqual(
        [
          'activation_codes',
          'base_url',
          'disabled_org_token',
          'disabled_partner_key',
          'expired_code',
          'org_token',
          'other_partner_key',
          'partner_key',
          'webhook_secret',
        ].sort(),
      );
      expect(String(p.base_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect((p.activation_codes as string[]).length).toBeGreaterThanOrEqual(4);
      const cwd = tmp();
      const r = await run([...fullArgs(p), '--webhook-listen', `127.0.0.1:${port}`], { cwd });
      expect(r.stderr).toBe('');
      expect(
        r.code,
        r.stdout
          .split('\n')
          .filter((l) => l.includes('✗') || l.includes('!'))
          .join('\n'),
      ).toBe(0);
      // The webhook checks ran against real deliveries, not skipped for want of a receiver.
      const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
        verdict: string;
        checks: Array<{ id: string; status: string; skipKind?: string }>;
      };
      expect(results.checks.find((c) => c.id === 'webhooks.signature-verifies')?.status).toBe('passed');
      expect(results.verdict).toBe('certified');
      expect(
        results.checks.filter((c) => c.status === 'skipped' && c.skipKind !== 'not-applicable').map((c) => c.id),
      ).toEqual([]);
      expectNoLeak(r, cwd, [
        String(p.partner_key),
        String(p.webhook_secret),
        String(p.disabled_org_token),
        String(p.disabled_partner_key),
        String(p.other_partner_key),
      ]);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('a real target given only its partner key is incomplete (exit 3), naming what would run the rest', async () => {
    const s = await serveWithProvision([]);
    try {
      const cwd = tmp();
      // The partner key only: every other input missing.
      const keyOnly = [
        'run',
        '--base-url',
        String(s.provision.base_url),
        '--partner-key',
        String(s.provision.partner_key),
        '--time-scale',
        '60',
      ];
      const r = await run([...keyOnly, '--reporter', 'console,json', '--report-dir', 'r'], { cwd });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toMatch(/^Incomplete: /m);
      expect(r.stdout).toMatch(/--org-token or an activation code would run \d+ checks/);
      const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
        verdict: string;
        summary: { failed: number };
        missing: Array<{ kind: string; what: string }>;
      };
      expect(results.verdict).toBe('incomplete');
      expect(results.summary.failed).toBe(0);
      expect(results.missing.map((m) => m.what)).toEqual(
        expect.arrayContaining([
          '--org-token or an activation code',
          '--expired-code',
          '--webhook-secret (with --webhook-public-url)',
        ]),
      );
      // --strict turns a missing input into a failed gate.
      const strict = await run([...keyOnly, '--reporter', 'json', '--report-dir', 'r2', '--strict'], { cwd });
      expect(strict.code).toBe(1);
    } finally {
      await s.stop();
    }
  });

  it('a sandbox started with a fault fails the check meant to catch it (exit 1)', async () => {
    const s = await serveWithProvision(['--fault', 'conventions.message-not-localized']);
    try {
      const cwd = tmp();
      const r = await run([...runArgs(s.provision), '--suite', 'conventions', '--reporter', 'json'], { cwd });
      expect(r.code).toBe(1);
      const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
        checks: Array<{ id: string; status: string }>;
      };
      const failed = results.checks.filter((c) => c.status === 'failed').map((c) => c.id);
      expect(failed).toContain('conventions.message-hebrew-for-lang-he');
    } finally {
      await s.stop();
    }
  });

  it('a sandbox started with conformant variants passes (exit 0), its warnings in results.json and junit.xml', async () => {
    const s = await serveWithProvision([
      '--variant',
      'users.strict-role-list',
      '--variant',
      'json.decision-counts-as-decimals',
    ]);
    try {
      const cwd = tmp();
      const args = [...runArgs(s.provision), '--suite', 'users,decisions', '--reporter', 'json,junit'];
      const r = await run(args, { cwd });
      expect(r.code, r.stderr).toBe(0);
      const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
        summary: { failed: number; warning: number };
      };
      expect(results.summary.failed).toBe(0);
      expect(results.summary.warning).toBeGreaterThan(0);
      expect(readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8')).toContain(
        '<system-out><![CDATA[WARNING: the decisions answer writes accepted as',
      );
    } finally {
      await s.stop();
    }
  });
});
