// Spawns the real launcher (bin/svc-certify.js → dist/) the way a user does.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

/** A served sandbox (`svc-certify serve --provision`): what it provisioned, and how to end it. */
export interface ServedSandbox {
  /** The provision file as `serve` wrote it. */
  provision: Record<string, string | string[]>;
  /** The folder it runs in, which holds provision.json. */
  dir: string;
  /** Sends `signal` (SIGINT unless given) and resolves to its exit code once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `svc-certify serve --time-scale 60 --provision provision.json` with `extra` arguments, in `dir`;
 * resolves once it listens and the provision file is written (a serve that exits first is an error
 * naming what it printed).
 */
export async function serveProvisioned(extra: string[] = [], dir = tmp('svc-served-')): Promise<ServedSandbox> {
  const file = join(dir, 'provision.json');
  const child = start(['serve', '--time-scale', '60', '--provision', file, ...extra], { cwd: dir });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  while (!/listening on http/.test(out) || !existsSync(file)) {
    if (child.exitCode !== null) throw new Error(`serve did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    provision: JSON.parse(readFileSync(file, 'utf8')) as ServedSandbox['provision'],
    dir,
    async stop(signal: NodeJS.Signals = 'SIGINT') {
      const exited = child.exitCode !== null || child.signalCode !== null ? undefined : once(child, 'exit');
      child.kill(signal);
      await exited;
      return child.exitCode;
    },
  };
}

/**
 * The code block of `page` (its text `text`) that follows `<!-- tested: name -->`, of the language
 * `lang` (any when not given): the pages' tested examples, run as written.
 */
export function testedBlock(text: string, page: string, name: string, lang = '[a-z]*'): string {
  const m = new RegExp(`<!-- tested: ${name} -->\\s*\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
  if (!m) throw new Error(`${page} has no ${lang === 'sh' ? 'sh ' : 'code '}block marked <!-- tested: ${name} -->`);
  return m[1]!;
}

/** A `bin` folder in `dir` holding `svc-certify`, the built launcher, for a page's commands to find on PATH. */
export function launcherOnPath(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'svc-certify'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'svc-certify'), 0o755);
  return bin;
}

/** `script` run by bash with -e and pipefail, as a CI runner or a careful user runs a page's block. */
export async function runBash(script: string, opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  const child = spawn('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stdout, stderr };
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
