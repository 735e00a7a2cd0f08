// `svc-certify report RESULTS.json… [report options]`: one set of reports from the results.json of one
// or several certifications (run, partner, receiver, scan, or an earlier dossier). Several make a
// dossier: one HTML with a section per certification and one verdict, one JUnit, one summary.md and a
// results.json that holds them all. A single results.json is re-rendered as it is, byte for byte the
// reports its run wrote (after a reporter changed, or to add a format). Exit 0 when the dossier is
// certified, 1 when not, 2 when an input cannot be read.

import { resolve } from 'node:path';
import { dossierHead, isDossier, mergeResults } from '../report/dossier.js';
import { RECOMPUTED_NOTICE_ID, sameCounts } from '../report/recomputed-verdict.js';
import type { Reporter } from '../report/reporter.js';
import type { Notice, RunResult } from '../runner/results.js';
import { exitCodeOf, verdictOfResult } from '../runner/verdict.js';
import { readerRedactor, readResultsFile } from './read-results.js';
import {
  createSettingsReporters,
  writeDossierReports,
  writeReports,
  resolveReportSettings,
  type ReportSettings,
} from './report-options.js';
import { baselineIdsIn, recomputedInput, settledPart } from './report-parts.js';
import { foldInputs, HOLD_INPUTS_UP_TO_BYTES, readsOneAtATime, type FoldedInputs } from './report-streamed.js';
import { watchSignals, type SignalWatch, type StopSignal } from './signals.js';
import { UsageError } from './usage-error.js';
import { composeRedacted, type Redacted } from '../config/redacted.js';

/** Every certification of every input, decided again from its checks (report-parts.ts). */
function settledParts(
  results: readonly RunResult[],
  files: readonly string[],
  settings: ReportSettings,
): { parts: RunResult[]; notices: Notice[] } {
  const inputs = results.map((result, i) => recomputedInput(result, files[i] ?? 'a results.json'));
  const recomputed = inputs.flatMap((input) => input.parts);
  const namedByAny = new Set(recomputed.flatMap((part) => baselineIdsIn(part, settings)));
  return {
    parts: recomputed.map((part, i) => settledPart(part, i, settings, namedByAny)),
    notices: inputs.flatMap((input) => input.notices),
  };
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
  // One redactor for every input: it is built from the environment, the same for each.
  const redactor = readerRedactor();
  const afterEach = async (read: number): Promise<void> => {
    // A long merge says what it is doing before it goes quiet for a while.
    if (read === 1 && files.length >= SHOW_READING_FROM)
      process.stderr.write(`report: reading ${files.length.toLocaleString('en')} results files\n`);
    await nextTurn();
  };
  if (readsOneAtATime(files)) {
    const reporters = await reportersReady;
    const partByPart = reporters.filter((r) => !r.onDossierEnd).map((r) => r.name);
    if (partByPart.length > 0)
      throw new UsageError(
        `--reporter ${partByPart.join(',')} cannot write a dossier of inputs over ${HOLD_INPUTS_UP_TO_BYTES / 1024 / 1024} MiB together; report them in smaller groups for it`,
      );
    const folded = await foldInputs(files, { settings, signals, redactor, afterEach });
    try {
      if (folded.heads.length > 1) return await reportFolded(folded, files.length, settings, signals, reporters);
    } finally {
      folded.dispose();
    }
    // A signal after the first input, which held one certification: reported as a single input is.
    return reportResults(
      [readResultsFile(resolve(files[0] ?? ''), files[0], redactor)],
      files,
      settings,
      signals,
      reporters,
    );
  }
  const results: Redacted<RunResult>[] = [];
  // The first input is always read (bounded by MAX_RESULTS_FILE_BYTES): an interrupted report still
  // has a certification to show. It also compiles the results schema, once.
  for (const file of files) {
    if (results.length > 0 && signals.received()) break;
    results.push(readResultsFile(resolve(file), file, redactor));
    await afterEach(results.length);
  }
  return reportResults(results, files, settings, signals, await reportersReady);
}

/** The reports of the inputs read, held together; the exit code. */
async function reportResults(
  inputs: Redacted<RunResult>[],
  files: readonly string[],
  settings: ReportSettings,
  signals: SignalWatch,
  reporters: Reporter[],
): Promise<number> {
  const signal = signals.received();
  // Every input was redacted as it was read (readResultsFile); the report adds only its own notices.
  const result = composeRedacted(inputs, (results) => reportedResult(results, files, settings, signal));
  await writeReports(reporters, result, settings);
  return exitCodeOfReport(result);
}

/** The one result the reports show: a single input untouched, or the dossier of them all. */
function reportedResult(
  results: readonly RunResult[],
  files: readonly string[],
  settings: ReportSettings,
  signal: StopSignal | undefined,
): RunResult {
  const read = files.slice(0, results.length);
  const recomputed = settledParts(results, read, settings);
  const merged = mergeResults(recomputed.parts);
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
  return signal ? interruptedReport(reported, signal, results.length, files.length) : reported;
}

/** The reports of inputs read one at a time (report-streamed.ts): the head, and the parts read again. */
async function reportFolded(
  folded: FoldedInputs,
  given: number,
  settings: ReportSettings,
  signals: SignalWatch,
  reporters: Reporter[],
): Promise<number> {
  const signal = signals.received();
  // The heads of parts redacted as they were read (readResultsFile), put together with the report's
  // own notices: nothing here is redacted again.
  const result = composeRedacted(folded.heads, (heads) => {
    const merged = withDossierNotices(dossierHead(heads, folded.verdicts), undefined, folded.notices);
    const shown = withNotice(merged, elidedInHtml(merged, settings));
    return signal ? interruptedReport(shown, signal, folded.read, given) : shown;
  });
  await writeDossierReports(reporters, result, folded.parts, settings);
  return exitCodeOfReport(result);
}

/** report.html of a dossier read one at a time lists its passed and skipped checks by count only (html.ts). */
function elidedInHtml(result: RunResult, settings: ReportSettings): Notice | undefined {
  if (!settings.reporters.some((r) => r === 'html' || r === 'html:-')) return undefined;
  const rest = result.summary.passed + result.summary.skipped;
  if (rest === 0) return undefined;
  return {
    id: 'report.html-counts-passed',
    message: `report.html counts the ${rest.toLocaleString('en')} passed and skipped checks of this dossier without listing them (its inputs were too large to show every check in one page); results.json and junit.xml list every check`,
  };
}

function withNotice(result: RunResult, notice: Notice | undefined): RunResult {
  return notice ? { ...result, notices: [...(result.notices ?? []), notice] } : result;
}

/** The verdict decided here from the checks (never a stored one: recomputed-verdict.ts); a dossier's signal is its interrupted part's. */
function exitCodeOfReport(result: RunResult): number {
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
