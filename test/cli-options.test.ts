// The one option table through the real CLI (spawned): every option has its SVC_* variable, each kind
// of value read from it (text, validated number, list, switch, negated switch), --help names them for
// every command, an unknown SVC_* variable gets a warning with a suggestion, an option without effect
// in the chosen mode is a usage error, and a secret given to a command is never printed back.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envOf } from '../src/config/option-spec.js';
import { COMMAND_OPTIONS } from '../src/cli/command-options.js';
import { freePort, run, start, tmp } from './cli-support.js';

const KEY = `spk_live_${'9f'.repeat(24)}`;
const SECRET = 'whsec-Q7z9wLmN4pX2';

function oneLineError(r: { code: number | null; stderr: string }, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

describe('every option of every command reads its SVC_* variable', () => {
  it('run: SVC_STRICT=1 is a strict run; lists (SVC_SUITE, SVC_REPORTER) and text (SVC_REPORT_DIR) too', async () => {
    const cwd = tmp();
    const r = await run(['run', '--embedded'], {
      cwd,
      env: { SVC_STRICT: '1', SVC_SUITE: 'conventions', SVC_REPORTER: 'json', SVC_REPORT_DIR: 'from-env' },
    });
    expect(r.stderr).toBe('');
    expect(readdirSync(join(cwd, 'from-env'))).toEqual(['results.json']);
    const results = JSON.parse(readFileSync(join(cwd, 'from-env', 'results.json'), 'utf8')) as {
      config: { strict: boolean; suites: string[] };
      checks: Array<{ suite: string }>;
    };
    expect(results.config.strict).toBe(true);
    expect(results.config.suites).toEqual(['conventions']);
    expect(new Set(results.checks.map((c) => c.suite))).toEqual(new Set(['conventions']));
  });

  it('a switch variable other than 1/0/true/false is a usage error naming it', async () => {
    oneLineError(
      await run(['run', '--embedded'], { env: { SVC_EXHAUST_LIMITS: 'yes' } }),
      /^svc-certify: SVC_EXHAUST_LIMITS must be 1, 0, true or false \(got "yes"\)/,
    );
  });

  /** `serve` with `env`; what it printed until it listened (or stopped), then stopped. */
  async function serveUntilListening(env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
    const child = start(['serve'], { env });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const deadline = Date.now() + 15_000;
    while (!/listening on/.test(stdout) && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
    return { stdout, stderr };
  }

  it('serve: SVC_PORT_NUMBER (a validated number) is where it listens; a bad one is refused before it starts', async () => {
    const port = await freePort();
    const served = await serveUntilListening({ SVC_PORT_NUMBER: String(port) });
    expect(served.stdout).toContain(`listening on http://127.0.0.1:${port}/v1`);
    expect(served.stderr).toBe('');
    oneLineError(
      await run(['serve'], { env: { SVC_PORT_NUMBER: '70000' } }),
      /^svc-certify: SVC_PORT_NUMBER must be a whole number from 0 to 65535 \(got "70000"\)$/m,
    );
  });

  it('serve in a pod beside a Service named svc: SVC_PORT=tcp://… and its kin are not ours, not read, not warned about', async () => {
    const served = await serveUntilListening({
      SVC_PORT: 'tcp://10.96.0.12:80',
      SVC_SERVICE_HOST: '10.96.0.12',
      SVC_SERVICE_PORT: '80',
      SVC_PORT_80_TCP: 'tcp://10.96.0.12:80',
      SVC_PORT_80_TCP_ADDR: '10.96.0.12',
    });
    expect(served.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(served.stderr).toBe('');
  });

  it('serve: the former SVC_PORT with a port number is read for this release, with a warning naming SVC_PORT_NUMBER', async () => {
    const port = await freePort();
    const served = await serveUntilListening({ SVC_PORT: String(port) });
    expect(served.stdout).toContain(`listening on http://127.0.0.1:${port}/v1`);
    expect(served.stderr).toBe(
      'warning: SVC_PORT is read for this release only: rename it SVC_PORT_NUMBER (Kubernetes sets names like SVC_PORT for a Service named svc)\n',
    );
  });

  it('partner: SVC_PROVISION, SVC_DURATION and the negated switch SVC_NO_INJECT', async () => {
    const cwd = tmp();
    const r = await run(['partner'], {
      cwd,
      env: {
        SVC_PROVISION: 'p.json',
        SVC_DURATION: '300ms',
        SVC_NO_INJECT: '1',
        SVC_REPORTER: 'json',
        SVC_REPORT_DIR: 'out',
      },
    });
    expect(r.stdout).toContain('injections off (--no-inject)');
    expect(existsSync(join(cwd, 'p.json'))).toBe(true);
    expect(readdirSync(join(cwd, 'out'))).toEqual(['results.json']);
  });

  it('list: SVC_SUITE and SVC_GREP select; baseline: SVC_UNTIL is validated', async () => {
    const r = await run(['list'], { env: { SVC_SUITE: 'auth', SVC_GREP: 'partner-key' } });
    expect(r.code).toBe(0);
    const ids = r.stdout
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l))
      .map((l) => l.trim());
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^auth\./);
    const cwd = tmp();
    writeFileSync(join(cwd, 'results.json'), JSON.stringify({ checks: [] }));
    oneLineError(
      await run(['baseline', 'results.json'], { cwd, env: { SVC_UNTIL: 'someday' } }),
      /^svc-certify: SVC_UNTIL must be a date YYYY-MM-DD \(got "someday"\)/,
    );
  });

  it('receiver: SVC_RECEIVER_URL, SVC_WEBHOOK_SECRET and SVC_ALLOW_PRIVATE are enough to certify an endpoint', async () => {
    const port = await freePort();
    const r = await run(['receiver', '--reporter', 'console'], {
      env: { SVC_RECEIVER_URL: `http://127.0.0.1:${port}/hook`, SVC_WEBHOOK_SECRET: SECRET, SVC_ALLOW_PRIVATE: 'true' },
    });
    // Nothing listens there: the endpoint is unreachable (exit 2), which it only gets to with all three read.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`127\\.0\\.0\\.1:${port}`));
    expect(r.stderr).not.toMatch(/--url is required|no webhook secret|allow-private/);
  });
});

describe('--help names the environment variable of every option, for every command', () => {
  /** The help of each option: its line and the wrapped lines below it, up to the next option. */
  function blocks(help: string): Map<string, string> {
    const out = new Map<string, string>();
    let current: string | undefined;
    for (const line of help.split('\n')) {
      const flag = /^ {2}(--[a-z-]+)/.exec(line)?.[1];
      if (flag) current = flag;
      else if (/^ {2}-/.test(line) || !/^ {3,}/.test(line)) current = undefined;
      if (current) out.set(current, `${out.get(current) ?? ''} ${line.trim()}`);
    }
    return out;
  }

  it.each(Object.entries(COMMAND_OPTIONS))('%s --help', async (name, specs) => {
    const r = await run([name, '--help']);
    expect(r.code).toBe(0);
    const help = blocks(r.stdout);
    for (const spec of specs) expect(help.get(spec.flag), spec.flag).toMatch(new RegExp(`\\[${envOf(spec)}[\\],]`));
  });
});

describe('unknown SVC_* variables', () => {
  it('get one warning line naming the nearest known variable, and change nothing else', async () => {
    const r = await run(['list', '--suite', 'auth'], { env: { SVC_STRICTT: '1' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('warning: SVC_STRICTT is not a svc-certify variable (did you mean SVC_STRICT?)\n');
  });
});

describe('an option with no effect in the chosen mode is a usage error saying why', () => {
  it.each([
    [
      '--partner-key without --base-url',
      ['run', '--partner-key', KEY],
      {},
      /^svc-certify: --partner-key has no effect without --base-url \(SVC_BASE_URL\): the embedded sandbox provisions its own key/,
    ],
    [
      'SVC_PARTNER_KEY without --base-url',
      ['run'],
      { SVC_PARTNER_KEY: KEY },
      /^svc-certify: SVC_PARTNER_KEY has no effect without --base-url/,
    ],
    [
      '--webhook-listen with the embedded sandbox',
      ['run', '--webhook-listen', '127.0.0.1:8787'],
      {},
      /^svc-certify: --webhook-listen has no effect without --base-url \(SVC_BASE_URL\): the embedded sandbox runs its own webhook receiver/,
    ],
    [
      '--org-token with the embedded sandbox',
      ['run', '--org-token', `sot_${'ab'.repeat(24)}`],
      {},
      /^svc-certify: --org-token has no effect without --base-url/,
    ],
    [
      '--webhook-not-registered with the embedded sandbox',
      ['run', '--webhook-not-registered'],
      {},
      /^svc-certify: --webhook-not-registered has no effect without --base-url: |always registers its receiver/,
    ],
    [
      'serve --allow-loopback-webhooks without --webhook-url',
      ['serve', '--allow-loopback-webhooks'],
      {},
      /^svc-certify: --allow-loopback-webhooks has no effect without --webhook-url \(SVC_WEBHOOK_URL\): the only webhook URL/,
    ],
    [
      'partner SVC_ALLOW_LOOPBACK_WEBHOOKS without --webhook-url',
      ['partner', '--provision', 'p.json'],
      { SVC_ALLOW_LOOPBACK_WEBHOOKS: '1' },
      /^svc-certify: SVC_ALLOW_LOOPBACK_WEBHOOKS has no effect without --webhook-url/,
    ],
  ] as const)('%s', async (_name, args, env, pattern) => {
    const r = await run([...args], { env });
    oneLineError(r, pattern);
    expect(r.stderr).not.toContain(KEY.slice(12));
  });
});

describe('a secret given to a command is never printed back', () => {
  it.each([
    ['run', ['run', '--base-url', 'https://x.example/v1', '--partner-key', KEY, '--webhook-secret', SECRET]],
    ['receiver', ['receiver', '--url', 'http://127.0.0.1:9/hook', '--webhook-secret', SECRET]],
  ] as const)('%s: in what commander echoes of a mistyped option', async (_name, args) => {
    const r = await run([...args, `--webhok-secret=${SECRET}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option/);
    expect(r.stderr).not.toContain(SECRET.slice(8));
  });
});
