// What `report` makes of each input, the same whether the inputs are held together or read one at a
// time: every certification an input holds (a dossier's parts rebuilt), its verdict and counts decided
// again from its checks (recomputed-verdict.ts), then, with --baseline or --strict, decided once more
// with the baseline entries naming its checks.

import { partsOf } from '../report/dossier.js';
import { recomputedResult } from '../report/recomputed-verdict.js';
import type { Notice, RunResult } from '../runner/results.js';
import { resultWithVerdict, type ReportSettings } from './report-options.js';
import { splitRedacted, type Redacted } from '../config/redacted.js';

interface RecomputedInput<Part> {
  parts: Part[];
  notices: Notice[];
}

/** One input's certifications with verdicts and counts from their checks, and the notices of those whose stored numbers disagreed. */
export function recomputedInput(result: Redacted<RunResult>, source: string): RecomputedInput<Redacted<RunResult>>;
export function recomputedInput(result: RunResult, source: string): RecomputedInput<RunResult>;
export function recomputedInput(result: RunResult, source: string): RecomputedInput<RunResult> {
  const notices: Notice[] = [];
  // The verdicts, counts and notices are the tool's own words: a redacted input's parts stay redacted.
  const parts = splitRedacted(result as Redacted<RunResult>, (whole) => {
    const own = partsOf(whole);
    return own.map((part, j) => {
      const shownAs = own.length > 1 ? `${source} (part ${j + 1}, ${part.title})` : source;
      const r = recomputedResult(part, shownAs);
      if (r.notice) notices.push(r.notice);
      return r.result;
    });
  });
  return { parts, notices };
}

/** Whether the verdicts are decided again (settledPart): only with --baseline or --strict. */
export function settlesAgain(settings: ReportSettings): boolean {
  return settings.baseline !== undefined || settings.strict;
}

/** The ids of the baseline's entries that name a check of `part`. */
export function baselineIdsIn(part: RunResult, settings: ReportSettings): string[] {
  if (!settings.baseline) return [];
  const own = new Set(part.checks.map((c) => c.id));
  return settings.baseline.entries.filter((e) => own.has(e.id)).map((e) => e.id);
}

/**
 * With --baseline or --strict the verdict of the `index`th certification is decided again: it gets
 * the baseline entries naming its checks (an entry naming no check of any certification, none of
 * `namedByAny`, goes to the first, which reports it unknown), and stays strict if it was run strict.
 * Without them, every result is kept exactly as it was written.
 */
export function settledPart(
  part: Redacted<RunResult>,
  index: number,
  settings: ReportSettings,
  namedByAny: ReadonlySet<string>,
): Redacted<RunResult>;
export function settledPart(
  part: RunResult,
  index: number,
  settings: ReportSettings,
  namedByAny: ReadonlySet<string>,
): RunResult;
export function settledPart(
  part: RunResult,
  index: number,
  settings: ReportSettings,
  namedByAny: ReadonlySet<string>,
): RunResult {
  if (!settlesAgain(settings)) return part;
  const own = new Set(part.checks.map((c) => c.id));
  const baseline = settings.baseline && {
    ...settings.baseline,
    entries: settings.baseline.entries.filter((e) => own.has(e.id) || (index === 0 && !namedByAny.has(e.id))),
  };
  const strict = settings.strict || part.config['strict'] === true;
  return resultWithVerdict(part, { ...settings, strict, ...(baseline ? { baseline } : {}) }, { knownIds: own });
}
