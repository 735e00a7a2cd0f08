// One dossier from several certifications (`svc-certify report a.json b.json`): the RunResults side by
// side, one verdict. Its results.json is itself a RunResult (certification `dossier`): the checks and
// findings of every part in order at the top level (what tools read), each part's own fields under
// `parts`, so the originals can be rebuilt exactly and the dossier re-rendered byte for byte.

import {
  CERTIFICATION_TITLES,
  type DossierPart,
  type RunResult,
  type RunSummary,
  type UncertifiedBy,
  type Verdict,
} from '../runner/results.js';
import { combineVerdicts, uncertifiedByOfResult, verdictOfResult } from '../runner/verdict.js';

export function isDossier(result: RunResult): result is RunResult & { parts: NonNullable<RunResult['parts']> } {
  return result.certification === 'dossier' && Array.isArray(result.parts);
}

/** The certifications a result holds: itself, or a dossier's parts rebuilt. */
export function partsOf(result: RunResult): RunResult[] {
  if (!isDossier(result)) return [result];
  let c = 0;
  let f = 0;
  return result.parts.map((part) => {
    const { checkCount, findingCount, ...rest } = part;
    const rebuilt: RunResult = { ...rest, checks: result.checks.slice(c, c + checkCount) };
    if (findingCount > 0 || rest.certification === 'scan')
      rebuilt.findings = (result.findings ?? []).slice(f, f + findingCount);
    c += checkCount;
    f += findingCount;
    return rebuilt;
  });
}

/** What a dossier takes from each part's verdict: the verdict, and why a passed part does not certify. */
export interface PartVerdict {
  verdict: Verdict;
  uncertifiedBy: UncertifiedBy[];
}

export function partVerdict(part: RunResult): PartVerdict {
  return { verdict: verdictOfResult(part), uncertifiedBy: uncertifiedByOfResult(part) };
}

/** Certified only when every part is, otherwise the worst part's; passed without certifying: every reason any part had. */
function combinedVerdict(parts: readonly PartVerdict[]): Pick<RunResult, 'verdict' | 'uncertifiedBy'> {
  const verdict = combineVerdicts(parts.map((p) => p.verdict));
  if (verdict !== 'passed-not-certified') return { verdict };
  return { verdict, uncertifiedBy: [...new Set(parts.flatMap((p) => p.uncertifiedBy))] };
}

function addSummaries(parts: ReadonlyArray<Pick<RunResult, 'summary'>>): RunSummary {
  const total: RunSummary = { total: 0, passed: 0, failed: 0, skipped: 0, error: 0, warning: 0, expected: 0 };
  for (const { summary } of parts) {
    for (const key of Object.keys(total) as Array<keyof RunSummary>) total[key] += summary[key] ?? 0;
  }
  return total;
}

/** A part as a dossier lists it under `parts`: its own fields, its checks and findings counted. */
export function partHead(part: RunResult): DossierPart {
  const { checks, findings, parts: _nested, ...rest } = part;
  return { ...rest, checkCount: checks.length, findingCount: findings?.length ?? 0 };
}

/**
 * A dossier of the parts whose heads are given, its `checks` (and `findings`, when a part has any)
 * left empty in their places: what `report` folds while it reads inputs one at a time, and renders
 * part by part (the reporters' dossier chunks) without holding every check.
 */
export function dossierHead(heads: readonly DossierPart[], verdicts: readonly PartVerdict[]): RunResult {
  const [first] = heads;
  if (first === undefined) throw new Error('nothing to merge: no result given');
  const startedAt = heads.map((p) => p.startedAt).sort()[0] ?? first.startedAt;
  const finishedAt =
    heads
      .map((p) => p.finishedAt)
      .sort()
      .at(-1) ?? first.finishedAt;
  return {
    certification: 'dossier',
    title: CERTIFICATION_TITLES.dossier,
    tool: first.tool,
    spec: first.spec,
    config: {},
    target: first.target,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
    summary: addSummaries(heads),
    // Suites of every part in order; a name two parts share (two runs) is listed once.
    suites: [...new Set(heads.flatMap((p) => p.suites))],
    checks: [],
    ...(heads.some((p) => p.findingCount > 0) ? { findings: [] } : {}),
    ...combinedVerdict(verdicts),
    parts: [...heads],
  };
}

/** Several certifications as one RunResult (a single one is returned as it is). */
export function mergeResults(results: readonly RunResult[]): RunResult {
  const parts = results.flatMap(partsOf);
  const [first] = parts;
  if (first === undefined) throw new Error('nothing to merge: no result given');
  if (parts.length === 1) return first;
  const head = dossierHead(parts.map(partHead), parts.map(partVerdict));
  const findings = parts.flatMap((p) => p.findings ?? []);
  return { ...head, checks: parts.flatMap((p) => p.checks), ...(findings.length > 0 ? { findings } : {}) };
}

/**
 * Each part of a dossier head as a RunResult without checks: what a table of the parts reads (title,
 * target, stored verdict and counts). Only for heads whose verdicts were decided (`report` decides
 * every one), since a verdict left out would be decided from checks that are not there.
 */
export function partRows(head: RunResult): RunResult[] {
  return (head.parts ?? []).map(({ checkCount: _c, findingCount: _f, ...rest }) => ({ ...rest, checks: [] }));
}
