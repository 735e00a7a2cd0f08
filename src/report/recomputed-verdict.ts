// `svc-certify report` trusts no number it is given: a results.json is a file anyone can edit, and a
// gate that reads "Certified, exit 0" from an edited `verdict` would certify a failing service. So the
// counts, the verdict, what is missing and what kept a pass from certifying are decided again from the checks themselves (and the
// baseline the file records), exactly as the certification decided them (src/runner/verdict.ts); a
// stored number that disagrees is named in a notice and never believed. A file whose numbers agree is
// returned as it is, so its reports are re-rendered byte for byte.

import { decideVerdict } from '../runner/verdict.js';
import {
  summarize,
  type CheckResult,
  type MissingInput,
  type Notice,
  type RunResult,
  type RunSummary,
  type UncertifiedBy,
} from '../runner/results.js';

export const RECOMPUTED_NOTICE_ID = 'report.stored-numbers-disagree';

const SUMMARY_KEYS: ReadonlyArray<keyof RunSummary> = [
  'total',
  'passed',
  'failed',
  'expected',
  'warning',
  'skipped',
  'error',
];

export interface Recomputed {
  result: RunResult;
  /** Set when a stored number disagreed with the checks (the notice is also in `result.notices`). */
  notice?: Notice;
}

function countsText(summary: Partial<RunSummary> | undefined): string {
  if (!summary || typeof summary !== 'object') return 'no counts';
  return SUMMARY_KEYS.filter((k) => k === 'total' || (summary[k] ?? 0) !== 0)
    .map((k) => `${String(summary[k] ?? 0)} ${k}`)
    .join(', ');
}

function missingText(missing: RunResult['missing']): string {
  const checks = (missing ?? []).reduce((n, m) => n + m.checks.length, 0);
  return `${missing?.length ?? 0} group${missing?.length === 1 ? '' : 's'} of ${checks} check${checks === 1 ? '' : 's'}`;
}

/** A key absent from an older results.json counts as 0, as the reporters read it. */
export function sameCounts(stored: Partial<RunSummary> | undefined, recounted: RunSummary): boolean {
  if (!stored || typeof stored !== 'object') return false;
  return SUMMARY_KEYS.every((k) => (stored[k] ?? 0) === recounted[k]);
}

/**
 * The certification writes `missing` with its verdict, only when something is missing
 * (result-with-verdict.ts); a file written before verdicts were stored has neither, and its readers
 * decide both from the checks (format.ts).
 */
function sameMissing(result: RunResult, decided: readonly MissingInput[]): boolean {
  if (result.verdict === undefined && result.missing === undefined) return true;
  return JSON.stringify(result.missing ?? []) === JSON.stringify(decided);
}

/**
 * A file written before `uncertifiedBy` existed has none, and its readers decide it from the checks
 * (uncertifiedByOfResult): only a stored list can disagree.
 */
function sameUncertifiedBy(stored: RunResult['uncertifiedBy'], decided: readonly UncertifiedBy[]): boolean {
  return stored === undefined || JSON.stringify(stored) === JSON.stringify(decided);
}

/**
 * An `expected` mark (a failure the baseline accepts) is believed only from a file that records the
 * baseline it applied; a mark with no baseline behind it is an edit, and the check counts as what it is.
 */
function believedChecks(result: RunResult): { checks: CheckResult[]; dropped: number } {
  if (result.baseline) return { checks: result.checks, dropped: 0 };
  let dropped = 0;
  const checks = result.checks.map((check) => {
    if (check.expected === undefined) return check;
    dropped++;
    const { expected: _unbacked, ...rest } = check;
    return rest;
  });
  return { checks: dropped > 0 ? checks : result.checks, dropped };
}

/**
 * One certification's verdict and counts, decided from its checks; `source` names the file in the
 * notice. Strict when the certification was run strict or `strict` is asked now.
 */
export function recomputedResult(result: RunResult, source: string, strict = false): Recomputed {
  const { checks, dropped } = believedChecks(result);
  const summary = summarize(checks);
  const strictNow = strict || result.config['strict'] === true;
  const { verdict, missing, uncertifiedBy } = decideVerdict({ ...result, checks, summary }, strictNow);
  const storedVerdict = result.verdict;
  const verdictAgrees = storedVerdict === undefined || storedVerdict === verdict;
  // What is missing and what kept a pass from certifying are shown as the file states them: an edit
  // of either, under numbers left alone, would change what the reports tell the reader to do.
  const missingAgrees = sameMissing(result, missing);
  const uncertifiedByAgrees = sameUncertifiedBy(result.uncertifiedBy, uncertifiedBy);
  const countsAgree = sameCounts(result.summary, summary);
  if (dropped === 0 && verdictAgrees && countsAgree && missingAgrees && uncertifiedByAgrees) return { result };
  const why = [
    storedVerdict !== undefined && !verdictAgrees ? `verdict ${storedVerdict}` : '',
    countsAgree ? '' : `counts ${countsText(result.summary)}`,
    dropped > 0 ? `${dropped} failure${dropped === 1 ? '' : 's'} marked accepted with no baseline recorded` : '',
    missingAgrees ? '' : `missing inputs ${missingText(result.missing)}`,
    uncertifiedByAgrees ? '' : `not certified by ${result.uncertifiedBy?.join(', ') || 'nothing'}`,
  ].filter(Boolean);
  const notice: Notice = {
    id: RECOMPUTED_NOTICE_ID,
    message: `${source} states ${why.join('; ')}, which its checks do not bear out: decided again from the checks, ${verdict} (${countsText(summary)}); the stored numbers are not believed`,
  };
  const { missing: _stored, uncertifiedBy: _storedBy, ...rest } = result;
  return {
    result: {
      ...rest,
      checks,
      summary,
      verdict,
      ...(missing.length > 0 ? { missing } : {}),
      ...(uncertifiedBy.length > 0 ? { uncertifiedBy } : {}),
      notices: [...(result.notices ?? []), notice],
    },
    notice,
  };
}
