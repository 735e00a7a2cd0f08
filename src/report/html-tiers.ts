// The checks of report.html in tiers, most urgent first (with 5 failures among 173 checks in
// suite order, one had to find the Failed filter): failures and errors, then warnings, then failures the
// baseline accepts, then passed and skipped (titled as in summary.md). Within a tier, checks keep their suite groups and order; in
// a dossier a group names its certification too, so every failure of every part comes before any pass.
// Headings: tier h2, group h3, and a row's own h4 (html-check.ts), so no level is skipped.

import type { CheckResult, CheckStatus, RunResult } from '../runner/results.js';
import { checksBySuite } from './format.js';
import { type ExchangeStore, renderCheck, rowStatus } from './html-check.js';
import { escapeHtml as h } from './html-escape.js';

type RowStatus = CheckStatus | 'expected';

/** The tiers in page order; every row status belongs to exactly one. */
const TIERS: ReadonlyArray<{ key: string; title: string; statuses: readonly RowStatus[] }> = [
  { key: 'attention', title: 'Failed and error checks', statuses: ['failed', 'error'] },
  { key: 'warnings', title: 'Warnings', statuses: ['warning'] },
  { key: 'expected', title: 'Expected failures (baseline)', statuses: ['expected'] },
  { key: 'rest', title: 'Passed and skipped checks', statuses: ['passed', 'skipped'] },
];

interface Group {
  /** In a dossier, the kind of certification the group belongs to (data-certification). */
  certification?: string;
  suite: string;
  label: string;
  checks: CheckResult[];
}

/** Suite groups of every certification, in order; a dossier's labels say which certification. */
function groupsOf(parts: readonly RunResult[], dossier: boolean): Group[] {
  return parts.flatMap((part) =>
    checksBySuite(part).map(({ suite, checks }) => ({
      ...(dossier ? { certification: part.certification } : {}),
      suite,
      label: dossier ? `${part.title} › ${suite}` : suite,
      checks,
    })),
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function groupSection(group: Group, checks: readonly CheckResult[], store: ExchangeStore): string {
  const certification = group.certification === undefined ? '' : ` data-certification="${h(group.certification)}"`;
  return (
    `<section class="suite" data-suite="${h(group.suite)}"${certification}>` +
    `<h3>${h(group.label)} <small>${plural(checks.length, 'check')}</small></h3>` +
    `<ol class="checks">${checks.map((check) => renderCheck(check, store)).join('')}</ol></section>`
  );
}

/** How many checks of each row status the certifications hold, and whether any is an expected failure. */
export type RowCounts = Map<RowStatus, number>;

function rowCountsOf(parts: Iterable<RunResult>): RowCounts {
  const counts: RowCounts = new Map();
  for (const part of parts)
    for (const check of part.checks) counts.set(rowStatus(check), (counts.get(rowStatus(check)) ?? 0) + 1);
  return counts;
}

/** Every check of the certifications, tier by tier; a tier or group with no check is left out. */
export function renderTiers(parts: readonly RunResult[], dossier: boolean, store: ExchangeStore): string {
  return [...tierChunks(parts, rowCountsOf(parts), { dossier, store })].join('');
}

export interface TierOptions {
  dossier: boolean;
  store: ExchangeStore;
  /**
   * The tier of passed and skipped checks is counted, not listed (a dossier too large to show every
   * check): its heading, then this sentence saying where they are.
   */
  elideRest?: string;
}

/** renderTiers in pieces: `counts` (rowCountsOf) heads each tier, then a pass over `parts` fills it. */
export function* tierChunks(parts: Iterable<RunResult>, counts: RowCounts, opts: TierOptions): Generator<string> {
  for (const tier of TIERS) {
    const count = tier.statuses.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
    if (count === 0) continue;
    yield (
      `<section class="tier" data-tier="${tier.key}" aria-labelledby="tier-${tier.key}">` +
      `<h2 id="tier-${tier.key}">${h(tier.title)} <small>${plural(count, 'check')}</small></h2>`
    );
    if (tier.key === 'rest' && opts.elideRest !== undefined) {
      yield `<p class="elided">${h(opts.elideRest)}</p></section>`;
      continue;
    }
    const inTier = (check: CheckResult): boolean => tier.statuses.includes(rowStatus(check));
    for (const part of parts) {
      for (const group of groupsOf([part], opts.dossier)) {
        const checks = group.checks.filter(inTier);
        if (checks.length > 0) yield groupSection(group, checks, opts.store);
      }
    }
    yield `</section>`;
  }
}
