import { describe, expect, it } from 'vitest';
import { makeRunResult } from '../../test/report-fixtures.js';
import { summarize, type RunResult } from './results.js';
import { currentVerdict, decideVerdict, exitCodeOf, verdictLabel, verdictOfResult } from './verdict.js';

/** The fixture with only passed checks: what a clean, complete run looks like. */
function passedRun(extra: Partial<RunResult> = {}): RunResult {
  const base = makeRunResult();
  const checks = base.checks.filter((c) => c.status === 'passed');
  const { verdict: _v, missing: _m, ...rest } = base;
  return { ...rest, checks, summary: summarize(checks), ...extra };
}

describe('honest green: certified only for the whole catalogue with nothing accepted', () => {
  it('a complete clean run is certified', () => {
    expect(decideVerdict(passedRun(), false)).toEqual({ verdict: 'certified', missing: [], uncertifiedBy: [] });
  });

  const cases: Array<[string, Partial<RunResult>, string[]]> = [
    ['a selection', { selection: { suites: ['auth'], deselected: 3 } }, ['selection']],
    [
      'the gate profile',
      { gate: { certificationOnly: [{ why: 'spends an activation code', checks: ['x.y'] }] } },
      ['gate'],
    ],
  ];
  it.each(cases)('%s passes without certifying, and says why', (_name, extra, why) => {
    const d = decideVerdict(passedRun(extra), false);
    expect(d.verdict).toBe('passed-not-certified');
    expect(d.uncertifiedBy).toEqual(why);
    expect(exitCodeOf(d.verdict)).toBe(0);
    expect(verdictLabel(d.verdict)).toBe('Passed, not a certification');
  });

  it('a check the baseline accepted keeps the run from certifying', () => {
    const run = passedRun();
    const checks = run.checks.map((c, i) => (i === 0 ? { ...c, expected: { reason: 'r', until: '2099-01-01' } } : c));
    expect(decideVerdict({ ...run, checks }, false)).toMatchObject({
      verdict: 'passed-not-certified',
      uncertifiedBy: ['baseline'],
    });
  });

  it('a failure outranks the gate, and incomplete outranks a selection', () => {
    const failing = makeRunResult();
    expect(decideVerdict({ ...failing, gate: { certificationOnly: [] } }, false).verdict).toBe('not-certified');
    const run = passedRun({ selection: { suites: ['auth'], deselected: 3 } });
    const skipped = { ...run.checks[0]!, status: 'skipped' as const, skipKind: 'needs-input' as const };
    const checks = [skipped, ...run.checks.slice(1)];
    expect(decideVerdict({ ...run, checks, summary: summarize(checks) }, false).verdict).toBe('incomplete');
  });

  it('reads passed-selection, written by earlier versions, as passed-not-certified', () => {
    expect(currentVerdict('passed-selection')).toBe('passed-not-certified');
    expect(verdictOfResult({ ...passedRun(), verdict: 'passed-selection' })).toBe('passed-not-certified');
  });
});
