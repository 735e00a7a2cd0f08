import { describe, expect, it } from 'vitest';
import { createRegistry } from '../src/runner/registry.js';
import { loadSpec, parseSpecSections } from '../src/runner/spec-sections.js';
import { ALL_CHECKS, SUITE_ORDER, UNCOVERED_REASONS } from './index.js';

describe('suites', () => {
  const sections = loadSpec().sections;

  it('load into the registry (unique, well-formed ids in known suites)', () => {
    expect(createRegistry(ALL_CHECKS, SUITE_ORDER).checks.length).toBe(ALL_CHECKS.length);
  });

  it('cite only section headings that exist in the spec', () => {
    const unknown = ALL_CHECKS.flatMap((c) => c.spec.filter((ref) => !sections.includes(ref)).map((ref) => `${c.id}: ${ref}`));
    expect(unknown).toEqual([]);
  });

  it('give reasons only for real sections, and none for a cited one', () => {
    const cited = new Set(ALL_CHECKS.flatMap((c) => c.spec));
    for (const section of Object.keys(UNCOVERED_REASONS)) {
      expect(sections, section).toContain(section);
      expect(cited.has(section), `${section} is cited and has an uncovered reason`).toBe(false);
    }
  });
});

describe('parseSpecSections', () => {
  it('joins ### headings to their ## heading and ignores fenced code', () => {
    expect(parseSpecSections('# T\n## A\n### B\n```\n## not\n```\n## C\n')).toEqual(['A', 'A › B', 'C']);
  });
  it('reads the repo spec headings verbatim', () => {
    expect(loadSpec().sections).toContain('Endpoints › POST /runs (start a run)');
    expect(loadSpec().sections).toContain('Errors › Cross-cutting errors (any endpoint)');
    expect(loadSpec().sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
