import { describe, expect, it } from 'vitest';
import { makePassingRunResult, makeRunResult } from '../../test/report-fixtures.js';
import type { CheckResult, RunResult } from '../runner/results.js';
import { loadSpec } from '../spec/spec-file.js';
import { mergeResults } from './dossier.js';
import { renderHtml } from './html.js';
import { cellOutcome, renderCoverage } from './html-coverage.js';

/** The map's rows as [section heading text, cells' accessible names, counts or the no-check text]. */
function rowsOf(html: string): Array<[string, string[], string]> {
  const table = /<table class="cv-map">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr[^>]*><th scope="row">([\s\S]*?)<\/th>([\s\S]*?)<\/tr>/g)].map((m) => [
    m[1]!,
    [...m[2]!.matchAll(/title="([^"]*)"/g)].map((c) => c[1]!),
    /<td(?: class="cv-count")?(?: colspan="\d+")?>([^<]*)<\/td>$/.exec(m[2]!)?.[1] ?? '',
  ]);
}

const base = (partial: Partial<CheckResult>): CheckResult => ({
  id: 'x.y',
  title: 't',
  suite: 'x',
  spec: ['Authentication'],
  status: 'passed',
  message: '',
  durationMs: 1,
  observations: [],
  exchanges: [],
  ...partial,
});

describe('the coverage map of report.html', () => {
  it('has a row per section of the spec, cells by outcome, and the no-check rows with their stated reason', () => {
    const html = renderCoverage([makeRunResult()], false);
    const rows = rowsOf(html);
    const { sections } = loadSpec();
    expect(rows.map(([s]) => s)).toEqual(sections);
    const auth = rows.find(([s]) => s === 'Authentication')!;
    expect(auth[1]).toEqual([
      'passed: auth.missing-partner-key-401',
      'failed: auth.wrong-org-token-401',
      'skipped (needs input): auth.disabled-partner-key-403',
    ]);
    expect(auth[2]).toBe('1 failed, 1 passed, 1 skipped');
    expect(rows.find(([s]) => s === 'Errors › Errors by endpoint')![1]).toEqual(['error: runs.read.unknown-run-404']);
    // A section no check of this run cites: said so, with the reason written down for it.
    expect(rows.find(([s]) => s === 'States and transitions › Connection state')![2]).toBe(
      'no check in this certification: operator-only: enabling and disabling is done by the service operator',
    );
    expect(rows.find(([s]) => s === 'Limits')?.[2]).toBe('no check in this certification');
    expect(html).toMatch(/<h2 id="coverage">Spec coverage <small>\d+ of \d+ sections checked<\/small><\/h2>/);
  });

  it('gives each outcome its class and symbol, and tells skips that cost nothing from those that leave it incomplete', () => {
    const cells = [
      base({ status: 'passed' }),
      base({ status: 'failed' }),
      base({ status: 'failed', expected: { reason: 'r', until: '2099-01-01' } }),
      base({ status: 'error' }),
      base({ status: 'warning' }),
      base({ status: 'skipped', skipKind: 'needs-input' }),
      base({ status: 'skipped', skipKind: 'not-applicable' }),
      base({ status: 'skipped', skipKind: 'deselected' }),
      base({ status: 'skipped' }),
    ].map(cellOutcome);
    expect(cells).toEqual([
      { key: 'passed', symbol: '✓', word: 'passed' },
      { key: 'failed', symbol: '✗', word: 'failed' },
      { key: 'expected', symbol: '≈', word: 'expected failure' },
      { key: 'error', symbol: '!', word: 'error' },
      { key: 'warning', symbol: '⚠', word: 'warning' },
      { key: 'skip-needs-input', symbol: '○', word: 'skipped (needs input)' },
      { key: 'skip-not-applicable', symbol: '–', word: 'skipped (not applicable)' },
      { key: 'skip-deselected', symbol: '–', word: 'skipped (deselected)' },
      { key: 'skip-needs-input', symbol: '○', word: 'skipped (needs input)' },
    ]);
    const html = renderCoverage([{ ...makeRunResult(), checks: [base({ status: 'failed', id: 'a.b' })] }], false);
    expect(html).toContain('<span class="cv k-failed" role="img" title="failed: a.b">✗</span>');
  });

  it('escapes hostile check ids, sections cited from results.json and outcomes it does not know', () => {
    const hostile: RunResult = {
      ...makeRunResult(),
      checks: [
        base({ id: '"><img src=x onerror=alert(1)>', spec: ['Authentication'] }),
        base({ id: "a'b&c", spec: ['</th><script>alert(2)</script>'], status: 'failed' }),
        base({ id: 'odd', status: '<b>odd</b>' as never }),
      ],
    };
    const html = renderCoverage([hostile], false);
    expect(html).not.toMatch(/<img|<script|<b>/);
    expect(html).toContain('title="passed: &quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expect(html).toContain('title="failed: a&#39;b&amp;c"');
    expect(html).toContain(
      '<th scope="row">&lt;/th&gt;&lt;script&gt;alert(2)&lt;/script&gt; <small>(cited, but not a section of this spec)</small></th>',
    );
    expect(html).toContain('<span class="cv k-unknown" role="img" title="&lt;b&gt;odd&lt;/b&gt;: odd">?</span>');
  });

  it("merges a dossier's certifications: a column per part, labelled, each row holding every part's cells", () => {
    const dossier = mergeResults([makePassingRunResult(), { ...makeRunResult(), title: 'Staging <API>' }]);
    const html = renderHtml(dossier);
    expect(html).toContain(
      '<thead><tr><th scope="col">Spec section</th><th scope="col">run 1 <small>Service API</small></th><th scope="col">run 2 <small>Staging &lt;API&gt;</small></th><th scope="col">Outcomes</th></tr></thead>',
    );
    const table = /<table class="cv-map">([\s\S]*?)<\/table>/.exec(html)![1]!;
    const auth = /<tr><th scope="row">Authentication<\/th>(.*?)<\/tr>/.exec(table)![1]!;
    const columns = [...auth.matchAll(/<td class="cv-cells">(.*?)<\/td>/g)].map((m) =>
      [...m[1]!.matchAll(/title="([^"]*)"/g)].map((c) => c[1]),
    );
    expect(columns).toEqual([
      ['passed: auth.missing-partner-key-401'],
      [
        'passed: auth.missing-partner-key-401',
        'failed: auth.wrong-org-token-401',
        'skipped (needs input): auth.disabled-partner-key-403',
      ],
    ]);
    expect(rowsOf(html).find(([s]) => s === 'States and transitions › Connection state')![2]).toMatch(
      /^no check in these certifications: operator-only/,
    );
  });

  it('stands in report.html before the checks', () => {
    const html = renderHtml(makeRunResult());
    expect(html.indexOf('<section class="coverage"')).toBeGreaterThan(html.indexOf('<main>'));
    expect(html.indexOf('<section class="coverage"')).toBeLessThan(html.indexOf('<section class="tier"'));
  });
});
