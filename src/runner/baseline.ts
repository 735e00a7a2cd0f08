// The operator's baseline of known failures (`--baseline FILE`, SVC_BASELINE): a listed check that
// fails is an expected failure and does not fail the run; a listed check that passes (stale), an entry
// past its `until`, or an id no check of this certification has fails the run, so the baseline only
// ever shrinks (the OpenID conformance suite's expected-failures list, made strict).

import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/config-error.js';
import { leavesIncomplete, summarize, type BaselineProblem, type CheckResult, type RunResult } from './results.js';
import { errnoOrMessage, errorMessage } from '../narrow.js';

export interface BaselineEntry {
  id: string;
  reason: string;
  /** YYYY-MM-DD: the last day the entry is honoured. */
  until: string;
}

export interface Baseline {
  /** The file as the operator named it (shown in reports and messages). */
  file: string;
  entries: BaselineEntry[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** Today as YYYY-MM-DD in UTC: a CI runner's time zone must not decide whether an entry expired. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Validates a baseline's JSON text; every problem is a ConfigError of one line naming the fix. */
export function parseBaseline(text: string, file: string): Baseline {
  const fix = 'expected {"expected_failures": [{"id": "<check id>", "reason": "…", "until": "YYYY-MM-DD"}]}';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`--baseline ${file} is not valid JSON (${errorMessage(e).split('\n')[0]}); ${fix}`);
  }
  const list =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? Reflect.get(data, 'expected_failures')
      : undefined;
  if (!Array.isArray(list)) throw new ConfigError(`--baseline ${file} has no "expected_failures" array; ${fix}`);
  const seen = new Set<string>();
  const entries = list.map((item: unknown, i): BaselineEntry => {
    const at = `--baseline ${file}: expected_failures[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new ConfigError(`${at} is not an object; ${fix}`);
    const [id, reason, until]: unknown[] = [
      Reflect.get(item, 'id'),
      Reflect.get(item, 'reason'),
      Reflect.get(item, 'until'),
    ];
    if (typeof id !== 'string' || id.trim() === '')
      throw new ConfigError(`${at} needs "id": the check id (see: svc-certify list)`);
    if (typeof reason !== 'string' || reason.trim() === '')
      throw new ConfigError(`${at} (${id}) needs "reason": why this failure is accepted for now`);
    if (typeof until !== 'string' || !isCalendarDate(until)) {
      throw new ConfigError(`${at} (${id}) needs "until" as a date YYYY-MM-DD (got ${JSON.stringify(until ?? null)})`);
    }
    if (seen.has(id)) throw new ConfigError(`${at}: "${id}" is listed twice; keep one entry`);
    seen.add(id);
    return { id, reason, until };
  });
  return { file, entries };
}

export function readBaselineFile(path: string, shownAs: string = path): Baseline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(
      `--baseline ${shownAs} cannot be read (${errnoOrMessage(e)}); give the path of a baseline file (svc-certify baseline results.json > known-failures.json writes one)`,
    );
  }
  return parseBaseline(text, shownAs);
}

export interface ApplyBaselineOptions {
  /** Every check id this certification knows (run or not); default: the ids in the result. */
  knownIds?: Iterable<string>;
  /** YYYY-MM-DD (UTC); default today. */
  today?: string;
}

/**
 * Marks the failures (and incomplete-making skips) the baseline accepts as `expected`, recounts the
 * summary and records the entries that fail the run. Other checks not run (deselected, not applicable,
 * interrupted) leave their entry alone: nothing was learned.
 */
export function applyBaseline(result: RunResult, baseline: Baseline, opts: ApplyBaselineOptions = {}): RunResult {
  const today = opts.today ?? utcToday();
  const known = new Set(opts.knownIds ?? result.checks.map((c) => c.id));
  for (const c of result.checks) known.add(c.id);
  const byId = new Map(baseline.entries.map((e) => [e.id, e]));
  const problems: BaselineProblem[] = [];
  for (const entry of baseline.entries) {
    if (!known.has(entry.id)) {
      problems.push({
        id: entry.id,
        kind: 'unknown',
        message: `baseline entry "${entry.id}" names no check of this certification: remove it (or correct the id; see svc-certify list)`,
      });
    } else if (entry.until < today) {
      problems.push({
        id: entry.id,
        kind: 'expired',
        message: `baseline entry "${entry.id}" expired on ${entry.until}: fix the failure and remove the entry, or renew its "until"`,
      });
    }
  }
  const checks = result.checks.map((check) => {
    const entry = byId.get(check.id);
    // A warning passes the run: the failure the entry accepted is gone.
    if (entry && (check.status === 'passed' || check.status === 'warning')) {
      problems.push({
        id: entry.id,
        kind: 'stale',
        message: `baseline entry "${entry.id}" is stale: the check now passes; remove the entry`,
      });
    }
    return markExpected(check, entry, today);
  });
  const order = new Map(baseline.entries.map((e, i) => [e.id, i]));
  problems.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0) || a.kind.localeCompare(b.kind));
  const summary = summarize(checks);
  return {
    ...result,
    checks,
    summary,
    baseline: { file: baseline.file, entries: baseline.entries.length, expected: summary.expected, problems },
  };
}

/**
 * One check as the baseline sees it: a failure, or a skip that would leave the certification incomplete
 * (an input the operator cannot give yet), is accepted the same way, with a reason and an end date.
 */
function markExpected(check: CheckResult, entry: BaselineEntry | undefined, today: string): CheckResult {
  const { expected: _previous, ...rest } = check;
  if (!entry || entry.until < today) return rest;
  return check.status === 'failed' || leavesIncomplete(rest)
    ? { ...rest, expected: { reason: entry.reason, until: entry.until } }
    : rest;
}

/** Marks each check as it ends the way applyBaseline will, so a live console shows ≈ at once. */
export function baselineMarker(baseline: Baseline, today: string = utcToday()): (check: CheckResult) => CheckResult {
  const byId = new Map(baseline.entries.map((e) => [e.id, e]));
  return (check) => markExpected(check, byId.get(check.id), today);
}

/** A baseline accepting every failure of a run: adopting one is one command. */
export function baselineFromResult(result: RunResult, until: string): { expected_failures: BaselineEntry[] } {
  const failed = result.checks.filter((c) => c.status === 'failed');
  return {
    expected_failures: failed.map((c) => ({
      id: c.id,
      // An entry that already had a reason and date keeps them; a new one starts from the failure's message.
      reason: c.expected?.reason ?? (c.message || 'known failure'),
      until: c.expected?.until ?? until,
    })),
  };
}
