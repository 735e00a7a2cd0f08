// junit.xml, valid against the xUnit plugin's junit-10.xsd (vendored in test/vendor/junit):
// no `file` on testcase, suite times as plain decimals with at most three fraction digits.

import type { CheckResult, RunResult } from '../runner/results.js';
import {
  checksBySuite,
  countStatuses,
  exchangeText,
  isExpectedFailure,
  observationLines,
  reproductionExchanges,
  skipText,
  verdictNotes,
  verdictOf,
  warningsOf,
} from './format.js';
import { fileReporter } from './reporter.js';
import { cdata, escapeXmlAttr } from './xml-text.js';
import { byShape } from './report-shape.js';

const JUNIT_FILE = 'junit.xml';

/** Seconds with three fraction digits: the Surefire pattern of the XSD refuses more, and any unit. */
export function junitTime(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  return (safe / 1000).toFixed(3);
}

function indentBlock(lines: string[], prefix: string): string[] {
  return lines.map((line) => (line === '' ? '' : prefix + line));
}

function failureText(check: CheckResult): string {
  const lines: string[] = [`${check.id}: ${check.title}`, `spec: ${check.spec.join('; ')}`, ''];
  check.observations.forEach((observation, i) => {
    const [first, ...rest] = observationLines(check, observation);
    lines.push(`${i + 1}. ${first}`, ...indentBlock(rest, '   '));
  });
  const repro = reproductionExchanges(check);
  if (repro.length > 0) {
    lines.push('', 'Reproduce with:');
    for (const exchange of repro)
      if (exchange.curl !== undefined) lines.push(...indentBlock(exchange.curl.split('\n'), '  '));
  }
  return lines.join('\n');
}

function errorText(check: CheckResult): string {
  const lines = [
    `${check.id}: ${check.title}`,
    'The certifier itself broke while running this check (engine error, not a verdict on the target).',
  ];
  if (check.error) lines.push('', check.error.stack ?? `${check.error.name}: ${check.error.message}`);
  else if (check.message) lines.push('', check.message);
  return lines.join('\n');
}

function outcomeElement(check: CheckResult): string {
  // An expected failure is a passing testcase: the baseline accepts it, so CI must not count it.
  if (isExpectedFailure(check)) return '';
  switch (check.status) {
    case 'failed':
      return `      <failure message="${escapeXmlAttr(check.message)}" type="nonconformance">${cdata(failureText(check))}</failure>\n`;
    case 'error': {
      const type = check.error?.name ?? 'EngineError';
      const message = check.error ? check.error.message : check.message;
      return `      <error message="${escapeXmlAttr(message)}" type="${escapeXmlAttr(type)}">${cdata(errorText(check))}</error>\n`;
    }
    case 'skipped':
      return `      <skipped message="${escapeXmlAttr(skipText(check))}"/>\n`;
    case 'passed':
    case 'warning':
      return '';
  }
}

/**
 * A warning is a passing testcase (JUnit has no fifth outcome) whose <system-out> starts with
 * `WARNING:`, so a CI tool that shows the output shows the warning first, and a grep finds it.
 */
function warningText(check: CheckResult): string {
  const lines: string[] = [];
  for (const observation of warningsOf(check)) {
    const [first = '', ...rest] = observationLines(check, observation);
    lines.push(first, ...indentBlock(rest, '  '));
  }
  return lines.join('\n');
}

/**
 * An expected failure is a passing testcase whose <system-out> starts with `EXPECTED FAILURE:`. CI tools
 * parse junit.xml on every pipeline and some cap its size, so a passed check carries no exchanges
 * (results.json and report.html keep them all).
 */
function systemOut(check: CheckResult): string {
  if (isExpectedFailure(check)) {
    const head = `EXPECTED FAILURE: ${check.expected.reason} (accepted by the baseline until ${check.expected.until})`;
    return `      <system-out>${cdata(`${head}\n\n${failureText(check)}`)}</system-out>\n`;
  }
  const parts: string[] = [];
  if (check.status === 'warning') parts.push(warningText(check));
  if (check.status !== 'passed' && check.exchanges.length > 0)
    parts.push(check.exchanges.map(exchangeText).join('\n\n'));
  if (parts.length === 0) return '';
  return `      <system-out>${cdata(parts.join('\n\n'))}</system-out>\n`;
}

/** Baseline entries that fail the run (stale, expired, unknown) as failed testcases, so CI shows them. */
function baselineSuite(result: RunResult, prefix: string): string {
  const b = result.baseline;
  if (!b || b.problems.length === 0) return '';
  let out = `  <testsuite name="${escapeXmlAttr(`${prefix}baseline`)}" tests="${b.problems.length}" failures="${b.problems.length}" errors="0" skipped="0" time="0.000">\n`;
  for (const p of b.problems) {
    out += `    <testcase name="${escapeXmlAttr(`baseline.${p.id}`)}" classname="svc-certify.baseline" time="0.000">\n`;
    out += `      <failure message="${escapeXmlAttr(p.message)}" type="baseline-${p.kind}">${cdata(`${p.message}\nbaseline file: ${b.file}`)}</failure>\n`;
    out += '    </testcase>\n';
  }
  out += '  </testsuite>\n';
  return out;
}

/** Testcase names must be unique for CI tools to track history; ids already are, but never trust it. */
function uniqueNames(checks: readonly CheckResult[]): string[] {
  const seen = new Map<string, number>();
  return checks.map((check) => {
    const n = (seen.get(check.id) ?? 0) + 1;
    seen.set(check.id, n);
    return n === 1 ? check.id : `${check.id} (${n})`;
  });
}

/** The testsuite elements of one certification; `prefix` names its suites apart in a dossier. */
function testsuites(result: RunResult, prefix: string): string {
  const names = uniqueNames(result.checks);
  const nameOf = new Map(result.checks.map((check, i) => [check, names[i]]));
  const propertyRows: Array<[string, string]> = [
    ...(prefix ? [['certification', result.title] satisfies [string, string]] : []),
    ['target', result.target.baseUrl],
    ['environment', result.target.environment],
    ['embedded', String(result.target.embedded)],
    ['tool', `${result.tool.name} ${result.tool.version}`],
    ['spec', result.spec.title],
    ['spec.sha256', result.spec.sha256],
    // A CI test tab shows an incomplete or interrupted certification as skips only: the verdict says what they cost.
    ['verdict', verdictOf(result)],
    ...verdictNotes(result).map((note): [string, string] => ['verdict.note', note]),
    ...(result.exploration
      ? ([
          ['exploration.seed', String(result.exploration.seed)],
          ['exploration.cap', String(result.exploration.cap)],
          ['exploration.sent', String(result.exploration.sent)],
        ] satisfies Array<[string, string]>)
      : []),
  ];
  const properties = propertyRows
    .map(([name, value]) => `      <property name="${escapeXmlAttr(name)}" value="${escapeXmlAttr(value)}"/>\n`)
    .join('');

  let out = '';
  for (const { suite, checks } of checksBySuite(result)) {
    const counts = countStatuses(checks);
    const suiteMs = checks.reduce((sum, check) => sum + (Number.isFinite(check.durationMs) ? check.durationMs : 0), 0);
    out += `  <testsuite name="${escapeXmlAttr(`${prefix}${suite}`)}" tests="${counts.total}" failures="${counts.failed}" errors="${counts.error}" skipped="${counts.skipped}" time="${junitTime(suiteMs)}">\n`;
    out += `    <properties>\n${properties}    </properties>\n`;
    for (const check of checks) {
      out += `    <testcase name="${escapeXmlAttr(nameOf.get(check) ?? check.id)}" classname="${escapeXmlAttr(`svc-certify.${suite}`)}" time="${junitTime(check.durationMs)}">\n`;
      out += outcomeElement(check);
      out += systemOut(check);
      out += '    </testcase>\n';
    }
    out += '  </testsuite>\n';
  }
  return out + baselineSuite(result, prefix);
}

/**
 * The document in pieces: the root element counts every part (`counted`: their heads will do), then
 * each part's suites as it comes.
 */
function* testsuitesElement(
  counted: ReadonlyArray<Pick<RunResult, 'summary' | 'baseline'>>,
  parts: Iterable<RunResult>,
  durationMs: number,
  prefixed: boolean,
): Generator<string> {
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const part of counted) {
    const problems = part.baseline?.problems.length ?? 0;
    tests += part.summary.total + problems;
    failures += part.summary.failed + problems;
    errors += part.summary.error;
  }
  yield (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="svc-certify" tests="${tests}" failures="${failures}" errors="${errors}" time="${junitTime(durationMs)}">\n`
  );
  // Two parts of one kind (two runs, say) share a title: the second is named "(2)" so suite names stay apart.
  const seen = new Map<string, number>();
  for (const part of parts) {
    const n = (seen.get(part.title) ?? 0) + 1;
    seen.set(part.title, n);
    yield testsuites(part, prefixed ? `${part.title}${n > 1 ? ` (${n})` : ''} › ` : '');
  }
  yield '</testsuites>\n';
}

/** junit.xml of a dossier in pieces, a part at a time (Reporter.onDossierEnd). */
function renderDossierJunit(head: RunResult, parts: Iterable<RunResult>): Iterable<string> {
  return testsuitesElement(head.parts ?? [], parts, head.durationMs, true);
}

export const renderJunit = byShape({
  run: (result) => [...testsuitesElement([result], [result], result.durationMs, false)].join(''),
  // A dossier: each certification's suites, named after it (two runs may share suite names).
  dossier: (head, parts) => [...renderDossierJunit(head, parts)].join(''),
});

/** `--reporter junit`. */
export const JUNIT_REPORTER = fileReporter({
  name: 'junit',
  file: JUNIT_FILE,
  render: renderJunit,
  renderDossier: renderDossierJunit,
  readBy:
    'CI test tabs: one `testsuite` per suite, one `testcase` per check; a warning is a passing testcase whose `<system-out>` starts with `WARNING:`, an expected failure (baseline) one starting `EXPECTED FAILURE:`; exchanges only for checks that did not pass',
});
