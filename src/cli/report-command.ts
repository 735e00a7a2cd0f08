// `svc-certify report RESULTS.json… [report options]`: one set of reports from the results.json of one
// or several certifications (run, partner, receiver, scan, or an earlier dossier). Several make a
// dossier: one HTML with a section per certification and one verdict, one JUnit, one summary.md and a
// results.json that holds them all. A single results.json is re-rendered as it is, byte for byte the
// reports its run wrote (after a reporter changed, or to add a format). Exit 0 when the dossier is
// certified, 1 when not, 2 when an input cannot be read.

import { resolve } from 'node:path';
import { mergeResults, partsOf } from '../report/dossier.js';
import type { RunResult } from '../runner/results.js';
import { exitCodeOf, verdictOfResult } from '../runner/verdict.js';
import { readResultsFile } from './read-results.js';
import {
  createSettingsReporters,
  prepareReports,
  resolveReportSettings,
  resultWithVerdict,
  type ReportSettings,
} from './report-options.js';
import { UsageError } from './usage-error.js';

/**
 * With --baseline or --strict the verdicts are decided again: each certification gets the baseline
 * entries naming its checks (an entry naming no check of any of them is reported unknown once), and
 * stays strict if it was run strict. Without them, every result is kept exactly as it was written.
 */
function withVerdicts(parts: RunResult[], settings: ReportSettings): RunResult[] {
  if (!settings.baseline && !settings.strict) return parts;
  const ids = parts.map((p) => new Set(p.checks.map((c) => c.id)));
  return parts.map((part, i) => {
    const own = new Set(part.checks.map((c) => c.id));
    const baseline = settings.baseline && {
      ...settings.baseline,
      entries: settings.baseline.entries.filter((e) => own.has(e.id) || (i === 0 && !ids.some((s) => s.has(e.id)))),
    };
    const strict = settings.strict || part.config['strict'] === true;
    return resultWithVerdict(part, { ...settings, strict, ...(baseline ? { baseline } : {}) }, { knownIds: own });
  });
}

export async function reportCommand(files: string[], flags: Record<string, unknown>): Promise<number> {
  if (files.length === 0)
    throw new UsageError(
      'report needs at least one results.json, e.g. svc-certify report reports/results.json partner/results.json --report-dir dossier',
    );
  const settings = await resolveReportSettings(flags);
  const results = files.map((file) => readResultsFile(resolve(file), file));
  const parts = withVerdicts(results.flatMap(partsOf), settings);
  // A single input without new flags is passed through untouched (a dossier included): byte-identical reports.
  const untouched = results.length === 1 && !settings.baseline && !settings.strict;
  const [only] = results;
  const result = untouched && only ? only : mergeResults(parts);
  const reporters = await createSettingsReporters(settings);
  await prepareReports(settings);
  for (const reporter of reporters) await reporter.onRunEnd(result, { reportDir: settings.reportDir });
  // The verdict stored when the parts (or the dossier) were settled; decided from the counts only for
  // a results.json older than stored verdicts.
  // A dossier's signal is its interrupted part's.
  return exitCodeOf(
    verdictOfResult(result),
    result.interrupted ?? result.parts?.find((p) => p.interrupted)?.interrupted,
  );
}
