// Wording and numbers shared by every reporter, so the console, the HTML page and summary.md never
// disagree about a duration, a verdict or the count line a CI parser reads.

import {
  skipKindOf,
  summarize,
  type CheckResult,
  type CheckStatus,
  type MissingInput,
  type Observation,
  type CheckExchange,
  type RunResult,
  type RunSummary,
  type SkipKind,
  type Verdict,
} from '../runner/results.js';
import { decideVerdict, describeMissing, uncertifiedByOfResult, verdictOfResult } from '../runner/verdict.js';

/** The one icon of each status, in the console and in report.html. */
export const STATUS_ICON: Record<CheckStatus, string> = {
  passed: '✓',
  failed: '✗',
  skipped: '○',
  error: '!',
  warning: '⚠',
};

/** The label every reporter prints; passed-not-certified is never "Certified" (runner/verdict.ts). */
export { verdictLabel } from '../runner/verdict.js';

/** "12 ms", "3.4 s", "2 min 05 s": rounded so that snapshots do not depend on sub-millisecond noise. */
export function formatDuration(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (safe < 1000) return `${Math.round(safe)} ms`;
  if (safe < 60_000) return `${(safe / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(safe / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

/**
 * `N passed, N failed, N skipped`, then `, N warnings` and `, N errors` only when there are any: CI
 * parsers match the first three fields, so their order and wording are part of the contract.
 */
export function formatCountLine(summary: RunSummary): string {
  let line = `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`;
  if (summary.warning > 0) line += `, ${summary.warning} ${summary.warning === 1 ? 'warning' : 'warnings'}`;
  if (summary.error > 0) line += `, ${summary.error} ${summary.error === 1 ? 'error' : 'errors'}`;
  // `?? 0`: results.json written before baselines existed has no such count.
  const expected = summary.expected ?? 0;
  if (expected > 0) line += `, ${expected} expected ${expected === 1 ? 'failure' : 'failures'} (baseline)`;
  return line;
}

/** Strict mode (warnings and incomplete-making skips count as failures) is read from the redacted config the run recorded. */
export function isStrict(result: RunResult): boolean {
  return result.config['strict'] === true;
}

export type { Verdict };

/** The verdict decided once when the reports were written (the exit code is the same decision). */
export function verdictOf(result: RunResult): Verdict {
  return verdictOfResult(result);
}

/** A failed check the operator's baseline accepts: reported apart, it does not fail the run. */
export function isExpectedFailure(
  check: CheckResult,
): check is CheckResult & { expected: NonNullable<CheckResult['expected']> } {
  return check.status === 'failed' && check.expected !== undefined;
}

/** How a verdict is coloured: only certified is good; incomplete, passed-not-certified and interrupted are neither. */
export function verdictTone(verdict: Verdict): 'good' | 'bad' | 'unsure' {
  return verdict === 'certified' ? 'good' : verdict === 'not-certified' ? 'bad' : 'unsure';
}

/**
 * What left the certification incomplete: stored with the verdict; for a results.json older than stored
 * verdicts, decided with it (verdictOfResult), so the notes always explain the verdict shown.
 */
function missingOf(result: RunResult): MissingInput[] {
  if (result.verdict !== undefined) return result.missing ?? [];
  return decideVerdict(result, isStrict(result)).missing;
}

/**
 * The exploration's line: its seed (the same seed sends the same requests), and how many generated
 * requests it sent of its cap; undefined for a certification without one (scan, receiver, partner).
 */
export function explorationLine(result: RunResult): string | undefined {
  const e = result.exploration;
  if (!e) return undefined;
  if (e.cap === 0) return `exploration off (--explore 0); seed ${e.seed}`;
  return `exploration: seed ${e.seed} (replay with --seed ${e.seed}), ${e.sent} generated requests sent of up to ${e.cap}`;
}

/** The lines under a verdict that say why it is not `certified` and what to do (empty when certified). */
export function verdictNotes(result: RunResult): string[] {
  const notes: string[] = [];
  if (result.interrupted)
    notes.push(
      `interrupted by ${result.interrupted.signal}: the checks not ended are recorded as interrupted, nothing is blamed on the target`,
    );
  if (result.selection) {
    const { suites, grep, deselected } = result.selection;
    const by = [suites.length ? `--suite ${suites.join(',')}` : '', grep ? `--grep "${grep}"` : '']
      .filter(Boolean)
      .join(' ');
    notes.push(
      `a selection (${by}): ${deselected} ${deselected === 1 ? 'check' : 'checks'} of the catalogue not run; this is not a certification`,
    );
  }
  notes.push(...gateNotes(result));
  const byBaseline = uncertifiedByOfResult(result).includes('baseline');
  if (byBaseline) notes.push(baselineNote(result.checks));
  for (const m of missingOf(result)) notes.push(describeMissing(m));
  for (const n of result.notices ?? []) notes.push(n.message);
  return notes;
}

/**
 * The gate profile's lines: that it is not a certification, then each group of what only a certification
 * covers ("certification only: …"), so a person sees what the gate left unjudged without opening a check.
 */
function gateNotes(result: Pick<RunResult, 'gate'>): string[] {
  if (!result.gate) return [];
  const groups = result.gate.certificationOnly;
  const total = groups.reduce((n, g) => n + g.checks.length, 0);
  return [
    `the gate profile (--gate): ${total} ${total === 1 ? 'check' : 'checks'} of the catalogue are certification only; this is not a certification`,
    ...groups.map((g) => `certification only: ${g.why}: ${g.checks.join(', ')}`),
  ];
}

/** The baseline's line: how many failures and skips it accepted, which is why the run is not a certification. */
function baselineNote(checks: readonly CheckResult[]): string {
  const failures = checks.filter((c) => c.expected && c.status === 'failed').length;
  const skips = checks.filter((c) => c.expected && c.status === 'skipped').length;
  const parts = [
    failures > 0 ? `${failures} ${failures === 1 ? 'failure' : 'failures'}` : '',
    skips > 0 ? `${skips} ${skips === 1 ? 'skip' : 'skips'}` : '',
  ].filter(Boolean);
  return `the baseline accepted ${parts.join(' and ')}: what it accepts was not judged as passing; this is not a certification`;
}

export const SKIP_WORDS: Record<SkipKind, string> = {
  'not-applicable': 'not applicable',
  'needs-input': 'needs input',
  'set-up': 'set-up',
  'not-exercised': 'not exercised',
  inconclusive: 'inconclusive',
  deselected: 'deselected',
  interrupted: 'interrupted',
};

/**
 * "skipped (needs input)": the kind says whether the skip costs the certification anything; a skip the
 * baseline accepts says so, and until when.
 */
function skipLabel(check: CheckResult): string {
  const kind = skipKindOf(check);
  if (!kind) return 'skipped';
  return `skipped (${SKIP_WORDS[kind]}${check.expected ? `, accepted by the baseline until ${check.expected.until}` : ''})`;
}

/**
 * "skipped (interrupted): the certification was stopped …": the label, then the reason without the
 * kind it may start with again ("interrupted: …", "not exercised: …"). Every reporter shows a skip so.
 */
export function skipText(check: CheckResult): string {
  const kind = skipKindOf(check);
  const reason = check.message || 'no reason given';
  const repeated = kind ? new RegExp(`^${SKIP_WORDS[kind]}:\\s*`, 'i') : undefined;
  return `${skipLabel(check)}: ${repeated ? reason.replace(repeated, '') || reason : reason}`;
}

/** "1 expected failure, 1 accepted skip of 3 entries": what the `--baseline` file accepted in this run. */
export function baselineSummary(result: RunResult): string {
  const b = result.baseline;
  if (!b) return '';
  const skips = result.checks.filter((check) => check.status === 'skipped' && check.expected !== undefined).length;
  const accepted = `${b.expected} expected ${b.expected === 1 ? 'failure' : 'failures'}${skips > 0 ? `, ${skips} accepted ${skips === 1 ? 'skip' : 'skips'}` : ''}`;
  return `${accepted} of ${b.entries} ${b.entries === 1 ? 'entry' : 'entries'}`;
}

/** Checks of one suite, in the order the run gave them (never re-sorted: output must be stable). */
export function checksBySuite(result: RunResult): Array<{ suite: string; checks: CheckResult[] }> {
  const groups = new Map<string, CheckResult[]>();
  for (const suite of result.suites) groups.set(suite, []);
  for (const check of result.checks) {
    const list = groups.get(check.suite);
    if (list) list.push(check);
    // A check whose suite is missing from `suites` must still be reported, not silently dropped.
    else groups.set(check.suite, [check]);
  }
  return [...groups].map(([suite, checks]) => ({ suite, checks }));
}

export function countStatuses(checks: readonly CheckResult[]): RunSummary {
  return summarize(checks);
}

/** The exchange an observation points to; the index is into the check's own `exchanges` array. */
export function exchangeOf(check: CheckResult, observation: Observation): CheckExchange | undefined {
  if (observation.exchange === undefined) return undefined;
  return check.exchanges[observation.exchange];
}

/**
 * The exchanges that reproduce a failure: those the observations cite, in citation order; when none is
 * cited, the check's last exchange (the one closest to the verdict).
 */
export function reproductionExchanges(check: CheckResult): CheckExchange[] {
  const seen = new Set<number>();
  const out: CheckExchange[] = [];
  for (const observation of check.observations) {
    const exchange = exchangeOf(check, observation);
    if (exchange && observation.exchange !== undefined && !seen.has(observation.exchange)) {
      seen.add(observation.exchange);
      out.push(exchange);
    }
  }
  const last = check.exchanges.at(-1);
  if (out.length === 0 && last) out.push(last);
  return out;
}

/** The one-line reason shown under a check that did not pass. */
export function reasonOf(check: CheckResult): string {
  if (check.message) return check.message;
  if (check.observations[0]) return check.observations[0].message;
  if (check.error) return `${check.error.name}: ${check.error.message}`;
  return '';
}

/** Plain-text description of one observation, indented by `indent`; used by JUnit and the console. */
export function observationLines(check: CheckResult, observation: Observation): string[] {
  const lines = [
    `${observation.severity === 'warning' ? 'WARNING: ' : ''}${observation.message}`,
    `spec: ${observation.spec}`,
  ];
  if (observation.expected !== undefined) lines.push(`expected: ${observation.expected}`);
  if (observation.received !== undefined) lines.push(`received: ${observation.received}`);
  if (observation.pointer !== undefined)
    lines.push(`pointer: ${observation.pointer === '' ? '(whole body)' : observation.pointer}`);
  const exchange = exchangeOf(check, observation);
  if (exchange) lines.push(`exchange: #${exchange.index}${exchange.label ? ` (${exchange.label})` : ''}`);
  return lines;
}

function messageLines(
  headers: Record<string, string>,
  body: string | undefined,
  truncated?: boolean,
  bytes?: number,
): string[] {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  if (body !== undefined && body !== '') {
    lines.push('', body);
    if (truncated) lines.push(`[body truncated${bytes !== undefined ? `; ${bytes} bytes in all` : ''}]`);
  }
  return lines;
}

/** An exchange as an HTTP-like transcript: request line, headers, body; status, headers, body. */
export function exchangeText(exchange: CheckExchange): string {
  const { request, response } = exchange;
  const title = `# exchange ${exchange.index}${exchange.label ? `: ${exchange.label}` : ''} (${formatDuration(exchange.durationMs)})`;
  const lines = [title, `${request.method} ${request.url}`];
  lines.push(...messageLines(request.headers, request.body, request.bodyTruncated, request.bodyBytes));
  lines.push('');
  if (response) {
    lines.push(`HTTP ${response.status}`);
    lines.push(...messageLines(response.headers, response.body, response.bodyTruncated, response.bodyBytes));
  } else {
    lines.push('(no response)');
  }
  if (exchange.transportError)
    lines.push(`transport error: ${exchange.transportError.code}: ${exchange.transportError.message}`);
  return lines.join('\n');
}

/** The warnings of a check (a failed check may carry some beside its failures). */
export function warningsOf(check: CheckResult): Observation[] {
  return check.observations.filter((o) => o.severity === 'warning');
}
