// Spawns the real launcher (bin/svc-certify.js → dist/) the way a user does.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const BIN = join(ROOT, 'bin', 'svc-certify.js');
export const REPORT_FILES = ['results.json', 'junit.xml', 'report.html', 'summary.md'];

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without any SVC_* variable of the developer's shell. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SVC_')) env[k] = v;
  return { ...env, NO_COLOR: '1', CI: '1', ...extra };
}

export function tmp(prefix = 'svc-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function start(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? tmp(),
    env: cleanEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function run(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Ran> {
  const child = start(args, opts);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** A loopback port free right now (for a server the test starts itself on a known port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The keys `serve --provision` writes and the `run` flag each one goes to. */
const PROVISION_FLAGS = [
  ['base_url', '--base-url'],
  ['partner_key', '--partner-key'],
  ['expired_code', '--expired-code'],
  ['disabled_org_token', '--disabled-org-token'],
  ['disabled_partner_key', '--disabled-partner-key'],
  ['other_partner_key', '--other-partner-key'],
  ['webhook_secret', '--webhook-secret'],
] as const;

export type ProvisionKey = (typeof PROVISION_FLAGS)[number][0];

/** `run` given every input of a provision (but the `omit`ted keys) and its activation codes, at time scale 60. */
export function provisionedRunArgs(p: Record<string, unknown>, omit: readonly ProvisionKey[] = []): string[] {
  const given = PROVISION_FLAGS.filter(([key]) => !omit.includes(key) && p[key] !== undefined);
  const codes = Array.isArray(p['activation_codes']) ? p['activation_codes'].map(String) : [];
  return [
    'run',
    ...given.flatMap(([key, flag]) => [flag, String(p[key])]),
    ...codes.flatMap((code) => ['--activation-code', code]),
    '--time-scale',
    '60',
  ];
}
