// Text of the console reporter, shared by its plain and live modes so both end with the same grouped
// summary and the same last line.

import { Chalk, type ChalkInstance } from 'chalk';
import type { CheckResult, CheckStatus, RunResult } from '../runner/results.js';
import { byShape } from './report-shape.js';
import { terminalSafe } from './terminal-safe.js';
import {
  baselineSummary,
  checksBySuite,
  countStatuses,
  formatCountLine,
  formatDuration,
  isExpectedFailure,
  reasonOf,
  STATUS_ICON,
  skipText,
  verdictLabel,
  verdictNotes,
  explorationLine,
  verdictOf,
  verdictTone,
  type Verdict,
} from './format.js';

export function makeChalk(color: boolean): ChalkInstance {
  // Level 1 (16 colours) is enough and safe on every terminal that asked for colour.
  return new Chalk({ level: color ? 1 : 0 });
}

function paintStatus(c: ChalkInstance, status: CheckStatus, text: string): string {
  switch (status) {
    case 'passed':
      return c.green(text);
    case 'failed':
      return c.red(text);
    case 'error':
      return c.magenta(text);
    case 'skipped':
      return c.yellow(text);
    case 'warning':
      return c.yellowBright(text);
  }
}

const MAX_VALUE = 200;

/** A value on one line, cut so that a 1 MB body cannot flood the log (report.html has it whole). */
export function oneLine(text: string, max = MAX_VALUE): string {
  const flat = terminalSafe(text)
    .replace(/\r\n|\r|\n/g, ' ⏎ ')
    .replace(/\t/g, ' ');
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
}

/** Icon of an expected failure (a failed check the baseline accepts): apart from ✗, not a pass either. */
const EXPECTED_ICON = '≈';

/** `✓ auth.missing-partner-key-refused-401  A request without x-partner-key is refused with 401 invalid_partner_key, on every endpoint (12 ms)` */
export function formatCheckLine(check: CheckResult, c: ChalkInstance): string {
  const icon = isExpectedFailure(check)
    ? c.yellow(EXPECTED_ICON)
    : paintStatus(c, check.status, STATUS_ICON[check.status]);
  return `${icon} ${c.bold(oneLine(check.id))}  ${oneLine(check.title)} ${c.dim(`(${formatDuration(check.durationMs)})`)}`;
}

/** The reason lines under a check that did not pass, without indentation. */
function reasonLines(check: CheckResult, c: ChalkInstance, moreIn = 'report.html'): string[] {
  switch (check.status) {
    case 'passed':
      return [];
    case 'skipped':
      return [c.yellow(oneLine(skipText(check)))];
    case 'error': {
      const detail = check.error ? `${check.error.name}: ${check.error.message}` : check.message;
      return [c.magenta(`engine error: ${oneLine(detail)}`)];
    }
    case 'warning':
    case 'failed': {
      // The lead observation is the one that decided the status: the first failure, else the first warning.
      const expected = check.expected
        ? [c.yellow(`expected failure (baseline, until ${check.expected.until}): ${oneLine(check.expected.reason)}`)]
        : [];
      const paint = check.expected ? c.dim : check.status === 'failed' ? c.red : c.yellowBright;
      const lead =
        check.status === 'failed' ? check.observations.find((o) => o.severity !== 'warning') : check.observations[0];
      const first = lead ?? check.observations[0];
      const more = check.observations.filter((o) => o !== first);
      if (!first) return [...expected, paint(oneLine(reasonOf(check)))];
      const lines = [...expected, paint(`${check.status === 'warning' ? 'warning: ' : ''}${oneLine(first.message)}`)];
      if (first.expected !== undefined) lines.push(`${c.dim('expected:')} ${oneLine(first.expected)}`);
      if (first.received !== undefined) lines.push(`${c.dim('received:')} ${oneLine(first.received)}`);
      if (first.pointer !== undefined && first.pointer !== '') lines.push(`${c.dim('at:')} ${oneLine(first.pointer)}`);
      lines.push(`${c.dim('spec:')} ${oneLine(first.spec)}`);
      if (more.length > 0)
        lines.push(c.dim(`+${more.length} more ${more.length === 1 ? 'observation' : 'observations'} ${moreIn}`));
      return lines;
    }
  }
}

/** Where the observations the console leaves out can be read: only a report that is written is named. */
export function whereMoreIs(reporters: readonly string[] | undefined): string {
  const written = reporters ?? ['html'];
  if (written.includes('html')) return 'in report.html';
  if (written.includes('json')) return 'in results.json';
  return 'not shown (--reporter html writes them all)';
}

function reportersOf(result: RunResult): readonly string[] | undefined {
  const reporters = result.config['reporters'];
  return Array.isArray(reporters) ? reporters.map(String) : undefined;
}

function toned(verdict: Verdict, text: string, c: ChalkInstance): string {
  const tone = verdictTone(verdict);
  return tone === 'good' ? c.green.bold(text) : tone === 'bad' ? c.red.bold(text) : c.yellow.bold(text);
}

/** Which checks a summary lists: all of them, or (--quiet) only those that did not pass cleanly. */
export type CheckFilter = (check: CheckResult) => boolean;

/** --quiet: failures, engine errors and warnings (an expected failure is a failure the baseline accepts: shown too). */
export const NEEDS_ATTENTION: CheckFilter = (check) =>
  check.status === 'failed' || check.status === 'error' || check.status === 'warning';

/** A check's line and its reason lines, as the summary and the plain console print it. */
export function formatCheckBlock(check: CheckResult, c: ChalkInstance, moreIn: string, indent = ''): string[] {
  return [
    `${indent}${formatCheckLine(check, c)}`,
    ...reasonLines(check, c, moreIn).map((reason) => `${indent}    ${reason}`),
  ];
}

/**
 * The checks `include` keeps, grouped by suite in suite order with reasons indented, then the ending
 * (baseline, verdict, count line). A dossier lists each certification under its title.
 */
export function formatGroupedSummary(result: RunResult, c: ChalkInstance, include: CheckFilter = () => true): string {
  return byShape({
    run: (run) => `${[...formatSuites(run, c, include), ...formatEndingLines(run, c)].join('\n')}\n`,
    dossier: (head, parts) => [...formatDossierSummary(head, parts, c, include)].join(''),
  })(result);
}

/** A dossier: each certification under its title as it comes, then the one verdict and the combined count line. */
export function* formatDossierSummary(
  head: RunResult,
  parts: Iterable<RunResult>,
  c: ChalkInstance,
  include: CheckFilter = () => true,
): Generator<string> {
  let first = true;
  for (const part of parts) {
    yield `${first ? '' : '\n'}${c.bold.underline(oneLine(part.title))}\n\n${formatGroupedSummary(part, c, include)}`;
    first = false;
  }
  const verdict = verdictOf(head);
  const label = `${verdictLabel(verdict)} (dossier of ${head.parts?.length ?? 0} certifications)`;
  yield `\n${toned(verdict, label, c)}\n${formatCountLine(head.summary)}\n`;
}

function formatSuites(result: RunResult, c: ChalkInstance, include: CheckFilter): string[] {
  const lines: string[] = [];
  for (const { suite, checks } of checksBySuite(result)) {
    const shown = checks.filter(include);
    if (shown.length === 0) continue;
    const counts = countStatuses(checks);
    const warned =
      counts.warning > 0 ? `, ${counts.warning} with ${counts.warning === 1 ? 'a warning' : 'warnings'}` : '';
    lines.push(`${c.bold(oneLine(suite))} ${c.dim(`(${counts.passed}/${counts.total} passed${warned})`)}`);
    for (const check of shown) lines.push(...formatCheckBlock(check, c, whereMoreIs(reportersOf(result)), '  '));
    lines.push('');
  }
  return lines;
}

/** What ends every console output: the checks listed (those of `include` the console has not printed yet), baseline, verdict, count line. */
export function formatEnding(result: RunResult, c: ChalkInstance, unprinted: CheckFilter = () => false): string {
  return `${[...formatSuites(result, c, unprinted), ...formatEndingLines(result, c)].join('\n')}\n`;
}

function formatEndingLines(result: RunResult, c: ChalkInstance): string[] {
  const lines: string[] = [];
  if (result.baseline) {
    const b = result.baseline;
    lines.push(`${c.bold('baseline')} ${oneLine(b.file)}: ${baselineSummary(result)}`);
    for (const problem of b.problems) lines.push(`  ${c.red('✗')} ${c.red(oneLine(problem.message))}`);
    lines.push('');
  }
  const verdict = verdictOf(result);
  const verdictText = verdictLabel(verdict);
  // scan and receiver judge no API environment: the line says nothing rather than "unknown".
  const environment = result.target.environment === 'unknown' ? '' : `${result.target.environment}, `;
  lines.push(
    `${toned(verdict, verdictText, c)}: ${oneLine(result.target.baseUrl)} ${c.dim(`(${environment}${formatDuration(result.durationMs)})`)}`,
  );
  for (const note of verdictNotes(result)) lines.push(`  ${c.yellow(oneLine(note))}`);
  const exploration = explorationLine(result);
  if (exploration) lines.push(c.dim(exploration));
  // Uncoloured so a CI parser matching /^\d+ passed, \d+ failed, \d+ skipped/ never meets an escape code.
  lines.push(formatCountLine(result.summary));
  return lines;
}
