// Every report that is a file: its name in the report folder and how it renders, read from the
// reporter registry (index.ts). The CLI names the written files after a run from it, and writes one of
// them to stdout instead (`--reporter json:-`).

import { REPORTERS } from './index.js';
import type { RunResult } from '../runner/results.js';
import type { FileReporterEntry, Reporter } from './reporter.js';

type RegisteredReporter = (typeof REPORTERS)[keyof typeof REPORTERS];
export type FileReportName = Extract<RegisteredReporter, { kind: 'file' }>['name'];

/** The file reports, in registry order. */
export const FILE_REPORTS: readonly FileReporterEntry<FileReportName>[] = Object.values(REPORTERS).filter(
  (r): r is Extract<RegisteredReporter, { kind: 'file' }> => r.kind === 'file',
);

/** The file report of a --reporter name; none for the console or an unknown name. */
export function fileReportOf(name: string): FileReporterEntry<FileReportName> | undefined {
  return FILE_REPORTS.find((r) => r.name === name);
}

/** The report rendered to a stream (stdout) instead of its file, for piping: `svc-certify run --reporter json:- | jq`. */
export function createStdoutReporter(report: FileReporterEntry, stream: NodeJS.WritableStream): Reporter {
  const { renderDossier } = report;
  return {
    name: `${report.name}:-`,
    onRunEnd(result) {
      stream.write(report.render(result));
    },
    ...(renderDossier
      ? {
          onDossierEnd(head: RunResult, parts: Iterable<RunResult>) {
            for (const chunk of renderDossier(head, parts)) stream.write(chunk);
          },
        }
      : {}),
  };
}
