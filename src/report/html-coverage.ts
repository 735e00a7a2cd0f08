// The spec coverage map of report.html: a row per section of the spec, a cell per check citing it,
// coloured by outcome; a section no check cites says so, with the reason when one is written down.
// In a dossier each certification has its own column, so a row shows every part's checks side by
// side. Colour never carries a fact alone: each cell has its symbol, and its outcome and check id as
// accessible name and tooltip (its title); each row ends with its counts in words. Server-rendered, no script.

import type { CheckResult, RunResult } from '../runner/results.js';
import { skipKindOf } from '../runner/results.js';
import { loadSpec } from '../spec/spec-file.js';
import { UNCOVERED_REASONS } from '../spec/uncovered-reasons.js';
import type { SpecSection } from '../spec/section-names.js';
import { SKIP_WORDS, STATUS_ICON } from './format.js';
import { escapeHtml as h } from './html-escape.js';
import { coveredCount, specCoverage, type CoverageRow } from './spec-coverage.js';

/** What a cell shows: its class (the colour), its symbol, and the outcome in words. */
export interface CellOutcome {
  key: string;
  symbol: string;
  word: string;
}

/**
 * A check's outcome as a map cell. Skips differ by kind: those that leave a certification incomplete
 * (or were interrupted) look unlike the ones that cost nothing (not applicable, deselected).
 */
export function cellOutcome(check: CheckResult): CellOutcome {
  const kind = skipKindOf(check);
  if (kind !== undefined) {
    const free = kind === 'not-applicable' || kind === 'deselected';
    const accepted = check.expected ? ', accepted by the baseline' : '';
    return {
      key: `skip-${kind}`,
      symbol: free ? '–' : STATUS_ICON.skipped,
      word: `skipped (${SKIP_WORDS[kind]}${accepted})`,
    };
  }
  if (check.status === 'failed' && check.expected) return { key: 'expected', symbol: '≈', word: 'expected failure' };
  // A results.json given to `report` is read as it is: an outcome it does not know is shown, not trusted.
  const symbol = Object.hasOwn(STATUS_ICON, check.status) ? STATUS_ICON[check.status] : '?';
  return { key: symbol === '?' ? 'unknown' : check.status, symbol, word: check.status };
}

interface PlacedCheck {
  part: number;
  check: CheckResult;
  spec: readonly string[];
}

function cell({ check }: PlacedCheck): string {
  const outcome = cellOutcome(check);
  const name = h(`${outcome.word}: ${check.id}`);
  return `<span class="cv k-${h(outcome.key)}" role="img" title="${name}">${outcome.symbol}</span>`;
}

/** The order of a row's counts: what needs attention first, as in the tiers below the map. */
const COUNT_ORDER = ['failed', 'error', 'warning', 'expected failure', 'passed', 'skipped'];

/** "1 failed, 4 passed": the row's outcomes in words (an outcome results.json made up comes last). */
function countsText(checks: readonly PlacedCheck[]): string {
  const counts = new Map<string, number>();
  for (const { check } of checks) {
    const word = cellOutcome(check).word.replace(/ \(.*$/, '');
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const rank = (word: string): number => {
    const i = COUNT_ORDER.indexOf(word);
    return i === -1 ? COUNT_ORDER.length : i;
  };
  return [...counts]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([word, n]) => `${n} ${word}`)
    .join(', ');
}

/** Column headings of a dossier: each part's kind, numbered when two parts share one, and its title. */
function partHeadings(parts: readonly RunResult[]): string[] {
  return parts.map((part, i) => {
    const same = parts.filter((p) => p.certification === part.certification);
    const n =
      same.length > 1 ? ` ${parts.slice(0, i + 1).filter((p) => p.certification === part.certification).length}` : '';
    return `<th scope="col">${h(part.certification + n)} <small>${h(part.title)}</small></th>`;
  });
}

function row(coverage: CoverageRow<PlacedCheck>, partCount: number, dossier: boolean): string {
  const heading = `<th scope="row">${h(coverage.section)}${coverage.inSpec ? '' : ' <small>(cited, but not a section of this spec)</small>'}</th>`;
  if (coverage.checks.length === 0) {
    const none = dossier ? 'no check in these certifications' : 'no check in this certification';
    const reason = coverage.reason === undefined ? '' : `: ${h(coverage.reason)}`;
    return `<tr class="cv-none">${heading}<td colspan="${partCount + 1}">${none}${reason}</td></tr>`;
  }
  const columns = Array.from(
    { length: partCount },
    (_, part) =>
      `<td class="cv-cells">${coverage.checks
        .filter((c) => c.part === part)
        .map(cell)
        .join('')}</td>`,
  );
  return `<tr>${heading}${columns.join('')}<td class="cv-count">${h(countsText(coverage.checks))}</td></tr>`;
}

/** Why a section has no check, when the reason is written down (src/spec/uncovered-reasons.ts). */
function statedReason(section: string): string | undefined {
  return UNCOVERED_REASONS[section as SpecSection];
}

/** The coverage map of one certification, or of every part of a dossier. */
export function renderCoverage(parts: readonly RunResult[], dossier: boolean): string {
  const placed = parts.flatMap((result, part) => result.checks.map((check) => ({ part, check, spec: check.spec })));
  const rows = specCoverage(loadSpec().sections, placed, statedReason);
  const { covered, sections } = coveredCount(rows);
  const columns = dossier ? partHeadings(parts) : ['<th scope="col">Checks</th>'];
  const legend = [
    ['passed', STATUS_ICON.passed, 'passed'],
    ['failed', STATUS_ICON.failed, 'failed'],
    ['error', STATUS_ICON.error, 'error'],
    ['warning', STATUS_ICON.warning, 'warning'],
    ['expected', '≈', 'expected failure'],
    ['skip-needs-input', STATUS_ICON.skipped, 'skipped, leaves it incomplete'],
    ['skip-not-applicable', '–', 'skipped, not applicable or deselected'],
  ]
    .map(([key, symbol, word]) => `<li><span class="cv k-${key}" aria-hidden="true">${symbol}</span> ${word}</li>`)
    .join('');
  return (
    `<section class="coverage" aria-labelledby="coverage">` +
    `<h2 id="coverage">Spec coverage <small>${covered} of ${sections} sections checked</small></h2>` +
    `<ul class="cv-legend" aria-label="Legend">${legend}</ul>` +
    `<div class="cv-scroll" tabindex="0" role="region" aria-label="Spec coverage map"><table class="cv-map">` +
    `<thead><tr><th scope="col">Spec section</th>${columns.join('')}<th scope="col">Outcomes</th></tr></thead>` +
    `<tbody>${rows.map((r) => row(r, parts.length, dossier)).join('')}</tbody></table></div></section>`
  );
}
