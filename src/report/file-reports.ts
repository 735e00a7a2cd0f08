// Every report that is a file: its name in the report folder and how it renders. The CLI names the
// written files after a run from it, and writes one of them to stdout instead (`--reporter json:-`).

import { HTML_FILE, renderHtml } from './html.js';
import { JSON_FILE, renderJson } from './json.js';
import { JUNIT_FILE, renderJunit } from './junit.js';
import { MARKDOWN_FILE, renderMarkdown } from './markdown.js';
import { renderSarif, SARIF_FILE } from './sarif.js';
import type { Reporter } from './reporter.js';
import type { RunResult } from '../runner/results.js';

export type FileReportName = 'junit' | 'html' | 'json' | 'markdown' | 'sarif';

export const FILE_REPORTS: Record<FileReportName, { file: string; render: (result: RunResult) => string }> = {
  junit: { file: JUNIT_FILE, render: renderJunit },
  html: { file: HTML_FILE, render: renderHtml },
  json: { file: JSON_FILE, render: renderJson },
  markdown: { file: MARKDOWN_FILE, render: renderMarkdown },
  sarif: { file: SARIF_FILE, render: renderSarif },
};

export function isFileReport(name: string): name is FileReportName {
  return Object.prototype.hasOwnProperty.call(FILE_REPORTS, name);
}

/** The report rendered to a stream (stdout) instead of its file, for piping: `svc-certify run --reporter json:- | jq`. */
export function createStdoutReporter(name: FileReportName, stream: NodeJS.WritableStream): Reporter {
  return {
    name: `${name}:-`,
    onRunEnd(result) {
      stream.write(FILE_REPORTS[name].render(result));
    },
  };
}
