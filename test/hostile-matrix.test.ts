// The hostile matrix, run by CI: every row of test/support/hostile-matrix.ts whose
// `testedIn` is this file, through the built CLI in a child process, held to its outcome (exit code,
// verdict, reports written or not), PEAK_RSS_BOUND_MB measured on the child, its time bound and,
// for a row that sends a signal mid-work, SIGNAL_EXIT_BOUND_S from the signal to the exit.
// Needs the build (`npm run build`). `npm run bench:hostile` prints every row.

import { describe, expect, it } from 'vitest';
import { MATRIX, PEAK_RSS_BOUND_MB, SIGNAL_EXIT_BOUND_S } from './support/hostile-matrix.js';
import { outcomeOf, ROW_REPORT_FILES, runRow } from './support/hostile-run-row.js';
import { ASSERTED_NOTHING } from '../src/runner/outcome.js';

/** The checks of a results.json that ended `error` for having judged nothing (what a signal must never cause), with why. */
function errorsOf(results: unknown): string[] {
  const checks = (results as { checks?: Array<{ id: string; status: string; message: string }> } | undefined)?.checks;
  return (checks ?? [])
    .filter((c) => c.status === 'error' && c.message === ASSERTED_NOTHING)
    .map((c) => `${c.id}: ${c.message}`);
}

const ROWS = MATRIX.filter((r) => r.testedIn === 'test/hostile-matrix.test.ts');

describe.skipIf(process.platform !== 'linux')('the hostile matrix', () => {
  it.each(ROWS.map((r) => [r.name, r] as const))(
    '%s',
    async (_name, row) => {
      const r = await runRow(row);
      const summary = `${row.what}: ${outcomeOf(r)}, ${r.run.peakRssMb.toFixed(0)} MB, ${r.run.seconds.toFixed(1)} s${r.run.secondsAfterSignal !== undefined ? ` (${r.run.secondsAfterSignal.toFixed(2)} s after the signal)` : ''}; stderr: ${r.run.stderr.slice(-400)}`;
      console.log(`hostile ${row.name}: ${summary.split('; stderr')[0]}`);
      expect(r.run.killed, summary).toBeUndefined();
      expect(r.run.interruptError, summary).toBeUndefined();
      expect(r.problem, summary).toBeUndefined();
      expect(r.run.code, summary).toBe(row.expect.code);
      if (row.expect.verdict) expect(r.verdict, summary).toBe(row.expect.verdict);
      expect(r.reports, summary).toEqual(
        // Every exit 2 after the options are read writes its error reports too.
        row.expect.reports || row.expect.code === 2 ? [...(row.expect.reportFiles ?? ROW_REPORT_FILES)].sort() : [],
      );
      if (row.expect.stderr) expect(r.run.stderr).toMatch(row.expect.stderr);
      expect(r.run.peakRssMb, summary).toBeLessThanOrEqual(PEAK_RSS_BOUND_MB);
      expect(r.run.seconds, summary).toBeLessThanOrEqual(row.maxSeconds);
      // A check still running at the signal is `interrupted`, never an engine `error` for judging nothing.
      if (row.expect.code === 130 || row.expect.code === 143) expect(errorsOf(r.results), summary).toEqual([]);
      if (row.expect.code === 143 || row.name.endsWith('-sigterm')) {
        expect(r.run.secondsAfterSignal, summary).toBeDefined();
        expect(r.run.secondsAfterSignal!, summary).toBeLessThanOrEqual(SIGNAL_EXIT_BOUND_S);
      }
    },
    // The harness's guard, not a bound of the row (that is `maxSeconds`, asserted above): it also covers
    // reading every output of multi-megabyte reports for secrets in every disguise, which a loaded
    // machine slows most.
    300_000,
  );
});
