// `svc-certify report RESULTS.json… [report options]`: one set of reports from the results.json of one
// or several certifications (run, partner, receiver, scan, or an earlier dossier). Several make a
// dossier: one HTML with a section per certification and one verdict, one JUnit, one summary.md and a
// results.json that holds them all. A single results.json is re-rendered as it is, byte for byte the
// reports its run wrote (after a reporter changed, or to add a format). Exit 0 when the dossier is
// certified, 1 when not, 2 when an input cannot be read.

import { resolve } from 'node:path';
import { isDossier, mergeResults, partsOf } from '../report/dossier.js';
import { RECOMPUTED_NOTICE_ID, recomputedResult, sameCounts } from '../report/recomputed-verdict.js';
import type { Notice, RunResult } from '../runner/results.js';
import { exitCodeOf, verdictOfResult } from '../runner/verdict.js';
import { readerRedactor, readResultsFile } from './read-results.js';
import {
  createSettingsReporters,
  writeReports,
  resolveReportSettings,
  resultWithVerdict,
  type ReportSettings,
} from './report-options.js';
import { watchSignals, type SignalWatch, type StopSignal } from './signals.js';
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

/**
 * Every certification of every input with its verdict and counts decided from its checks
 * (recomputed-verdict.ts), and the notices of those whose stored numbers disagreed.
 */
function recomputedParts(
  results: readonly RunResult[],
  files: readonly string[],
): { parts: RunResult[]; notices: Notice[] } {
  const parts: RunResult[] = [];
  const notices: Notice[] = [];
  results.forEach((result, i) => {
    const source = files[i] ?? 'a results.json';
    const own = partsOf(result);
    own.forEach((part, j) => {
      const shownAs = own.length > 1 ? `${source} (part ${j + 1}, ${part.title})` : source;
      const r = recomputedResult(part, shownAs);
      parts.push(r.result);
      if (r.notice) notices.push(r.notice);
    });
  });
  return { parts, notices };
}

/** A dossier given as it was written: whether its own verdict and counts are those of its parts. */
function dossierAgrees(stored: RunResult, merged: RunResult): boolean {
  return stored.verdict === merged.verdict && sameCounts(stored.summary, merged.summary);
}

export async function reportCommand(files: string[], flags: Record<string, unknown>): Promise<number> {
  if (files.length === 0)
    throw new UsageError(
      'report needs at least one results.json, e.g. svc-certify report reports/results.json partner/results.json --report-dir dossier',
    );
  const settings = await resolveReportSettings(flags);
  // Signals as in every command: the first stops the reading, and the inputs read so far are
  // reported as an interrupted dossier (exit 130/143); the handlers stay for the whole command.
  const signals = watchSignals();
  try {
    return await reportInputs(files, settings, signals);
  } finally {
    signals.dispose();
  }
}

/** From this many inputs on, `report` says on stderr that it is reading them. */
const SHOW_READING_FROM = 100;

/** Yields a turn of the event loop, so that a signal is seen between two inputs. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function reportInputs(files: string[], settings: ReportSettings, signals: SignalWatch): Promise<number> {
  // Loaded while the inputs are read: after a signal only the rendering is left to do.
  const reportersReady = createSettingsReporters(settings);
  const results: RunResult[] = [];
  // One redactor for every input: it is built from the environment, the same for each.
  const redactor = readerRedactor();
  // The first input is always read (bounded by MAX_RESULTS_FILE_BYTES): an interrupted report still
  // has a certification to show. It also compiles the results schema, once.
  for (const file of files) {
    if (results.length > 0 && signals.received()) break;
    results.push(readResultsFile(resolve(file), file, redactor));
    // A long merge says what it is doing before it goes quiet for a while.
    if (results.length === 1 && files.length >= SHOW_READING_FROM)
      process.stderr.write(`report: reading ${files.length.toLocaleString('en')} results files\n`);
    await nextTurn();
  }
  const signal = signals.received();
  const read = files.slice(0, results.length);
  const recomputed = recomputedParts(results, read);
  const parts = withVerdicts(recomputed.parts, settings);
  const merged = mergeResults(parts);
  const [only] = results;
  // A single input whose numbers are its checks', without new flags, is passed through untouched (a
  // dossier included): byte-identical reports.
  const untouched =
    !signal &&
    results.length === 1 &&
    only !== undefined &&
    !settings.baseline &&
    !settings.strict &&
    recomputed.notices.length === 0 &&
    (!isDossier(only) || dossierAgrees(only, merged));
  const reported = untouched ? only : withDossierNotices(merged, only, recomputed.notices);
  const result = signal ? interruptedReport(reported, signal, results.length, files.length) : reported;
  const reporters = await reportersReady;
  await writeReports(reporters, result, settings);
  // The verdict decided here from the checks (never a stored one: recomputed-verdict.ts).
  // A dossier's signal is its interrupted part's.
  return exitCodeOf(
    verdictOfResult(result),
    result.interrupted ?? result.parts?.find((p) => p.interrupted)?.interrupted,
  );
}

/**
 * A dossier shows, with its verdict, why it disbelieved a part's stored numbers (a single
 * certification carries the notice itself), and that a dossier given whose own numbers were not its
 * parts' was decided again.
 */
function withDossierNotices(merged: RunResult, given: RunResult | undefined, notices: Notice[]): RunResult {
  if (!isDossier(merged)) return merged;
  const all = [...notices];
  if (given && isDossier(given) && !dossierAgrees(given, merged)) {
    all.push({
      id: RECOMPUTED_NOTICE_ID,
      message: `the dossier given states verdict ${String(given.verdict)}, which its parts do not bear out: decided again from the checks, ${String(merged.verdict)}`,
    });
  }
  return all.length > 0 ? { ...merged, notices: all } : merged;
}

/** What a signal left: the inputs read before it, as an interrupted report that says how many were not. */
function interruptedReport(result: RunResult, signal: StopSignal, read: number, given: number): RunResult {
  const notice: Notice = {
    id: 'report.interrupted',
    message: `report interrupted by ${signal} after reading ${read.toLocaleString('en')} of ${given.toLocaleString('en')} results files: these reports hold the ${read === 1 ? 'one' : read.toLocaleString('en')} read, and no verdict for the others`,
  };
  return { ...result, interrupted: { signal }, verdict: 'interrupted', notices: [...(result.notices ?? []), notice] };
}
