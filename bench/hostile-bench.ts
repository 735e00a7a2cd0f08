// `npm run bench:hostile`: every row of the hostile matrix (test/support/hostile-matrix.ts) through
// the built CLI, one child process each, as a table: `case | tested in | outcome | peak RSS MB |
// seconds | after signal s`. Goals: the row's exit code, under PEAK_RSS_BOUND_MB, within
// SIGNAL_EXIT_BOUND_S of a signal. HOSTILE_BIN=path/to/bin runs another build (the numbers before a
// change); HOSTILE_ONLY=name,… runs some rows; HOSTILE_KILL_MB kills a child past that peak.

import { MATRIX, PEAK_RSS_BOUND_MB, SIGNAL_EXIT_BOUND_S } from '../test/support/hostile-matrix.js';
import { outcomeOf, runRow } from '../test/support/hostile-run-row.js';

/** A run still going past this is killed and shown as such: an unbounded case must not take the machine. */
const KILL_ABOVE_MB = Number(process.env.HOSTILE_KILL_MB ?? 4096);

const only = process.env.HOSTILE_ONLY?.split(',');
const rows: string[][] = [['case', 'tested in', 'outcome', 'peak RSS MB', 'seconds', 'after signal s']];
let failed = 0;
for (const row of MATRIX) {
  if (only && !only.includes(row.name)) continue;
  const r = await runRow(row, { killAboveMb: KILL_ABOVE_MB });
  const after = r.run.secondsAfterSignal;
  const ok =
    r.run.code === row.expect.code &&
    r.run.interruptError === undefined &&
    r.problem === undefined &&
    r.run.peakRssMb <= PEAK_RSS_BOUND_MB &&
    (after === undefined || after <= SIGNAL_EXIT_BOUND_S);
  if (!ok) failed++;
  const outcome = `${outcomeOf(r)}${r.run.code === row.expect.code ? '' : ` (expected exit ${row.expect.code})`}${
    (r.run.interruptError ?? r.problem) ? ` (${r.run.interruptError ?? r.problem})` : ''
  }`;
  rows.push([
    row.name,
    row.testedIn.replace(/^test\//, ''),
    outcome,
    r.run.peakRssMb.toFixed(0),
    r.run.seconds.toFixed(2),
    after === undefined ? '' : after.toFixed(2),
  ]);
  console.error(`${row.name}: ${outcome}, ${r.run.peakRssMb.toFixed(0)} MB, ${r.run.seconds.toFixed(2)} s`);
}
const widths = rows[0]!.map((_h, i) => Math.max(...rows.map((r) => r[i]!.length)));
const line = (r: string[]): string => `| ${r.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
console.log([line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n'));
console.log(
  `bench:hostile: ${rows.length - 1 - failed}/${rows.length - 1} as expected, under ${PEAK_RSS_BOUND_MB} MB and within ${SIGNAL_EXIT_BOUND_S} s of a signal`,
);
if (failed > 0) process.exitCode = 1;
