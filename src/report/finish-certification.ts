// The one way a finished RunResult becomes reports and an exit code, for every certifying command:
// apply the baseline, decide the verdict once, write every report, return 0 or 1 (docs/design.md, *Verdict*).
// Below the CLI so that `partner`'s session (src/partner/start-partner.ts) ends the same way. The
// reporters (listr2, chalk) load inside the functions that need them: the CLI imports this at start-up.

import { isAbsolute, join, relative } from 'node:path';
import { parseReporterToken, type ReporterToken } from '../config/reporter-names.js';
import { baselineMarker, type Baseline } from '../runner/baseline.js';
import type { RunResult } from '../runner/results.js';
import { resultWithVerdict, type VerdictOptions } from '../runner/result-with-verdict.js';
import { exitCodeOf, verdictOfResult } from '../runner/verdict.js';
import { consoleModeOf } from './console-mode.js';
import { prepareReportDir } from './report-dir.js';
import { writeReportSet } from './report-set.js';
import type { Reporter } from './reporter.js';
import type { SignKey } from './sign-key.js';
import { reshapeRedacted, type Redacted } from '../config/redacted.js';
import { capPassedEvidence } from '../runner/evidence-caps.js';

export interface ReportSettings {
  /** Absolute. */
  reportDir: string;
  /** Validated once, by reporterNamesOf (`json:-`: that report to stdout). */
  reporters: ReporterToken[];
  /** Skipped checks count as failures. */
  strict: boolean;
  /** The console prints failures, warnings, the verdict and the report paths only. */
  quiet: boolean;
  /** Read and validated before the certification starts. */
  baseline?: Baseline;
  /** --sign-key: read and checked before the certification starts; signs certification.intoto.json. */
  signKey?: SignKey;
}

/**
 * The reporters of the settings; the console one is live on a TTY outside CI, plain lines otherwise
 * (and with --quiet). A report sent to stdout (`json:-`) takes stdout, and the console moves to stderr.
 * `console` stands in for the console reporter (the partner command's live checklist).
 */
export async function createSettingsReporters(
  settings: ReportSettings,
  stream: NodeJS.WritableStream = process.stdout,
  console?: Reporter,
): Promise<Reporter[]> {
  const { createReporters } = await import('./index.js');
  const { createStdoutReporter, fileReportOf } = await import('./file-reports.js');
  const consoleStream = consoleStreamOf(settings, stream);
  const reporters: Reporter[] = [];
  for (const token of settings.reporters) {
    const { name, stdout } = parseReporterToken(token);
    const fileReport = stdout ? fileReportOf(name) : undefined;
    if (fileReport) reporters.push(createStdoutReporter(fileReport, stream));
    else if (name === 'console' && console) reporters.push(console);
    else {
      const markBaselined = settings.baseline ? { markBaselined: baselineMarker(settings.baseline) } : {};
      const consoleOptions = { ...consoleModeOf(consoleStream), quiet: settings.quiet, reporters: settings.reporters };
      reporters.push(...createReporters([name], { stream: consoleStream, ...consoleOptions, ...markBaselined }));
    }
  }
  return reporters;
}

/** Where the console writes: stdout, unless a report is piped there (`json:-`). */
export function consoleStreamOf(
  settings: Pick<ReportSettings, 'reporters'>,
  stdout: NodeJS.WritableStream = process.stdout,
): NodeJS.WritableStream {
  return settings.reporters.some((token) => parseReporterToken(token).stdout) ? process.stderr : stdout;
}

export interface FinishOptions extends VerdictOptions {
  /** Reporters already created (and fed live events); default: created from the settings. */
  reporters?: Reporter[];
}

/** Applies the baseline, decides the verdict once, writes every report; returns the exit code (docs/design.md, *Verdict*). */
export async function finishCertification(
  result: Redacted<RunResult>,
  settings: ReportSettings,
  opts: FinishOptions = {},
): Promise<number> {
  const settled = resultWithVerdict(result, settings, opts);
  const reporters = opts.reporters ?? (await createSettingsReporters(settings));
  await writeReports(reporters, settled, settings);
  if (settings.signKey) {
    // After the report set is in place: the record signs the bytes of the results.json just written.
    const { writeSignedRecord } = await import('./signed-record.js');
    await writeSignedRecord(settled, settings.reportDir, settings.signKey);
  }
  if (settings.reporters.includes('console')) await printReportPaths(settings, consoleStreamOf(settings));
  return exitCodeOf(verdictOfResult(settled), settled.interrupted);
}

/**
 * Every reporter's output for one result; the files as one set (report-set.ts): all of them moved
 * into place, or none and the previous set whole.
 */
export async function writeReports(
  reporters: readonly Reporter[],
  redacted: Redacted<RunResult>,
  settings: Pick<ReportSettings, 'reporters' | 'reportDir'>,
): Promise<void> {
  // The one capping pass: every report shows the evidence results.json keeps, so a re-render from
  // it is byte-identical (cutting is idempotent: a result read back from results.json stays as is).
  const result = reshapeRedacted(redacted, capPassedEvidence);
  if (!writesFiles(settings)) {
    for (const reporter of reporters) await reporter.onRunEnd(result, { reportDir: settings.reportDir });
    return;
  }
  await prepareReportDir(settings.reportDir);
  await writeReportSet(settings.reportDir, async (reportDir) => {
    for (const reporter of reporters) await reporter.onRunEnd(result, { reportDir });
  });
}

/**
 * writeReports for a dossier too large to hold (Reporter.onDossierEnd): its head, and its parts read
 * again by each reporter, a part at a time; the files as one set all the same.
 */
export async function writeDossierReports(
  reporters: readonly Reporter[],
  head: Redacted<RunResult>,
  parts: Iterable<Redacted<RunResult>>,
  settings: Pick<ReportSettings, 'reporters' | 'reportDir'>,
): Promise<void> {
  // The same capping pass as writeReports', a part at a time as each reporter reads them.
  const capped: Iterable<Redacted<RunResult>> = {
    *[Symbol.iterator]() {
      for (const part of parts) yield reshapeRedacted(part, capPassedEvidence);
    },
  };
  const write = async (reportDir: string): Promise<void> => {
    for (const reporter of reporters) {
      if (!reporter.onDossierEnd) throw new Error(`the ${reporter.name} reporter cannot write a dossier part by part`);
      await reporter.onDossierEnd(head, capped, { reportDir });
    }
  };
  if (!writesFiles(settings)) return write(settings.reportDir);
  await prepareReportDir(settings.reportDir);
  await writeReportSet(settings.reportDir, write);
}

/** Whether the settings write any file (the console and reports sent to stdout write none, and create no folder). */
function writesFiles(settings: Pick<ReportSettings, 'reporters'>): boolean {
  return settings.reporters.some((r) => r !== 'console' && !parseReporterToken(r).stdout);
}

/** The last console line: where the files are (relative to the working directory when inside it). */
async function printReportPaths(settings: ReportSettings, stream: NodeJS.WritableStream): Promise<void> {
  const { fileReportOf } = await import('./file-reports.js');
  const { RECORD_FILE } = await import('./signed-record.js');
  const files = [
    ...settings.reporters.flatMap((r) => fileReportOf(r)?.file ?? []),
    ...(settings.signKey ? [RECORD_FILE] : []),
  ];
  if (files.length === 0) return;
  const shown = relative(process.cwd(), settings.reportDir);
  const dir = shown === '' ? '.' : shown.startsWith('..') || isAbsolute(shown) ? settings.reportDir : shown;
  stream.write(`reports: ${files.map((file) => join(dir, file)).join(', ')}\n`);
}

/**
 * Before anything is spent: the report folder exists and takes a file (exit 2 with one line if not),
 * so a certification never runs to its end only to lose its reports.
 */
export async function prepareReports(settings: ReportSettings): Promise<void> {
  if (writesFiles(settings)) await prepareReportDir(settings.reportDir);
}
