import { describe, expect, it } from 'vitest';
import {
  makeIncompleteRunResult,
  makePassingRunResult,
  makeRunResult,
  makeSelectionRunResult,
} from '../../test/report-fixtures.js';
import { launderedResult } from '../../test/support/laundered-result.js';
import { RECOMPUTED_NOTICE_ID, recomputedResult } from './recomputed-verdict.js';

describe('recomputedResult', () => {
  it('returns a result whose stored numbers are its checks’ as it is (re-rendered byte for byte)', () => {
    for (const result of [makePassingRunResult(), makeRunResult(), makeIncompleteRunResult()]) {
      const r = recomputedResult(result, 'in.json');
      expect(r.notice).toBeUndefined();
      expect(r.result).toBe(result);
    }
  });

  it('decides a laundered verdict again from the checks and names the stored one in a notice', () => {
    const r = recomputedResult(launderedResult(), 'in.json');
    expect(r.result.verdict).toBe('not-certified');
    expect(r.result.summary).toMatchObject({ total: 212, failed: 89, passed: 123 });
    expect(r.notice?.id).toBe(RECOMPUTED_NOTICE_ID);
    expect(r.notice?.message).toMatch(/^in\.json states verdict certified; counts 212 total, 212 passed/);
    expect(r.result.notices).toContainEqual(r.notice);
  });

  it('decides again what is missing when the file states it otherwise, its numbers left alone', () => {
    const result = makeIncompleteRunResult();
    const stored = result.missing!;
    expect(stored.length).toBeGreaterThan(0);
    const edits = [
      { ...result, missing: [{ ...stored[0]!, what: 'nothing you can supply' }, ...stored.slice(1)] },
      { ...result, missing: stored.slice(1) },
      (({ missing: _gone, ...rest }) => rest)(result),
    ];
    for (const edited of edits) {
      const r = recomputedResult(edited, 'in.json');
      expect(r.result.missing).toEqual(stored);
      expect(r.result.verdict).toBe('incomplete');
      expect(r.notice?.message).toMatch(
        /^in\.json states missing inputs \d+ groups? of \d+ checks?, which its checks do not bear out/,
      );
    }
  });

  it('decides again what kept a pass from certifying when the file states it otherwise', () => {
    const result = makeSelectionRunResult();
    expect(result.uncertifiedBy).toEqual(['selection']);
    const r = recomputedResult({ ...result, uncertifiedBy: ['baseline'] }, 'in.json');
    expect(r.result.uncertifiedBy).toEqual(['selection']);
    expect(r.result.verdict).toBe('passed-not-certified');
    expect(r.notice?.message).toMatch(/^in\.json states not certified by baseline, which its checks do not bear out/);
    // A file written before the field has none, and is read as its checks say.
    const { uncertifiedBy: _none, ...older } = result;
    expect(recomputedResult(older, 'in.json').result).toBe(older);
  });

  it('counts a check edited to failed though the counts were left alone', () => {
    const result = makePassingRunResult();
    const [first, ...rest] = result.checks;
    const edited = {
      ...result,
      verdict: 'certified' as const,
      checks: [{ ...first!, status: 'failed' as const }, ...rest],
    };
    const r = recomputedResult(edited, 'in.json');
    expect(r.result.verdict).toBe('not-certified');
    expect(r.result.summary.failed).toBe(1);
  });

  it('believes a failure marked accepted only where the file records the baseline it applied', () => {
    const result = makeRunResult();
    const marked = {
      ...result,
      checks: result.checks.map((c) =>
        c.status === 'failed' ? { ...c, expected: { reason: 'r', until: '2999-01-01' } } : c,
      ),
    };
    const unbacked = recomputedResult(marked, 'in.json');
    expect(unbacked.result.summary.expected).toBe(0);
    expect(unbacked.notice?.message).toMatch(/2 failures marked accepted with no baseline recorded/);
    const backed = recomputedResult(
      { ...marked, baseline: { file: 'b.json', entries: 2, expected: 2, problems: [] } },
      'in.json',
    );
    expect(backed.result.summary.expected).toBe(2);
  });

  it('decides strictly a result run strict, or when asked now', () => {
    const result = { ...makePassingRunResult(), verdict: 'certified' as const };
    expect(recomputedResult(result, 'in.json', true).result.verdict).toBe('certified');
    const warned = {
      ...result,
      checks: result.checks.map((c, i) => (i === 0 ? { ...c, status: 'warning' as const } : c)),
    };
    expect(recomputedResult(warned, 'in.json', true).result.verdict).toBe('not-certified');
  });
});
