// `npm run bench:cli`: the cold start of `svc-certify --help` (median of 10 spawns; goal < 200 ms)
// and the wall time of `svc-certify run` against the embedded sandbox.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  // dist/bench/cli-bench.js or bench/cli-bench.ts
  const here = fileURLToPath(new URL('.', import.meta.url));
  return here.includes(`${join('dist', 'bench')}`) ? resolve(here, '..', '..') : resolve(here, '..');
}

const bin = join(findRoot(), 'bin', 'svc-certify.js');
const env = { ...process.env, NO_COLOR: '1', CI: '1' };

function timeOnce(args: string[], cwd: string): { ms: number; status: number | null } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, env, stdio: 'ignore' });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, status: r.status };
}

const cwd = mkdtempSync(join(tmpdir(), 'svc-bench-'));
try {
  timeOnce(['--help'], cwd); // warm the file cache, as a second invocation would be
  const samples = Array.from({ length: 10 }, () => timeOnce(['--help'], cwd).ms).sort((a, b) => a - b);
  const median = (samples[4]! + samples[5]!) / 2;
  console.log(
    `svc-certify --help cold start: median ${median.toFixed(0)} ms of 10 (min ${samples[0]!.toFixed(0)}, max ${samples[9]!.toFixed(0)}; goal < 200 ms)`,
  );

  const full = timeOnce(['run', '--report-dir', join(cwd, 'reports')], cwd);
  console.log(
    `svc-certify run (embedded sandbox, time scale 60): ${(full.ms / 1000).toFixed(1)} s, exit ${full.status}`,
  );
  if (full.status !== 0) process.exitCode = 1;
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
