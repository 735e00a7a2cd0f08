// `npm run bench:hostile`: every hostile input of test/support/hostile-inputs.ts run through the
// built CLI, one child process each, with its exit code, peak RSS and wall time, as a table:
// `case | outcome | peak RSS MB | seconds`. Goals: the expected exit code, under 512 MB, in seconds.
// Another command's hostile cases are one more list in BENCH_CASES. HOSTILE_BIN=path/to/bin runs
// another build (the numbers before a change); HOSTILE_ONLY=name,… runs some cases.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCAN_CASES, type HostileCase } from '../test/support/hostile-inputs.js';
import { runMeasured } from '../test/support/peak-rss.js';

const BENCH_CASES: HostileCase[] = [...SCAN_CASES];
const PEAK_GOAL_MB = 512;
/** A run still going past this is killed and shown as such: an unbounded case must not take the machine. */
const KILL_ABOVE_MB = Number(process.env.HOSTILE_KILL_MB ?? 4096);
const TIMEOUT_MS = Number(process.env.HOSTILE_TIMEOUT_MS ?? 300_000);

const only = process.env.HOSTILE_ONLY?.split(',');
const rows: string[][] = [['case', 'outcome', 'peak RSS MB', 'seconds']];
let failed = 0;
for (const c of BENCH_CASES) {
  if (only && !only.includes(c.name)) continue;
  const dir = mkdtempSync(join(tmpdir(), 'svc-hostile-bench-'));
  try {
    const args = await c.prepare(dir);
    const r = await runMeasured([...args, '--report-dir', 'report', '--reporter', 'json'], { cwd: dir, killAboveMb: KILL_ABOVE_MB, timeoutMs: TIMEOUT_MS });
    const outcome = r.killed
      ? `killed (${r.killed === 'memory' ? `past ${KILL_ABOVE_MB} MB` : `past ${TIMEOUT_MS / 1000} s`})`
      : r.signal
        ? `signal ${r.signal}`
        : `exit ${r.code}${r.code === c.expectedCode ? '' : ` (expected ${c.expectedCode})`}`;
    if (r.code !== c.expectedCode || r.peakRssMb > PEAK_GOAL_MB) failed++;
    rows.push([c.name, outcome, r.peakRssMb.toFixed(0), r.seconds.toFixed(2)]);
    console.error(`${c.name}: ${outcome}, ${r.peakRssMb.toFixed(0)} MB, ${r.seconds.toFixed(2)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const widths = rows[0]!.map((_h, i) => Math.max(...rows.map((r) => r[i]!.length)));
const line = (r: string[]): string => `| ${r.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
console.log([line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n'));
console.log(`bench:hostile: ${rows.length - 1 - failed}/${rows.length - 1} as expected and under ${PEAK_GOAL_MB} MB`);
if (failed > 0) process.exitCode = 1;
