// --activation-code-command CMD (SVC_ACTIVATION_CODE_COMMAND): an unattended certification takes its
// single-use codes from a helper, the way git credential helpers and kubectl exec plugins hand out
// credentials. CMD runs through the shell once for each code the certification needs and prints one
// unused code on the first line of its stdout. Anything else (a non-zero exit, no code, a time-out) is a
// set-up error: exit 2 with one line. The line never shows what CMD printed in full: a code that
// failed validation may still be a live one.

import { spawn } from 'node:child_process';
import { ConfigError } from './config-error.js';
import { normalizeActivationCode } from './activation-code.js';

/** How long one call may take: a helper that asks a vault or an API answers within seconds. */
const CODE_COMMAND_TIMEOUT_MS = 30_000;
/** What is read of its stdout: one code and a line break, with room for a banner the helper prints first. */
const MAX_STDOUT_BYTES = 64 * 1024;
/** What an error line shows of the helper's stderr (the reason it gives), never of its stdout. */
const STDERR_SHOWN = 120;

const OPTION = '--activation-code-command';

export interface CodeCommandOptions {
  timeoutMs?: number;
  /** The environment CMD runs in (default: this process's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Runs CMD `count` times, one after the other, and returns the codes in canonical form. */
export async function codesFromCommand(cmd: string, count: number, opts: CodeCommandOptions = {}): Promise<string[]> {
  const codes: string[] = [];
  for (let call = 1; call <= count; call++) {
    const at = count > 1 ? ` (call ${call} of ${count})` : '';
    const out = await runOnce(cmd, opts, at);
    const first = out.split(/\r?\n/, 1)[0]?.trim() ?? '';
    if (first === '')
      throw new ConfigError(
        `${OPTION}${at} printed no activation code on its first line: it must print one unused code`,
      );
    const code = normalizeActivationCode(first);
    if (!code)
      throw new ConfigError(
        `${OPTION}${at} printed a first line that is not an activation code SVC-XXXX-XXXX (${first.length} characters, starting "${first.slice(0, 4)}")`,
      );
    if (codes.includes(code))
      throw new ConfigError(`${OPTION}${at} printed a code it already handed out: each call must print an unused code`);
    codes.push(code);
  }
  return codes;
}

function runOnce(cmd: string, opts: CodeCommandOptions, at: string): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? CODE_COMMAND_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, {
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: opts.env ?? process.env,
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      // Its own process group, so a time-out ends the helper and whatever it started.
      detached: process.platform !== 'win32',
    });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const done = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const kill = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      kill();
      done(() =>
        reject(new ConfigError(`${OPTION}${at} gave no code within ${timeoutMs / 1000} s: it must print one and exit`)),
      );
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      if (stdout.length < MAX_STDOUT_BYTES) stdout += d;
    });
    child.stderr.on('data', (d: string) => {
      if (stderr.length < MAX_STDOUT_BYTES) stderr += d;
    });
    child.on('error', (e) => done(() => reject(new ConfigError(`${OPTION}${at} could not be started: ${e.message}`))));
    child.on('close', (code, signal) => {
      if (code === 0) return done(() => resolve(stdout));
      const why = signal ? `was ended by ${signal}` : `exited with status ${code}`;
      done(() => reject(new ConfigError(`${OPTION}${at} ${why}${reasonOf(stderr)}`)));
    });
  });
}

/** The helper's own first line of stderr, short and on one line, with anything shaped like a code cut. */
function reasonOf(stderr: string): string {
  const line = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!line) return '';
  const safe = line.replace(/SVC[-\s]?[A-Z0-9]{4}[-\s]?[A-Z0-9]{4}/gi, 'SVC-…');
  return `: ${safe.length > STDERR_SHOWN ? `${safe.slice(0, STDERR_SHOWN)}…` : safe}`;
}
