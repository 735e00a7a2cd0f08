import { describe, expect, it } from 'vitest';
import { makeRunResult } from '../../test/report-fixtures.js';
import { applyBaseline, baselineFromResult, parseBaseline } from './baseline.js';
import { decideVerdict } from './verdict.js';

const TODAY = '2026-06-01';

describe('parseBaseline', () => {
  it('reads the documented shape', () => {
    const b = parseBaseline('{"expected_failures":[{"id":"a.b","reason":"known","until":"2026-12-31"}]}', 'k.json');
    expect(b).toEqual({ file: 'k.json', entries: [{ id: 'a.b', reason: 'known', until: '2026-12-31' }] });
  });

  it.each([
    ['not JSON', '{', /k\.json is not valid JSON/],
    ['no array', '{"failures": []}', /has no "expected_failures" array/],
    ['entry not an object', '{"expected_failures": [1]}', /expected_failures\[0\] is not an object/],
    ['no id', '{"expected_failures": [{"reason": "r", "until": "2026-01-01"}]}', /needs "id"/],
    ['no reason', '{"expected_failures": [{"id": "a", "until": "2026-01-01"}]}', /\(a\) needs "reason"/],
    [
      'bad date',
      '{"expected_failures": [{"id": "a", "reason": "r", "until": "2026-02-30"}]}',
      /needs "until" as a date YYYY-MM-DD \(got "2026-02-30"\)/,
    ],
    [
      'duplicate',
      '{"expected_failures": [{"id": "a", "reason": "r", "until": "2026-01-01"}, {"id": "a", "reason": "r", "until": "2026-01-01"}]}',
      /"a" is listed twice/,
    ],
  ])('refuses %s with one line naming the fix', (_name, text, pattern) => {
    expect(() => parseBaseline(text, 'k.json')).toThrowError(pattern);
    try {
      parseBaseline(text, 'k.json');
    } catch (e) {
      expect((e as Error).name).toBe('ConfigError');
      expect((e as Error).message).not.toContain('\n');
    }
  });
});

describe('applyBaseline', () => {
  const result = makeRunResult();
  const failed = result.checks.filter((c) => c.status === 'failed').map((c) => c.id);
  const passed = result.checks.find((c) => c.status === 'passed')!.id;
  const skipped = result.checks.find((c) => c.status === 'skipped')!.id;

  it('accepts every listed failure: expected, not failed, and the verdict holds', () => {
    const baseline = {
      file: 'k.json',
      entries: failed.map((id) => ({ id, reason: 'vendor fix due', until: '2026-06-01' })),
    };
    const out = applyBaseline(result, baseline, { today: TODAY });
    expect(out.summary.failed).toBe(0);
    expect(out.summary.expected).toBe(failed.length);
    expect(out.checks.filter((c) => c.expected).map((c) => c.id)).toEqual(failed);
    // The check did fail: its status stays honest for tools that read it.
    expect(out.checks.filter((c) => c.expected).every((c) => c.status === 'failed')).toBe(true);
    expect(out.baseline).toEqual({ file: 'k.json', entries: failed.length, expected: failed.length, problems: [] });
    // The fixture also has an engine error: that is never baselined.
    expect(decideVerdict(out, false).verdict).toBe('not-certified');
    // Without it the accepted failures leave the verdict to the fixture's skipped check (a missing input): incomplete, not failed.
    expect(decideVerdict({ ...out, summary: { ...out.summary, error: 0 } }, false).verdict).toBe('incomplete');
  });

  it('a listed check that passes is stale, an entry past its date expired, an unknown id unknown', () => {
    const baseline = {
      file: 'k.json',
      entries: [
        { id: passed, reason: 'r', until: '2026-12-31' },
        { id: failed[0]!, reason: 'r', until: '2026-05-31' },
        { id: 'no.such-check', reason: 'r', until: '2026-12-31' },
        { id: skipped, reason: 'r', until: '2026-12-31' },
      ],
    };
    const out = applyBaseline(result, baseline, { today: TODAY });
    expect(out.baseline!.problems.map((p) => [p.id, p.kind])).toEqual([
      [passed, 'stale'],
      [failed[0], 'expired'],
      ['no.such-check', 'unknown'],
    ]);
    expect(out.baseline!.problems[0]!.message).toMatch(/stale: the check now passes; remove the entry/);
    expect(out.baseline!.problems[1]!.message).toMatch(
      /expired on 2026-05-31: fix the failure and remove the entry, or renew/,
    );
    // An expired entry no longer accepts its failure.
    expect(out.checks.find((c) => c.id === failed[0])!.expected).toBeUndefined();
    expect(out.summary.failed).toBe(failed.length);
    expect(decideVerdict({ ...out, summary: { ...out.summary, failed: 0, error: 0 } }, false).verdict).toBe(
      'not-certified',
    );
  });

  it('an id known to the certification but not run this time is no problem', () => {
    const out = applyBaseline(
      result,
      { file: 'k', entries: [{ id: 'other.check', reason: 'r', until: '2026-12-31' }] },
      { today: TODAY, knownIds: ['other.check'] },
    );
    expect(out.baseline!.problems).toEqual([]);
  });
});

describe('baselineFromResult', () => {
  it('lists every failure with its message as the starting reason', () => {
    const result = makeRunResult();
    const b = baselineFromResult(result, '2026-07-01');
    expect(b.expected_failures.map((e) => e.id)).toEqual(
      result.checks.filter((c) => c.status === 'failed').map((c) => c.id),
    );
    for (const e of b.expected_failures) {
      expect(e.until).toBe('2026-07-01');
      expect(e.reason.length).toBeGreaterThan(0);
    }
    expect(parseBaseline(JSON.stringify(b), 'x').entries).toHaveLength(
      b.expected_failures.length + (b.expected_skips?.length ?? 0),
    );
  });
});

describe('expected_skips: accepted skips, a section of their own', () => {
  const result = makeRunResult();
  const failed = result.checks.filter((c) => c.status === 'failed').map((c) => c.id);
  const skipped = result.checks.find((c) => c.status === 'skipped')!.id;
  // The fixture's engine error is never baselined: without it, only the baseline stands between the run and a verdict.
  const clean = { ...result, checks: result.checks.filter((c) => c.status !== 'error') };

  it('reads both sections; a skip entry accepts the skip, never a failure', () => {
    const text = JSON.stringify({
      expected_failures: [],
      expected_skips: [
        { id: skipped, reason: 'no disabled partner yet', until: '2026-12-31' },
        { id: failed[0], reason: 'listed as a skip', until: '2026-12-31' },
      ],
    });
    const baseline = parseBaseline(text, 'k.json');
    expect(baseline.entries.map((e) => [e.id, e.kind])).toEqual([
      [skipped, 'skip'],
      [failed[0], 'skip'],
    ]);
    const out = applyBaseline(clean, baseline, { today: TODAY });
    expect(out.checks.find((c) => c.id === skipped)!.expected).toEqual({
      reason: 'no disabled partner yet',
      until: '2026-12-31',
    });
    // A failure of a check listed as a skip is not accepted: it still fails the run.
    expect(out.checks.find((c) => c.id === failed[0])!.expected).toBeUndefined();
    expect(decideVerdict(out, false).verdict).toBe('not-certified');
  });

  it('skip entries follow the same expiry rules', () => {
    const baseline = parseBaseline(
      JSON.stringify({ expected_skips: [{ id: skipped, reason: 'r', until: '2026-05-31' }] }),
      'k.json',
    );
    const out = applyBaseline(clean, baseline, { today: TODAY });
    expect(out.baseline!.problems.map((p) => [p.id, p.kind])).toEqual([[skipped, 'expired']]);
    expect(out.checks.find((c) => c.id === skipped)!.expected).toBeUndefined();
  });

  it('accepted skips and failures pass the run but never certify it', () => {
    const withoutFailures = { ...clean, checks: clean.checks.filter((c) => c.status !== 'failed') };
    const baseline = parseBaseline(
      JSON.stringify({ expected_skips: [{ id: skipped, reason: 'r', until: '2026-12-31' }] }),
      'k.json',
    );
    const out = applyBaseline(withoutFailures, baseline, { today: TODAY });
    expect(decideVerdict(out, false)).toMatchObject({ verdict: 'passed-not-certified', uncertifiedBy: ['baseline'] });
    const accepted = applyBaseline(
      clean,
      parseBaseline(
        JSON.stringify({
          expected_failures: failed.map((id) => ({ id, reason: 'r', until: '2026-12-31' })),
          expected_skips: [{ id: skipped, reason: 'r', until: '2026-12-31' }],
        }),
        'k.json',
      ),
      { today: TODAY },
    );
    expect(decideVerdict(accepted, false)).toMatchObject({
      verdict: 'passed-not-certified',
      uncertifiedBy: ['baseline'],
    });
  });

  it('baselineFromResult writes the skips that left the run incomplete under expected_skips', () => {
    const b = baselineFromResult(result, '2026-07-01');
    expect(b.expected_skips?.map((e) => e.id)).toEqual([skipped]);
    expect(b.expected_failures.map((e) => e.id)).toEqual(failed);
    const reread = parseBaseline(JSON.stringify(b), 'x');
    expect(reread.entries.filter((e) => e.kind === 'skip').map((e) => e.id)).toEqual([skipped]);
  });

  it('a section that is not an array is refused with one line', () => {
    expect(() => parseBaseline('{"expected_skips": {}}', 'k.json')).toThrowError(/"expected_skips" is not an array/);
  });
});
