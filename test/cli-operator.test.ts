// Operator experience: what a newcomer trips over first (issue "Operator experience").

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tmp } from './cli-support.js';

describe('svc-certify as a newcomer meets it', () => {
  it('a bare `svc-certify` shows the help on stderr and exits 2 (no command ran)', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Usage: svc-certify/);
    expect(r.stderr).toMatch(/no command given/);
  });

  it('`list --grep` matching nothing is exit 2, like `run --grep`', async () => {
    const list = await run(['list', '--grep', 'zzz-no-such-check']);
    const runGrep = await run(['run', '--grep', 'zzz-no-such-check']);
    expect(list.code).toBe(2);
    expect(runGrep.code).toBe(2);
    expect(list.stderr).toMatch(/matches no check/);
  });

  it('`--reporter console` writes no file and creates no report folder', async () => {
    const cwd = tmp();
    const r = await run(['run', '--grep', 'cert-empty', '--reporter', 'console'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(cwd, 'reports'))).toBe(false);
  });
});
