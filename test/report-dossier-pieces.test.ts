// A dossier too large to hold is rendered from its head and its parts, a part at a time
// (Reporter.onDossierEnd). Two promises are kept: the text is the text rendered from the dossier held
// whole (report.html apart, which counts passed checks instead of listing them), and no renderer keeps
// a part once it has asked for the next, so what it holds does not grow with the number of parts.

import { describe, expect, it } from 'vitest';
import { formatDossierSummary, formatGroupedSummary, makeChalk } from '../src/report/console-format.js';
import { dossierHead, mergeResults, partHead, partVerdict } from '../src/report/dossier.js';
import { renderDossierHtml, renderHtml } from '../src/report/html.js';
import { REPORTERS } from '../src/report/index.js';
import { recomputedResult } from '../src/report/recomputed-verdict.js';
import { capPassedEvidence } from '../src/runner/evidence-caps.js';
import type { RunResult, ScanFinding } from '../src/runner/results.js';
import { makePassingRunResult, makeRunResult, makeWarningRunResult } from './report-fixtures.js';

const FINDING: ScanFinding = {
  check: 'scan.no-partner-key-string',
  file: 'dist/app.js',
  line: 3,
  column: 14,
  kind: 'prefix',
  location: null,
  excerpt: 'const k = "spk_',
};

/** Four certifications as `report` holds them (verdicts decided again), one a scan with findings; check ids told apart by part. */
function someParts(): RunResult[] {
  const scan: RunResult = {
    ...makeRunResult(),
    certification: 'scan',
    title: 'Browser bundle scan',
    findings: [FINDING, { ...FINDING, line: 9 }],
  };
  return [makeRunResult(), makePassingRunResult(), scan, makeWarningRunResult(), makeRunResult()].map((part, i) => {
    const own = { ...part, checks: part.checks.map((c) => ({ ...c, id: `p${i}.${c.id}` })) };
    return recomputedResult(own, `in${i}.json`).result;
  });
}

function headOf(parts: readonly RunResult[]): RunResult {
  return dossierHead(parts.map(partHead), parts.map(partVerdict));
}

/**
 * The parts, copied afresh on each pass; asking for the next part empties the one given before, so a
 * renderer that kept it would write the wrong text.
 */
function forgetfulParts(parts: readonly RunResult[]): Iterable<RunResult> {
  return {
    *[Symbol.iterator]() {
      let previous: RunResult | undefined;
      for (const part of parts) {
        if (previous) Object.assign(previous, { title: 'FORGOTTEN', checks: [], findings: [], summary: {} });
        previous = structuredClone(part);
        yield previous;
      }
    },
  };
}

const PIECEWISE = Object.values(REPORTERS).flatMap((entry) =>
  entry.kind === 'file' && entry.renderDossier ? [{ ...entry, renderDossier: entry.renderDossier }] : [],
);

describe('a dossier rendered part by part', () => {
  it('every file report but report.html renders part by part', () => {
    expect(PIECEWISE.map((entry) => entry.name).sort()).toEqual(['html', 'json', 'junit', 'markdown']);
  });

  for (const entry of PIECEWISE.filter((e) => e.name !== 'html')) {
    it(`${entry.file}: the pieces are the text of the dossier held whole, though each part is forgotten once the next is asked for`, () => {
      const parts = someParts();
      // As writeReports renders a dossier held whole: its passed checks' evidence capped first.
      const whole = entry.render(capPassedEvidence(mergeResults(parts)));
      expect(whole).toContain('p4.');
      // …and a dossier in pieces as writeDossierReports does: each part capped as it is read.
      expect([...entry.renderDossier(headOf(parts), forgetfulParts(parts.map(capPassedEvidence)))].join('')).toBe(
        whole,
      );
    });
  }

  it('the console summary: the pieces are the summary of the dossier held whole', () => {
    const parts = someParts();
    const c = makeChalk(false);
    const whole = formatGroupedSummary(mergeResults(parts), c);
    expect([...formatDossierSummary(headOf(parts), forgetfulParts(parts), c)].join('')).toBe(whole);
  });

  it('report.html lists every failed, error and warned check in full and counts the passed and skipped ones', () => {
    const parts = someParts();
    const head = headOf(parts);
    const page = [...renderDossierHtml(head, forgetfulParts(parts))].join('');
    expect(page).toBe([...renderDossierHtml(head, parts)].join(''));
    const whole = renderHtml(mergeResults(parts));
    const rowIds = (html: string, status: string): string[] =>
      [...html.matchAll(new RegExp(`<li class="check s-${status}"[^>]*data-id="([^"]+)"`, 'g'))].map((m) => m[1]!);
    for (const status of ['failed', 'error', 'warning']) expect(rowIds(page, status)).toEqual(rowIds(whole, status));
    expect(rowIds(whole, 'passed').length).toBeGreaterThan(0);
    expect(rowIds(page, 'passed')).toEqual([]);
    const rest = head.summary.passed + head.summary.skipped;
    expect(page).toContain(`The ${rest} passed and skipped checks are counted here, not listed`);
    expect(page).not.toContain('FORGOTTEN');
  });
});
