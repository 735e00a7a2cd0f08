import { describe, expect, it } from 'vitest';
import { loadSpec } from '../spec/spec-file.js';
import { coveredCount, specCoverage } from './spec-coverage.js';

const SECTIONS = ['Authentication', 'Errors', 'Errors › Codes', 'Endpoints'];
const check = (id: string, spec: string[], part = 0) => ({ id, spec, part });

describe('specCoverage', () => {
  it('gives every section of the spec one row, in spec order, with the checks citing it in the order given', () => {
    const rows = specCoverage(
      SECTIONS,
      [
        check('auth.a', ['Authentication']),
        check('err.b', ['Errors › Codes', 'Authentication']),
        check('err.c', ['Errors › Codes']),
      ],
      () => undefined,
    );
    expect(rows.map((r) => r.section)).toEqual(SECTIONS);
    expect(rows.map((r) => r.checks.map((c) => c.id))).toEqual([['auth.a', 'err.b'], [], ['err.b', 'err.c'], []]);
    expect(rows.every((r) => r.inSpec)).toBe(true);
  });

  it('lists the real spec once per section', () => {
    const { sections } = loadSpec();
    const rows = specCoverage(sections, [], () => undefined);
    expect(rows.map((r) => r.section)).toEqual([...new Set(sections)]);
    expect(new Set(rows.map((r) => r.section)).size).toBe(rows.length);
  });

  it('gives a section no check cites its reason, or none when no reason is written down', () => {
    const rows = specCoverage(SECTIONS, [check('auth.a', ['Authentication'])], (s) =>
      s === 'Endpoints' ? 'overview' : undefined,
    );
    const bySection = Object.fromEntries(rows.map((r) => [r.section, r]));
    expect(bySection.Endpoints).toEqual({ section: 'Endpoints', inSpec: true, checks: [], reason: 'overview' });
    expect(bySection.Errors).toEqual({ section: 'Errors', inSpec: true, checks: [] });
    // A covered section never carries a reason, even when one is written down for it.
    const covered = specCoverage(SECTIONS, [check('auth.a', ['Authentication'])], () => 'a stale reason');
    expect(covered[0]).toEqual({
      section: 'Authentication',
      inSpec: true,
      checks: [check('auth.a', ['Authentication'])],
    });
    expect(coveredCount(rows)).toEqual({ covered: 1, sections: 4 });
  });

  it('lists a check once in a row however often it cites the section', () => {
    const rows = specCoverage(SECTIONS, [check('auth.a', ['Authentication', 'Authentication'])], () => undefined);
    expect(rows[0]!.checks).toHaveLength(1);
  });

  it('adds sections that checks cite but the spec lacks after the spec, in order of first citation', () => {
    const rows = specCoverage(
      SECTIONS,
      [check('x.a', ['Gone', 'Authentication']), check('x.b', ['Also gone']), check('x.c', ['Gone'])],
      () => undefined,
    );
    expect(rows.slice(SECTIONS.length).map((r) => [r.section, r.inSpec, r.checks.map((c) => c.id)])).toEqual([
      ['Gone', false, ['x.a', 'x.c']],
      ['Also gone', false, ['x.b']],
    ]);
    // Not counted as sections of the spec.
    expect(coveredCount(rows)).toEqual({ covered: 1, sections: 4 });
  });

  it("merges a dossier's parts: a row holds the checks of every part that cites the section, each with its part", () => {
    const run = [check('auth.a', ['Authentication'], 0), check('err.c', ['Errors'], 0)];
    const partner = [check('partner.keys', ['Authentication'], 1)];
    const rows = specCoverage(SECTIONS, [...run, ...partner], () => undefined);
    expect(rows[0]!.checks.map((c) => [c.part, c.id])).toEqual([
      [0, 'auth.a'],
      [1, 'partner.keys'],
    ]);
    expect(rows[1]!.checks.map((c) => [c.part, c.id])).toEqual([[0, 'err.c']]);
    expect(rows.map((r) => r.section)).toEqual(SECTIONS);
  });
});
