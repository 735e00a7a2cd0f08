// The operator's baseline of known failures (`--baseline FILE`, SVC_BASELINE): a listed check that
// fails is an expected failure and does not fail the run; a listed check that passes (stale), an entry
// past its `until`, or an id no check of this certification has fails the run, so the baseline only
// ever shrinks (the OpenID conformance suite's expected-failures list, made strict).

import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/config-error.js';
import { leavesIncomplete, summarize, type BaselineProblem, type CheckResult, type RunResult } from './results.js';
import { errnoOrMessage, errorMessage } from '../narrow.js';

interface BaselineEntry {
  id: string;
  reason: string;
  /** YYYY-MM-DD: the last day the entry is honoured. */
  until: string;
  /**
   * `skip`: listed under `expected_skips`, it accepts only a skip that would leave the run incomplete
   * (a failure of the check is not accepted). Absent: listed under `expected_failures` (a failure, or
   * as before a skip).
   */
  kind?: 'skip';
}

/** The baseline file's two sections: accepted failures, and accepted skips apart (the same expiry rules). */
const SECTIONS = { expected_failures: undefined, expected_skips: 'skip' } as const;

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
  const fix =
    'expected {"expected_failures": [{"id": "<check id>", "reason": "…", "until": "YYYY-MM-DD"}], "expected_skips": [… the same …]}';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`--baseline ${file} is not valid JSON (${errorMessage(e).split('\n')[0]}); ${fix}`);
  }
  const object = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : undefined;
  const lists = Object.entries(SECTIONS).map(([section, kind]) => ({
    section,
    kind,
    list: object ? Reflect.get(object, section) : undefined,
  }));
  for (const { section, list } of lists) {
    if (list !== undefined && !Array.isArray(list))
      throw new ConfigError(`--baseline ${file}: "${section}" is not an array; ${fix}`);
  }
  if (!lists.some(({ list }) => Array.isArray(list)))
    throw new ConfigError(`--baseline ${file} has no "expected_failures" array; ${fix}`);
  const seen = new Set<string>();
  const entries = lists.flatMap(({ section, kind, list }) =>
    (Array.isArray(list) ? list : []).map((item: unknown, i) =>
      parseEntry(item, `--baseline ${file}: ${section}[${i}]`, kind),
    ),
  );
  for (const [i, { id }] of entries.entries()) {
    if (seen.has(id))
      throw new ConfigError(`--baseline ${file}: "${id}" is listed twice (entry ${i + 1}); keep one entry`);
    seen.add(id);
  }
  return { file, entries };

  function parseEntry(item: unknown, at: string, kind: 'skip' | undefined): BaselineEntry {
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
    return kind ? { id, reason, until, kind } : { id, reason, until };
  }
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
  const accepted = entry.kind === 'skip' ? leavesIncomplete(rest) : check.status === 'failed' || leavesIncomplete(rest);
  return accepted ? { ...rest, expected: { reason: entry.reason, until: entry.until } } : rest;
}

/** Marks each check as it ends the way applyBaseline will, so a live console shows ≈ at once. */
export function baselineMarker(baseline: Baseline, today: string = utcToday()): (check: CheckResult) => CheckResult {
  const byId = new Map(baseline.entries.map((e) => [e.id, e]));
  return (check) => markExpected(check, byId.get(check.id), today);
}

/** A baseline file as `svc-certify baseline` writes it: the skips, when any, in a section of their own. */
export interface BaselineFile {
  expected_failures: Array<Omit<BaselineEntry, 'kind'>>;
  expected_skips?: Array<Omit<BaselineEntry, 'kind'>>;
}

/**
 * A baseline accepting every failure of a run, and every skip that left it incomplete (under
 * `expected_skips`): adopting one is one command. Either kind of entry keeps the run from `certified`.
 */
export function baselineFromResult(result: RunResult, until: string): BaselineFile {
  const entry = (c: CheckResult): Omit<BaselineEntry, 'kind'> => ({
    id: c.id,
    // An entry that already had a reason and date keeps them; a new one starts from the check's message.
    reason: c.expected?.reason ?? (c.message || (c.status === 'failed' ? 'known failure' : 'known skip')),
    until: c.expected?.until ?? until,
  });
  const failed = result.checks.filter((c) => c.status === 'failed');
  // A skip the baseline already accepted counts as the incomplete skip it was.
  const skipped = result.checks.filter(
    (c) => c.status === 'skipped' && leavesIncomplete({ ...c, expected: undefined }),
  );
  return {
    expected_failures: failed.map(entry),
    ...(skipped.length > 0 ? { expected_skips: skipped.map(entry) } : {}),
  };
}
