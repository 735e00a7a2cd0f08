// report.html: one self-contained page for a person. Rendered server-side (deterministic, readable
// with scripts off); the inline script only filters and copies. The CSP forbids every fetch, so a
// report opened from a CI artifact store cannot call home.

import type { CheckStatus, RunResult } from '../runner/results.js';
import {
  baselineSummary,
  formatCountLine,
  formatDuration,
  isStrict,
  verdictLabel,
  verdictNotes,
  explorationLine,
  verdictOf,
} from './format.js';
import { partRows } from './dossier.js';
import { byShape } from './report-shape.js';
import { ExchangeStore, rowStatus } from './html-check.js';
import { escapeHtml as h } from './html-escape.js';
import { HTML_SCRIPT } from './html-script.js';
import { HTML_NO_SCRIPT_STYLE, HTML_STYLE } from './html-style.js';
import { renderTiers, tierChunks, type RowCounts } from './html-tiers.js';
import { renderTimeline, TIMELINE_STYLE } from './html-timeline.js';
import { renderCoverage } from './html-coverage.js';
import { fileReporter } from './reporter.js';

const HTML_FILE = 'report.html';

export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

const FILTERS: Array<{ key: 'all' | CheckStatus | 'expected'; label: string }> = [
  { key: 'all', label: 'All' },
  { key: 'failed', label: 'Failed' },
  { key: 'error', label: 'Error' },
  { key: 'warning', label: 'Warning' },
  { key: 'expected', label: 'Expected failure' },
  { key: 'skipped', label: 'Skipped' },
  { key: 'passed', label: 'Passed' },
];

function metaItem(label: string, valueHtml: string): string {
  return `<div><dt>${h(label)}</dt><dd>${valueHtml}</dd></div>`;
}

function metaOf(result: RunResult): string[] {
  const { target } = result;
  const meta = [
    metaItem('Target', `<code class="target">${h(target.baseUrl)}</code>`),
    metaItem(
      'Environment',
      `<span class="environment">${h(target.environment)}</span>${target.embedded ? ' (embedded sandbox)' : ''}`,
    ),
    metaItem('Tool', `<span class="tool">${h(result.tool.name)} ${h(result.tool.version)}</span>`),
    metaItem(
      'Spec',
      `${h(result.spec.title)} <code title="sha256 ${h(result.spec.sha256)}">${h(result.spec.sha256.slice(0, 12))}</code>`,
    ),
    metaItem('Started', `<span class="mono">${h(result.startedAt)}</span>`),
    metaItem('Duration', `<span class="duration">${h(formatDuration(result.durationMs))}</span>`),
  ];
  if (result.stats) {
    meta.push(
      metaItem(
        'Requests',
        `${result.stats.requests} requests${result.stats.exploreRequests ? ` (${result.stats.exploreRequests} of them the exploration's)` : ''}, ${result.stats.realRuns} real runs, ${result.stats.rateLimited} rate-limited`,
      ),
    );
  }
  const exploration = explorationLine(result);
  if (exploration) meta.push(metaItem('Exploration', `<span class="exploration">${h(exploration)}</span>`));
  if (isStrict(result))
    meta.push(
      metaItem('Mode', 'strict: warnings, and skips that leave the certification incomplete, count as failures'),
    );
  return meta;
}

function countsOf(result: RunResult, withExpected: boolean): string {
  const { summary } = result;
  const shown = withExpected
    ? (['passed', 'failed', 'error', 'warning', 'expected', 'skipped'] as const)
    : (['passed', 'failed', 'error', 'warning', 'skipped'] as const);
  const counts = shown
    .map(
      (status) =>
        `<li class="count s-${status}"><span class="n" data-count="${status}">${summary[status] ?? 0}</span>${status === 'expected' ? 'expected failure' : status}</li>`,
    )
    .join('');
  return (
    `<ul class="counts">${counts}<li class="count s-total"><span class="n" data-count="total">${summary.total}</span>total</li></ul>` +
    `<p class="countline" id="countline">${h(formatCountLine(summary))}</p>`
  );
}

/** Why the verdict is not `certified`, and what to do: the same lines the console prints. */
function notesOf(result: RunResult, id = true): string {
  const notes = verdictNotes(result);
  return notes.length === 0
    ? ''
    : `<ul class="verdict-notes"${id ? ' id="verdict-notes"' : ''}>${notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`;
}

function header(result: RunResult): string {
  const verdict = verdictOf(result);
  return (
    `<header class="top"><div class="wrap">` +
    `<h1>svc-certify report <span class="verdict ${verdict}" id="verdict">${h(verdictLabel(verdict))}</span></h1>` +
    notesOf(result) +
    `<dl class="meta">${metaOf(result).join('')}</dl>` +
    countsOf(result, result.baseline !== undefined) +
    `</div></header>`
  );
}

/** A dossier's header: the one verdict, then a row per certification with its own verdict and counts. */
function dossierHeader(result: RunResult, parts: readonly RunResult[]): string {
  const verdict = verdictOf(result);
  const rows = parts
    .map((part) => {
      const v = verdictOf(part);
      return `<tr><td>${h(part.title)}</td><td><code class="target">${h(part.target.baseUrl)}</code></td><td><span class="verdict ${v}">${h(verdictLabel(v))}</span></td><td>${h(formatCountLine(part.summary))}</td></tr>`;
    })
    .join('');
  return (
    `<header class="top"><div class="wrap">` +
    `<h1>svc-certify dossier <span class="verdict ${verdict}" id="verdict">${h(verdictLabel(verdict))}</span></h1>` +
    notesOf(result) +
    `<table class="parts"><thead><tr><th>Certification</th><th>Target</th><th>Verdict</th><th>Checks</th></tr></thead><tbody>${rows}</tbody></table>` +
    countsOf(
      result,
      parts.some((p) => p.baseline !== undefined),
    ) +
    `</div></header>`
  );
}

/** The checks a page counts: by row status, and whether any carries a baseline's mark. */
interface PageCounts {
  total: number;
  rows: RowCounts;
  marked: boolean;
}

function pageCountsOf(parts: Iterable<RunResult>): PageCounts {
  const counted: PageCounts = { total: 0, rows: new Map(), marked: false };
  for (const part of parts) {
    for (const check of part.checks) {
      counted.total++;
      counted.rows.set(rowStatus(check), (counted.rows.get(rowStatus(check)) ?? 0) + 1);
      if (check.expected) counted.marked = true;
    }
  }
  return counted;
}

function toolbar(result: RunResult, counted: PageCounts): string {
  const hasExpected = result.baseline !== undefined || counted.marked;
  const buttons = FILTERS.filter(({ key }) => key !== 'expected' || hasExpected)
    .map(({ key, label }) => {
      const n = key === 'all' ? counted.total : (counted.rows.get(key) ?? 0);
      return `<button type="button" data-filter="${key}" aria-pressed="${key === 'all'}">${label}<span class="c">${n}</span></button>`;
    })
    .join('');
  return (
    `<nav class="toolbar" aria-label="Filter checks"><div class="wrap">` +
    `<div class="filters" role="group" aria-label="Status">${buttons}</div>` +
    `<input type="search" id="search" placeholder="Filter by check id…" aria-label="Filter by check id" autocomplete="off">` +
    `<span id="shown" aria-live="polite"></span>` +
    `</div></nav>`
  );
}

/**
 * Baseline entries that fail the run, above the checks: the operator must remove or renew them. A
 * heading of level `level`: h2 in a run (id "baseline"), h3 under its certification's h2 in a dossier
 * (no id: a dossier may hold several).
 */
function baselineSection(result: RunResult, level: 2 | 3): string {
  const b = result.baseline;
  if (!b) return '';
  const items = b.problems
    .map(
      (p) =>
        `<li class="s-failed" data-kind="${p.kind}"><code>${h(p.id)}</code> <span class="message">${h(p.message)}</span></li>`,
    )
    .join('');
  return (
    `<section class="baseline"${level === 2 ? ' id="baseline"' : ''}><h${level}>Baseline <small><code>${h(b.file)}</code>: ${h(baselineSummary(result))}</small></h${level}>` +
    (items ? `<ul class="baseline-problems">${items}</ul>` : '') +
    `</section>`
  );
}

/** One section per certification of a dossier: its title, verdict and facts (its checks are in the tiers). */
function certificationSections(parts: readonly RunResult[]): string {
  return parts
    .map((part, i) => {
      const v = verdictOf(part);
      return (
        `<section class="certification" id="certification-${i + 1}" data-certification="${h(part.certification)}">` +
        `<h2 class="cert-title">${h(part.title)} <span class="verdict ${v}">${h(verdictLabel(v))}</span></h2>` +
        notesOf(part, false) +
        `<dl class="meta">${metaOf(part).join('')}</dl>` +
        `${baselineSection(part, 3)}</section>`
      );
    })
    .join('');
}

/** What sets a page held whole apart by shape: its title and header, and the body above the page's end. */
interface WholePage {
  title: string;
  header: string;
  /** A dossier's coverage and tiers name each check's certification. */
  dossier: boolean;
  body(store: ExchangeStore): string;
}

function wholePage(result: RunResult, parts: readonly RunResult[], page: WholePage): string {
  const store = new ExchangeStore();
  const body = page.body(store);
  return [
    ...pageStart(page.title),
    page.header,
    toolbar(result, pageCountsOf(parts)),
    `<main><div class="wrap">${renderCoverage(parts, page.dossier)}${body}${pageMainEnd}`,
    ...pageEnd(result, store),
  ].join('\n');
}

export const renderHtml = byShape({
  run: (result) =>
    wholePage(result, [result], {
      title: `${verdictLabel(verdictOf(result))}: ${result.target.baseUrl} — svc-certify`,
      header: header(result),
      dossier: false,
      body: (store) => `${renderTimeline(result)}${baselineSection(result, 2)}${renderTiers([result], false, store)}`,
    }),
  dossier: (head, parts) =>
    wholePage(head, parts, {
      title: `${verdictLabel(verdictOf(head))}: svc-certify dossier of ${parts.length} certifications`,
      header: dossierHeader(head, parts),
      dossier: true,
      body: (store) => `${certificationSections(parts)}${renderTiers(parts, true, store)}`,
    }),
});

function pageStart(title: string): string[] {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${h(HTML_CSP)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${h(title)}</title>`,
    `<style>${HTML_STYLE}${TIMELINE_STYLE}${HTML_NO_SCRIPT_STYLE}</style>`,
    '</head>',
    '<body>',
  ];
}

const pageMainEnd = '<p class="empty" id="empty" hidden>No check matches this filter.</p></div></main>';

function pageEnd(result: RunResult, store: ExchangeStore): string[] {
  return [
    store.element(),
    `<footer><div class="wrap">${h(result.tool.name)} ${h(result.tool.version)} · ${h(result.spec.title)} · spec sha256 <code>${h(result.spec.sha256)}</code> · ${h(result.startedAt)} → ${h(result.finishedAt)}</div></footer>`,
    `<script>${HTML_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ];
}

/**
 * report.html of a dossier too large to hold (Reporter.onDossierEnd), in pieces: every certification
 * with its verdict and facts, every failed, error, warned and baseline-accepted check in full, and the
 * passed and skipped ones counted, not listed (10,000 certifications of 212 checks would make a page no
 * browser opens); the head's notice says so, and results.json and junit.xml hold every check.
 */
export function* renderDossierHtml(head: RunResult, parts: Iterable<RunResult>): Generator<string> {
  const rows = partRows(head);
  const store = new ExchangeStore();
  const counted = pageCountsOf(parts);
  yield `${pageStart(`${verdictLabel(verdictOf(head))}: svc-certify dossier of ${rows.length} certifications`).join('\n')}\n`;
  yield `${dossierHeader(head, rows)}\n${toolbar(head, counted)}\n`;
  yield `<main><div class="wrap">${certificationSections(rows)}`;
  const rest = (counted.rows.get('passed') ?? 0) + (counted.rows.get('skipped') ?? 0);
  const elideRest = `The ${rest.toLocaleString('en')} passed and skipped checks are counted here, not listed; results.json and junit.xml list every check.`;
  yield* tierChunks(parts, counted.rows, { dossier: true, store, elideRest });
  yield `${pageMainEnd}\n${pageEnd(head, store).join('\n')}`;
}

/** `--reporter html`. */
export const HTML_REPORTER = fileReporter({
  name: 'html',
  file: HTML_FILE,
  render: renderHtml,
  renderDossier: renderDossierHtml,
  readBy:
    'a person: one self-contained file (no network), failures first, each with expected, received, spec section, the exchanges and a `curl` that reproduces it',
});
