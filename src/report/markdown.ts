// summary.md, written for CI job summaries ($GITHUB_STEP_SUMMARY and the like): verdict first, then
// what needs attention. Link-free on purpose: target text is data, not something to click.

import type { CheckResult, RunResult } from '../runner/results.js';
import {
  formatCountLine,
  formatDuration,
  isExpectedFailure,
  isStrict,
  reasonOf,
  skipText,
  verdictLabel,
  verdictNotes,
  explorationLine,
  verdictOf,
  verdictTone,
} from './format.js';
import { terminalSafe } from './terminal-safe.js';
import { partRows } from './dossier.js';
import { byShape } from './report-shape.js';
import { fileReporter } from './reporter.js';
import { loadSpec } from '../spec/spec-file.js';
import { coveredCount, specCoverage } from './spec-coverage.js';

/** Only certified is green; incomplete, a passed run that is not a certification and an interruption are neither green nor red. */
const ICONS = { good: '✅', bad: '❌', unsure: '⚠️' } as const;

const MARKDOWN_FILE = 'summary.md';

/**
 * A table cell from untrusted text: job summaries render HTML, so markup is escaped; pipes would end
 * the cell and newlines the row; backslashes and markdown punctuation could restyle or link.
 */
export function mdCell(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\\/g, '\\\\')
      .replace(/([|*_`[\]#~!])/g, '\\$1')
      // GFM links a bare "https://…" or "www.…"; escaping a slash or the dot breaks the pattern it looks for.
      .replace(/:\/\//g, ':\\/\\/')
      .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}\\.`)
      .replace(/\r\n|\r|\n/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** A code span that survives any content: the fence is longer than the longest backtick run inside. */
function mdCode(text: string): string {
  const clean = text.replace(/\r\n|\r|\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** The coverage map of report.html in one line: how many sections are checked, and which hold a failure. */
function coverageLine(result: RunResult): string {
  const rows = specCoverage(loadSpec().sections, result.checks, () => undefined);
  const { covered, sections } = coveredCount(rows);
  const failing = rows
    .filter((r) => r.checks.some((c) => (c.status === 'failed' && !c.expected) || c.status === 'error'))
    .map((r) => mdCell(r.section));
  return `Spec coverage: ${covered} of ${sections} sections checked${failing.length > 0 ? `; failed or errored under ${failing.join('; ')}` : ''}.`;
}

function problemRow(check: CheckResult): string {
  const status = check.status === 'failed' ? '✗ failed' : '! error';
  const spec = check.observations[0]?.spec ?? check.spec[0] ?? '';
  return `| ${mdCode(check.id)} | ${status} | ${mdCell(spec)} | ${mdCell(reasonOf(check))} |`;
}

/**
 * A dossier: one verdict and a row per certification (from the heads), then each certification's
 * summary a level down, a part at a time. Display-safe here, piece by piece: escaping is per character.
 */
function renderDossierMarkdown(head: RunResult, parts: Iterable<RunResult>): Iterable<string> {
  return dossierMarkdown(head, partRows(head), parts);
}

function* dossierMarkdown(head: RunResult, rows: readonly RunResult[], parts: Iterable<RunResult>): Generator<string> {
  const verdict = verdictOf(head);
  const lines: string[] = [`# ${ICONS[verdictTone(verdict)]} svc-certify dossier: ${verdictLabel(verdict)}`, ''];
  lines.push('| Certification | Target | Verdict | Checks |', '| --- | --- | --- | --- |');
  for (const part of rows) {
    lines.push(
      `| ${mdCell(part.title)} | ${mdCode(part.target.baseUrl)} | ${verdictLabel(verdictOf(part))} | ${mdCell(formatCountLine(part.summary))} |`,
    );
  }
  lines.push('', `**${formatCountLine(head.summary)}**`, '');
  yield terminalSafe(`${lines.join('\n')}\n`);
  let first = true;
  for (const part of parts) {
    // Headings one level down, so the dossier's title stays the only top-level one.
    const [, ...rest] = renderRunMarkdown(part).trimEnd().split('\n');
    const icon = ICONS[verdictTone(verdictOf(part))];
    const section = [
      `## ${icon} ${mdCell(part.title)}: ${verdictLabel(verdictOf(part))}`,
      ...rest.map((line) => (/^#+ /.test(line) ? `#${line}` : line)),
    ];
    // A blank line between two certifications, none after the last.
    yield terminalSafe(`${first ? '' : '\n'}${section.join('\n')}\n`);
    first = false;
  }
}

/**
 * summary.md. `cat summary.md` in a terminal must run nothing a target or a scanned file's name wrote
 * (ESC, OSC 52 clipboard writes, OSC 8 links, NUL, C1): the console's neutraliser makes each a
 * visible \x.. escape, here as there.
 */
export const renderMarkdown = byShape({
  run: (result) => terminalSafe(renderRunMarkdown(result)),
  dossier: (head, parts) => [...dossierMarkdown(head, parts, parts)].join(''),
});

function renderRunMarkdown(result: RunResult): string {
  const lines = [
    ...runHeadLines(result),
    ...baselineProblemLines(result),
    ...problemLines(result),
    ...warningLines(result),
    ...expectedLines(result),
    ...skippedLines(result),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The verdict, the target, the counts table and the coverage line. */
function runHeadLines(result: RunResult): string[] {
  const verdict = verdictOf(result);
  const { summary } = result;
  const icon = ICONS[verdictTone(verdict)];
  const lines: string[] = [];
  lines.push(`# ${icon} svc-certify: ${verdictLabel(verdict)}`, '');
  const notes = verdictNotes(result);
  if (notes.length > 0) lines.push(...notes.map((n) => `- ${mdCell(n)}`), '');
  lines.push(
    `Target ${mdCode(result.target.baseUrl)} (${mdCell(result.target.environment)}${result.target.embedded ? ', embedded sandbox' : ''}) · ` +
      `${mdCell(result.tool.name)} ${mdCell(result.tool.version)} · ${mdCell(formatDuration(result.durationMs))}` +
      (isStrict(result)
        ? ' · strict: warnings, and skips that leave the certification incomplete, count as failures'
        : ''),
    '',
  );
  const exploration = explorationLine(result);
  if (exploration) lines.push(mdCell(exploration), '');
  lines.push('| Status | Checks |', '| --- | ---: |');
  lines.push(`| ✓ passed | ${summary.passed} |`);
  lines.push(`| ✗ failed | ${summary.failed} |`);
  lines.push(`| ! error | ${summary.error} |`);
  lines.push(`| ○ skipped | ${summary.skipped} |`);
  if (summary.warning > 0) lines.push(`| ⚠ warning | ${summary.warning} |`);
  if (result.baseline) lines.push(`| ≈ expected failure (baseline) | ${summary.expected} |`);
  lines.push(`| total | ${summary.total} |`, '');
  lines.push(`**${formatCountLine(summary)}**`, '');
  lines.push(coverageLine(result), '');
  return lines;
}

/** A section of summary.md: its heading, an optional line saying what it holds, and a table of `rows` (none: no section). */
function tableSection(heading: string, columns: readonly string[], rows: readonly string[], intro?: string): string[] {
  if (rows.length === 0) return [];
  return [
    `## ${heading}`,
    '',
    ...(intro === undefined ? [] : [intro, '']),
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows,
    '',
  ];
}

function baselineProblemLines(result: RunResult): string[] {
  if (!result.baseline) return [];
  return tableSection(
    `Baseline problems (${mdCell(result.baseline.file)})`,
    ['Entry', 'Problem', 'What to do'],
    result.baseline.problems.map((p) => `| ${mdCode(p.id)} | ${p.kind} | ${mdCell(p.message)} |`),
  );
}

function problemLines(result: RunResult): string[] {
  const problems = result.checks.filter(
    (check) => (check.status === 'failed' && !check.expected) || check.status === 'error',
  );
  return tableSection(
    'Failed and error checks',
    ['Check', 'Status', 'Spec section', 'Message'],
    problems.map(problemRow),
  );
}

/** Apart from failures: a warning does not fail the run (unless strict) and is not blame. */
function warningLines(result: RunResult): string[] {
  const warned = result.checks.filter((check) => check.status === 'warning');
  return tableSection(
    'Warnings',
    ['Check', 'Spec section', 'Message'],
    warned.map((check) => {
      const spec = check.observations[0]?.spec ?? check.spec[0] ?? '';
      return `| ${mdCode(check.id)} | ${mdCell(spec)} | ${mdCell(reasonOf(check))} |`;
    }),
    'Where the spec states a rule without a MUST, or reads two ways: each message says which reading was taken.',
  );
}

function expectedLines(result: RunResult): string[] {
  return tableSection(
    'Expected failures (baseline)',
    ['Check', 'Until', 'Reason', 'Failure'],
    result.checks
      .filter(isExpectedFailure)
      .map(
        (check) =>
          `| ${mdCode(check.id)} | ${mdCell(check.expected.until)} | ${mdCell(check.expected.reason)} | ${mdCell(reasonOf(check))} |`,
      ),
  );
}

function skippedLines(result: RunResult): string[] {
  const skipped = result.checks.filter((check) => check.status === 'skipped');
  if (skipped.length === 0) return [];
  return [
    '<details>',
    `<summary>${skipped.length} skipped ${skipped.length === 1 ? 'check' : 'checks'}</summary>`,
    '',
    '| Check | Reason |',
    '| --- | --- |',
    ...skipped.map((check) => `| ${mdCode(check.id)} | ${mdCell(skipText(check))} |`),
    '',
    '</details>',
    '',
  ];
}

/** `--reporter markdown`. */
export const MARKDOWN_REPORTER = fileReporter({
  name: 'markdown',
  file: MARKDOWN_FILE,
  render: renderMarkdown,
  renderDossier: renderDossierMarkdown,
  readBy: 'CI job summaries (`cat reports/summary.md >> "$GITHUB_STEP_SUMMARY"`)',
});
