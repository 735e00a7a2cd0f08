// Runs the built CLI as a child process and measures it honestly: its own peak RSS (the kernel's
// high-water mark, not a sample of the parent) and its wall time. Shared by the hostile-input tests
// of every command: `runMeasured(['scan', …])`, `runMeasured(['run', …])`.
//
// Two measures, the larger wins: the child writes `process.resourceUsage().maxRSS` on exit (a tiny
// module given with `--import`, so the CLI is unchanged), and the parent polls /proc/<pid>/status
// VmHWM meanwhile, which still holds when the child dies without an exit event (heap exhausted,
// killed). A child past `killAboveMb` or `timeoutMs` is killed at once: a test of the old, unbounded
// behaviour must fail fast instead of taking gigabytes and minutes of a shared machine.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanEnv } from '../cli-support.js';

export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The child's peak resident set, in MB (MiB). */
  peakRssMb: number;
  seconds: number;
  /** Set when the helper killed the child: past `killAboveMb`, or past `timeoutMs`. */
  killed?: 'memory' | 'time';
  /** With `interrupt`: seconds from the signal sent to the child's exit. */
  secondsAfterSignal?: number;
  /** With `interrupt`: what its `before` threw (the signal is sent all the same). */
  interruptError?: string;
}

/** A signal sent mid-work: once `whenOutput` has been printed (stdout or stderr), then `afterMs` later. */
export interface Interrupt {
  signal: 'SIGTERM' | 'SIGINT';
  whenOutput?: RegExp;
  /** Run after `whenOutput` and before the wait (a load the signal must cut through). */
  before?: () => Promise<void>;
  afterMs?: number;
}

export interface MeasureOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the child when its peak RSS passes this (MB). Default 2048. */
  killAboveMb?: number;
  /** Kill the child after this long. Default 120 s. */
  timeoutMs?: number;
  /** The launcher to run; default the package's bin/svc-certify.js (HOSTILE_BIN overrides it, to measure another build). */
  bin?: string;
  /** Extra node options placed before the launcher. */
  nodeArgs?: string[];
  interrupt?: Interrupt;
}

/** The package folder, found upwards: this module also runs compiled, from dist/test/support (bench:hostile). */
function packageRoot(from: string): string {
  for (let d = from; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) && existsSync(join(d, 'bin', 'svc-certify.js'))) return d;
    if (dirname(d) === d) throw new Error(`no package folder above ${from}`);
  }
}

export const PACKAGE_BIN = join(packageRoot(import.meta.dirname), 'bin', 'svc-certify.js');

const RSS_FILE_ENV = 'PEAK_RSS_FILE';
// Kept inline (a data: URL) so that it needs no build and no file next to the CLI.
const PROBE = `import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  try { writeFileSync(process.env.${RSS_FILE_ENV}, String(process.resourceUsage().maxRSS)); } catch {}
});`;
const PROBE_URL = `data:text/javascript,${encodeURIComponent(PROBE)}`;
const POLL_MS = 25;

/** VmHWM of a live process, in KB (0 when it is gone or /proc is not there). */
function highWaterKb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export async function runMeasured(args: string[], opts: MeasureOptions = {}): Promise<MeasuredRun> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-peak-rss-'));
  const rssFile = join(dir, 'max-rss-kb');
  const bin = opts.bin ?? process.env.HOSTILE_BIN ?? PACKAGE_BIN;
  const killAboveKb = (opts.killAboveMb ?? 2048) * 1024;
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--import', PROBE_URL, ...(opts.nodeArgs ?? []), bin, ...args], {
    cwd: opts.cwd ?? dir,
    env: cleanEnv({ ...opts.env, [RSS_FILE_ENV]: rssFile }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  let polledKb = 0;
  let killed: MeasuredRun['killed'];
  const stop = (why: 'memory' | 'time'): void => {
    if (killed === undefined && child.exitCode === null) {
      killed = why;
      child.kill('SIGKILL');
    }
  };
  const poll = setInterval(() => {
    if (child.pid === undefined) return;
    polledKb = Math.max(polledKb, highWaterKb(child.pid));
    if (polledKb > killAboveKb) stop('memory');
  }, POLL_MS);
  const timer = setTimeout(() => stop('time'), opts.timeoutMs ?? 120_000);
  let signalledAt: bigint | undefined;
  let interruptError: string | undefined;
  const interrupt = opts.interrupt;
  if (interrupt) {
    void (async () => {
      while (interrupt.whenOutput && !interrupt.whenOutput.test(stdout + stderr) && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 20));
      await interrupt.before?.().catch((e: unknown) => (interruptError = e instanceof Error ? e.message : String(e)));
      await new Promise((r) => setTimeout(r, interrupt.afterMs ?? 0));
      if (child.exitCode !== null || killed) return;
      signalledAt = process.hrtime.bigint();
      child.kill(interrupt.signal);
    })();
  }
  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done, fail) => {
      child.on('error', fail);
      child.on('close', (c, s) => done([c, s]));
    });
    const ended = process.hrtime.bigint();
    const seconds = Number(ended - started) / 1e9;
    const secondsAfterSignal = signalledAt === undefined ? undefined : Number(ended - signalledAt) / 1e9;
    const reportedKb = Number(await readFile(rssFile, 'utf8').catch(() => '0')) || 0;
    const peakRssMb = Math.max(reportedKb, polledKb) / 1024;
    return {
      code,
      signal,
      stdout,
      stderr,
      peakRssMb,
      seconds,
      ...(killed ? { killed } : {}),
      ...(secondsAfterSignal !== undefined ? { secondsAfterSignal } : {}),
      ...(interruptError !== undefined ? { interruptError } : {}),
    };
  } finally {
    clearInterval(poll);
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}
