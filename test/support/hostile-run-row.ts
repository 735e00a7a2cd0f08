// Runs one row of the hostile matrix (test/support/hostile-matrix.ts) through the built CLI in a
// fresh folder, measured (peak RSS, seconds, seconds after the signal), with what it wrote: shared
// by test/hostile-matrix.test.ts and bench/hostile-bench.ts.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatrixRow } from './hostile-matrix.js';
import { runMeasured, type MeasuredRun } from './peak-rss.js';

export const ROW_REPORT_FILES = ['results.json', 'junit.xml', 'report.html', 'summary.md'];

export interface RowRun {
  run: MeasuredRun;
  reports: string[];
  verdict?: string;
  /** results.json, parsed, when written. */
  results?: unknown;
  /** What the row's `verify` found wrong. */
  problem?: string;
}

export async function runRow(row: MatrixRow, opts: { killAboveMb?: number } = {}): Promise<RowRun> {
  const dir = mkdtempSync(join(tmpdir(), `svc-hostile-${row.name}-`));
  const prepared = await row.prepare(dir);
  try {
    // serve and baseline write no reports (and have no --report-dir).
    const reportArgs = prepared.args[0] === 'serve' || prepared.args[0] === 'baseline' ? [] : ['--report-dir', 'out'];
    const run = await runMeasured([...prepared.args, ...reportArgs], {
      cwd: dir,
      killAboveMb: opts.killAboveMb ?? 1024,
      timeoutMs: row.maxSeconds * 1000 * 2,
      ...(prepared.env ? { env: prepared.env } : {}),
      ...(prepared.interrupt ? { interrupt: prepared.interrupt } : {}),
    });
    const out = join(dir, 'out');
    const reports = existsSync(out) ? readdirSync(out).sort() : [];
    const results: unknown = reports.includes('results.json')
      ? JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'))
      : undefined;
    const verdict = (results as { verdict?: string } | undefined)?.verdict;
    const outputs = [
      ...reports.map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') })),
      { name: 'stdout', text: run.stdout },
      { name: 'stderr', text: run.stderr },
    ];
    const problem = row.verify?.(results) ?? row.verifyOutputs?.(outputs, dir);
    return {
      run,
      reports,
      ...(verdict !== undefined ? { verdict } : {}),
      ...(results !== undefined ? { results } : {}),
      ...(problem !== undefined ? { problem } : {}),
    };
  } finally {
    await prepared.cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The row's outcome in one cell: `exit 143 interrupted, 4 reports` or why it was killed. */
export function outcomeOf(r: RowRun): string {
  if (r.run.killed) return `killed (${r.run.killed})`;
  if (r.run.signal) return `signal ${r.run.signal}`;
  const requests = (r.results as { stats?: { requests?: number } } | undefined)?.stats?.requests;
  return `exit ${r.run.code}${r.verdict ? ` ${r.verdict}` : ''}, ${r.reports.length} reports${
    requests !== undefined ? `, ${requests} requests` : ''
  }`;
}
