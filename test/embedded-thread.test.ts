// `svc-certify run` runs its embedded sandbox in a worker thread: the sandbox answers while the
// certifier's thread can run nothing at all. Shown by order, not by time: this thread blocks in
// execFileSync on a child process whose one request the sandbox must answer for the child to end. With
// the sandbox on this thread the child would wait until killed (the guard below), never printing the
// status. The worker starts from the build (dist/), as the launcher runs it.

import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { SUITE_ORDER } from '../suites/index.js';

type Embedded = typeof import('../src/embedded/embedded-target.js');
const BUILT = fileURLToPath(new URL('../dist/src/embedded/embedded-target.js', import.meta.url));
/** Only kills a child left waiting forever (the failure this test catches); a passing run never nears it. */
const DEADLOCK_GUARD_MS = 60_000;

describe('the embedded target of run', () => {
  it('answers from its own thread while the certifier thread is blocked', async () => {
    const { startEmbeddedTarget } = (await import(BUILT)) as Embedded;
    const base = loadConfig({ flags: { timeScale: '60' }, env: {}, cwd: tmpdir(), knownSuites: SUITE_ORDER });
    const target = await startEmbeddedTarget(base, { timeScale: 60, rateLimit: 120 });
    try {
      expect(target.sandbox).toBeUndefined();
      const child = `fetch(process.argv[1] + '/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => console.log(r.status))`;
      const out = execFileSync(process.execPath, ['-e', child, target.config.baseUrl!], {
        encoding: 'utf8',
        timeout: DEADLOCK_GUARD_MS,
      });
      // No partner key: the sandbox itself answered 401.
      expect(out.trim()).toBe('401');
    } finally {
      await target.close();
    }
  });
});
