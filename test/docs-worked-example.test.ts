// The worked example of docs/getting-started.md, executed as written: its shell block is taken from the
// page (marked `<!-- tested: worked-example -->`), shell 1 runs in the background with bash, shell 2 with bash
// -e, against the built launcher on PATH as `svc-certify`. Only the two port numbers are swapped for
// free ones (a CI machine may have 8080 taken). A quoting error in the page fails this test.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, freePort, launcherOnPath, ROOT, runBash, testedBlock, tmp } from './cli-support.js';

const PAGE = 'docs/getting-started.md';
const TEXT = readFileSync(join(ROOT, PAGE), 'utf8');

describe('the worked example of docs/getting-started.md, run with bash as written', () => {
  it('shell 1 serves, shell 2 certifies it: Certified, exit 0', async () => {
    const text = testedBlock(TEXT, PAGE, 'worked-example', 'sh');
    const at = text.indexOf('# shell 2');
    expect(at).toBeGreaterThan(0);
    const [apiPort, hookPort] = [await freePort(), await freePort()];
    const ports = (s: string): string => s.replaceAll('8080', String(apiPort)).replaceAll('8787', String(hookPort));
    const shell1 = ports(text.slice(0, at));
    const shell2 = ports(text.slice(at));

    const cwd = tmp('svc-readme-');
    const bin = launcherOnPath(cwd);
    const env = cleanEnv({ PATH: `${bin}:${process.env.PATH ?? ''}` });

    const serve = spawn('bash', ['--noprofile', '--norc', '-e', '-c', `exec ${shell1.replace(/^#.*$/gm, '').trim()}`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let served = '';
    serve.stdout.on('data', (d: Buffer) => (served += d.toString('utf8')));
    serve.stderr.on('data', (d: Buffer) => (served += d.toString('utf8')));
    try {
      const deadline = Date.now() + 20_000;
      while (!/listening on http/.test(served) || !existsSync(join(cwd, 'provision.json'))) {
        if (Date.now() > deadline || serve.exitCode !== null)
          throw new Error(`shell 1 did not start the sandbox: ${served}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const { code, stdout: out, stderr: err } = await runBash(shell2, { cwd, env });
      expect(err).toBe('');
      expect(
        code,
        out
          .split('\n')
          .filter((l) => /[✗!○]/.test(l))
          .join('\n'),
      ).toBe(0);
      expect(out).toMatch(/^Certified: /m);
      const results = JSON.parse(readFileSync(join(cwd, 'reports', 'results.json'), 'utf8')) as { verdict: string };
      expect(results.verdict).toBe('certified');
    } finally {
      serve.kill('SIGTERM');
      await new Promise((r) => serve.on('close', r));
    }
    // serve's normal end: the first SIGTERM.
    expect(serve.exitCode).toBe(0);
  }, 90_000);
});
