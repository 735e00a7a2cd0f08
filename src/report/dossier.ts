// One dossier from several certifications (`svc-certify report a.json b.json`): the RunResults side by
// side, one verdict. Its results.json is itself a RunResult (certification `dossier`): the checks and
// findings of every part in order at the top level (what tools read), each part's own fields under
// `parts`, so the originals can be rebuilt exactly and the dossier re-rendered byte for byte.

import {
  CERTIFICATION_TITLES,
  type DossierPart,
  type RunResult,
  type RunSummary,
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

/** Certified only when every part is; otherwise the worst part's verdict (runner/verdict.ts). */
function dossierVerdict(parts: readonly RunResult[]): Verdict {
  return combineVerdicts(parts.map(verdictOfResult));
}

/** A dossier that passed without certifying: every reason any part had. */
function uncertifiedByOfParts(parts: readonly RunResult[]): Pick<RunResult, 'uncertifiedBy'> {
  if (dossierVerdict(parts) !== 'passed-not-certified') return {};
  return { uncertifiedBy: [...new Set(parts.flatMap(uncertifiedByOfResult))] };
}

function addSummaries(parts: readonly RunResult[]): RunSummary {
  const total: RunSummary = { total: 0, passed: 0, failed: 0, skipped: 0, error: 0, warning: 0, expected: 0 };
  for (const { summary } of parts) {
    for (const key of Object.keys(total) as Array<keyof RunSummary>) total[key] += summary[key] ?? 0;
  }
  return total;
}

/** Several certifications as one RunResult (a single one is returned as it is). */
export function mergeResults(results: readonly RunResult[]): RunResult {
  const parts = results.flatMap(partsOf);
  const [first] = parts;
  if (first === undefined) throw new Error('nothing to merge: no result given');
  if (parts.length === 1) return first;
  const startedAt = parts.map((p) => p.startedAt).sort()[0] ?? first.startedAt;
  const finishedAt =
    parts
      .map((p) => p.finishedAt)
      .sort()
      .at(-1) ?? first.finishedAt;
  const findings = parts.flatMap((p) => p.findings ?? []);
  const merged: RunResult = {
    certification: 'dossier',
    title: CERTIFICATION_TITLES.dossier,
    tool: first.tool,
    spec: first.spec,
    config: {},
    target: first.target,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
    summary: addSummaries(parts),
    // Suites of every part in order; a name two parts share (two runs) is listed once.
    suites: [...new Set(parts.flatMap((p) => p.suites))],
    checks: parts.flatMap((p) => p.checks),
    ...(findings.length > 0 ? { findings } : {}),
    verdict: dossierVerdict(parts),
    ...uncertifiedByOfParts(parts),
    parts: parts.map((p): DossierPart => {
      const { checks, findings: partFindings, parts: _nested, ...rest } = p;
      return { ...rest, checkCount: checks.length, findingCount: partFindings?.length ?? 0 };
    }),
  };
  return merged;
}
