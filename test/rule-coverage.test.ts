// docs/rule-coverage.md counts the spec's rules against the checks by hand: this holds the page to the
// catalogue. Every check id it names is one `svc-certify list --json` lists, with the evidence kind the
// page gives it; a row graded covered names a check a normal session triggers (provoked or input, or a
// conditional one whose row says why the situation is the party's own choice); a missing row names none;
// and the totals at the top are the rows' own.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './cli-support.js';

const PAGE = readFileSync(join(ROOT, 'docs', 'rule-coverage.md'), 'utf8');
const GRADES = ['covered', 'weak', 'missing'] as const;
type Grade = (typeof GRADES)[number];

interface Row {
  side: 'service' | 'partner';
  rule: string;
  grade: string;
  /** Each check the row names, with the evidence kind written after it. */
  checks: Array<{ id: string; kind: string }>;
  text: string;
}

/** The table rows under a heading (up to the next heading). */
function rowsOf(heading: string, side: Row['side']): Row[] {
  const part = PAGE.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
  return part
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| section') && !l.startsWith('| ---'))
    .map((l) => {
      const cells = l.split(' | ');
      const text = cells.slice(3).join(' | ');
      const checks = [...text.matchAll(/`([a-z0-9-]+(?:\.[a-z0-9-]+)+)` \((provoked|conditional|input)/g)].map((m) => ({
        id: m[1]!,
        kind: m[2]!,
      }));
      return { side, rule: cells[1] ?? '', grade: (cells[2] ?? '').trim(), checks, text };
    });
}

const ROWS = [...rowsOf('Service side', 'service'), ...rowsOf('Partner side', 'partner')];

describe('docs/rule-coverage.md', () => {
  let evidence: Map<string, string>;

  beforeAll(async () => {
    const listed = await run(['list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const { checks } = JSON.parse(listed.stdout) as { checks: Array<{ id: string; evidence: string }> };
    evidence = new Map(checks.map((c) => [c.id, c.evidence]));
  });

  it('has rows on both sides, each graded covered, weak or missing', () => {
    expect(ROWS.filter((r) => r.side === 'service').length).toBeGreaterThan(50);
    expect(ROWS.filter((r) => r.side === 'partner').length).toBeGreaterThan(20);
    expect(ROWS.filter((r) => !(GRADES as readonly string[]).includes(r.grade)).map((r) => r.rule)).toEqual([]);
  });

  it('names only checks that exist, each with the evidence kind it declares', () => {
    const wrong = ROWS.flatMap((r) =>
      r.checks
        .filter((c) => evidence.get(c.id) !== c.kind)
        .map((c) => `${c.id}: page says ${c.kind}, list says ${evidence.get(c.id) ?? 'no such check'}`),
    );
    expect(wrong).toEqual([]);
    // Every backticked dotted id of a row is written with its kind, so none escapes the comparison.
    const bare = ROWS.flatMap((r) =>
      [...r.text.matchAll(/`([a-z0-9-]+(?:\.[a-z0-9-]+)+)`(?! \((?:provoked|conditional|input))/g)].map(
        (m) => `${r.rule}: ${m[1]}`,
      ),
    );
    expect(bare).toEqual([]);
  });

  it('grades by trigger: covered names a provoked or input check, or says why its conditional one is the party’s own choice; missing names none', () => {
    const unfounded = ROWS.filter(
      (r) =>
        r.grade === 'covered' &&
        !r.checks.some((c) => c.kind === 'provoked' || c.kind === 'input') &&
        !/own choice|own doing|recruiter's own|checklist's step/.test(r.text),
    ).map((r) => r.rule);
    expect(unfounded).toEqual([]);
    expect(ROWS.filter((r) => r.grade === 'missing' && r.checks.length > 0).map((r) => r.rule)).toEqual([]);
    expect(ROWS.filter((r) => r.grade === 'weak' && r.text.trim() === '').map((r) => r.rule)).toEqual([]);
  });

  it('states the totals of its rows', () => {
    const totals = (side: Row['side']) =>
      GRADES.map((g: Grade) => ROWS.filter((r) => r.side === side && r.grade === g).length);
    for (const side of ['service', 'partner'] as const) {
      const line = PAGE.split('\n').find((l) => l.startsWith(`| ${side} |`));
      expect(line, side).toBeDefined();
      const stated = line!
        .split('|')
        .slice(2, 5)
        .map((c) => Number(c.trim()));
      expect(stated, side).toEqual(totals(side));
    }
  });
});
