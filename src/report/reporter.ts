// One Reporter interface, and how a reporter's file declares itself (its --reporter name, whether it
// writes a file and which): the registry (index.ts) lists the declarations, keyed by name. Output must
// be deterministic for a given RunResult.

import type { ReporterName } from '../config/reporter-names.js';
import type { ProgressListener } from '../runner/progress.js';
import type { CheckResult, RunResult } from '../runner/results.js';
import { writeReportFile, writeReportFileChunks } from './write-report-file.js';
import type { Redacted } from '../config/redacted.js';

export type { PlannedCheck, RunStartInfo } from '../runner/progress.js';

export interface Reporter extends ProgressListener {
  readonly name: string;
  /** Writes the report (files go to reportDir). */
  onRunEnd(result: Redacted<RunResult>, ctx: { reportDir: string }): Promise<void> | void;
  /**
   * Writes the report of a dossier too large to hold at once (`report` of many inputs): `head` is the
   * dossier with its `checks` and `findings` left empty, `parts` gives each part whole, read again on
   * every pass. Absent: the reporter cannot render a dossier part by part.
   */
  onDossierEnd?(
    head: Redacted<RunResult>,
    parts: Iterable<Redacted<RunResult>>,
    ctx: { reportDir: string },
  ): Promise<void> | void;
}

/** What the console reporter is told; a file reporter needs nothing but the result and the report folder. */
export interface ConsoleReporterOptions {
  /** Write here (default process.stdout). */
  stream?: NodeJS.WritableStream;
  /** Live listr2 task list (TTY, not CI) or plain lines. */
  interactive?: boolean;
  /** Colours (false when NO_COLOR is set). */
  color?: boolean;
  /** Failures, errors and warnings only, no progress (--quiet). */
  quiet?: boolean;
  /** Marks a check the baseline accepts (≈ for an accepted failure) as it ends, as the reports will read it. */
  markBaselined?: (check: CheckResult) => CheckResult;
  /** The reporters of the run (which report holds what a console line leaves out). */
  reporters?: readonly string[];
}

/** A reporter that writes to the console (no file). */
export interface ConsoleReporterEntry<N extends ReporterName = ReporterName> {
  name: N;
  kind: 'console';
  create: (opts: ConsoleReporterOptions) => Reporter;
}

/** A reporter whose report is one file of the report folder, or stdout with `NAME:-`. */
export interface FileReporterEntry<N extends ReporterName = ReporterName> {
  name: N;
  kind: 'file';
  /** Its name in the report folder, e.g. `results.json`. */
  file: string;
  render: (result: RunResult) => string;
  /**
   * The report of a dossier in pieces, from its head and its parts (Reporter.onDossierEnd): joined,
   * the text `render` gives for the dossier held whole (report.html counts its passed and skipped
   * checks instead of listing them).
   */
  renderDossier?: (head: RunResult, parts: Iterable<RunResult>) => Iterable<string>;
  /** Who reads it, for docs/reference/reports.md. */
  readBy: string;
  create: () => Reporter;
}

export type ReporterEntry<N extends ReporterName = ReporterName> = ConsoleReporterEntry<N> | FileReporterEntry<N>;

/** The declaration of a file report: its reporter renders the result and writes it to its file. */
export function fileReporter<N extends ReporterName>(
  entry: Omit<FileReporterEntry<N>, 'kind' | 'create'>,
): FileReporterEntry<N> {
  const { renderDossier } = entry;
  return {
    ...entry,
    kind: 'file',
    create: () => ({
      name: entry.name,
      async onRunEnd(result, ctx) {
        await writeReportFile(ctx.reportDir, entry.file, entry.render(result));
      },
      ...(renderDossier
        ? {
            async onDossierEnd(head: RunResult, parts: Iterable<RunResult>, ctx: { reportDir: string }) {
              await writeReportFileChunks(ctx.reportDir, entry.file, renderDossier(head, parts));
            },
          }
        : {}),
    }),
  };
}
