// `npm run bench:cli`: the cold start of `svc-certify --help` against that of `node -e 0` (goal: at
// most 1.5 times as long) and the wall time of `svc-certify run` against the embedded sandbox. The two
// starts are timed alternately, many times, and compared by their medians, so that a machine busy
// with other work slows both alike rather than whichever happened to run during a burst.

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
// Without the developer's SVC_* variables: one would make --help check it (and warn).
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_'))),
  NO_COLOR: '1',
  CI: '1',
};

/** How many times each start is timed. */
const STARTS = Number(process.env.CLI_BENCH_STARTS ?? 40);
/** The cold start of `--help` may take at most this many times that of a Node.js doing nothing. */
const GOAL_RATIO = 1.5;

function timeOnce(nodeArgs: string[], cwd: string): { ms: number; status: number | null } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, nodeArgs, { cwd, env, stdio: 'ignore' });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, status: r.status };
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const cwd = mkdtempSync(join(tmpdir(), 'svc-bench-'));
try {
  const bare = ['-e', '0'];
  const help = [bin, '--help'];
  // Warm the file cache, as a second invocation would find it.
  timeOnce(bare, cwd);
  timeOnce(help, cwd);
  const bareMs: number[] = [];
  const helpMs: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    bareMs.push(timeOnce(bare, cwd).ms);
    helpMs.push(timeOnce(help, cwd).ms);
  }
  const ratio = median(helpMs) / median(bareMs);
  console.log(
    `svc-certify --help cold start: median ${median(helpMs).toFixed(0)} ms against ${median(bareMs).toFixed(0)} ms for node -e 0 ` +
      `(${STARTS} alternating starts each): ${ratio.toFixed(2)} × (goal ≤ ${GOAL_RATIO} ×)`,
  );

  const full = timeOnce([bin, 'run', '--embedded', '--report-dir', join(cwd, 'reports')], cwd);
  console.log(
    `svc-certify run (embedded sandbox, time scale 60): ${(full.ms / 1000).toFixed(1)} s, exit ${full.status}`,
  );
  if (full.status !== 0) process.exitCode = 1;
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
