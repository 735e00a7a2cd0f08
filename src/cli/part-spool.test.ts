import { describe, expect, it } from 'vitest';
import type { RunResult } from '../runner/results.js';
import { makePassingRunResult, makeRunResult } from '../../test/report-fixtures.js';
import { redacted } from '../../test/support/redacted.js';
import { reshapeRedacted, type Redacted } from '../config/redacted.js';
import { openPartSpool } from './part-spool.js';

/** A passing run whose first two passed checks hold the same exchange object, as read from a results.json. */
function sharing(): Redacted<RunResult> {
  return reshapeRedacted(redacted(makePassingRunResult()), shareFirstExchange);
}

function shareFirstExchange(result: RunResult): RunResult {
  const withExchange = result.checks.findIndex((c) => c.exchanges.length > 0);
  const exchange = result.checks[withExchange]!.exchanges[0]!;
  const other = result.checks.findIndex((c, i) => i !== withExchange && c.status === 'passed');
  const checks = result.checks.map((c, i) => (i === other ? { ...c, exchanges: [exchange] } : c));
  return { ...result, checks };
}

describe('the spool of report', () => {
  it('gives back every certification added, in order, on every pass: lines past a read chunk, characters split across two', () => {
    const long = makeRunResult();
    // Over the 1 MiB read chunk, in characters of 3 and 4 bytes, so a chunk ends inside one.
    const message = '€😀'.repeat(200_000);
    const parts = [
      redacted(makeRunResult()),
      redacted({ ...long, checks: long.checks.map((c, i) => (i === 1 ? { ...c, message } : c)) }),
      sharing(),
    ];
    const spool = openPartSpool();
    try {
      for (const part of parts) spool.add(part);
      expect([...spool.parts]).toEqual(parts);
      expect([...spool.parts]).toEqual(parts);
    } finally {
      spool.dispose();
    }
  });

  it('writes an exchange a certification repeats once, and gives it back shared, as results.json does', () => {
    const part = sharing();
    const spool = openPartSpool();
    try {
      spool.add(part);
      const [back] = [...spool.parts];
      const holders = back!.checks.filter((c) => c.exchanges.length > 0 && c.status === 'passed');
      const first = holders[0]!.exchanges[0]!;
      expect(holders.filter((c) => c.exchanges.includes(first)).length).toBeGreaterThan(1);
      expect(back).toEqual(part);
    } finally {
      spool.dispose();
    }
  });

  it('is gone once disposed', () => {
    const spool = openPartSpool();
    spool.add(redacted(makeRunResult()));
    expect([...spool.parts]).toHaveLength(1);
    spool.dispose();
    expect(() => [...spool.parts]).toThrow(/ENOENT/);
  });
});
