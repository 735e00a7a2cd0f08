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

/** Every check of the certifications, tier by tier; a tier or group with no check is left out. */
export function renderTiers(parts: readonly RunResult[], dossier: boolean, store: ExchangeStore): string {
  const groups = groupsOf(parts, dossier);
  return TIERS.map((tier) => {
    const inTier = (check: CheckResult): boolean => tier.statuses.includes(rowStatus(check));
    const sections = groups
      .map((group) => ({ group, checks: group.checks.filter(inTier) }))
      .filter(({ checks }) => checks.length > 0);
    if (sections.length === 0) return '';
    const count = sections.reduce((sum, { checks }) => sum + checks.length, 0);
    return (
      `<section class="tier" data-tier="${tier.key}" aria-labelledby="tier-${tier.key}">` +
      `<h2 id="tier-${tier.key}">${h(tier.title)} <small>${plural(count, 'check')}</small></h2>` +
      sections.map(({ group, checks }) => groupSection(group, checks, store)).join('') +
      `</section>`
    );
  }).join('');
}
