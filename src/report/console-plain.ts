// Non-interactive console (a pipe, a CI log, NO_COLOR, --quiet): append-only lines, so a log viewer
// shows progress without cursor tricks. Each check is printed once, when it ends, with its reasons;
// the end adds only what no check line said (baseline, verdict, counts). A result that arrives
// without check events (`report` merging results) is listed whole at the end. --quiet prints only the
// checks that need attention (failed, error, warning) and no progress.

import type { ChalkInstance } from 'chalk';
import type { CheckResult, RunResult } from '../runner/results.js';
import {
  formatCheckBlock,
  formatDossierSummary,
  formatEnding,
  formatGroupedSummary,
  NEEDS_ATTENTION,
  oneLine,
  whereMoreIs,
  type CheckFilter,
} from './console-format.js';
import { byShape } from './report-shape.js';
import type { Reporter } from './reporter.js';

/** A long wait prints at most one progress line per check in this interval, so CI logs stay short. */
const PROGRESS_INTERVAL_MS = 15_000;

export interface PlainConsoleOptions {
  stream: NodeJS.WritableStream;
  chalk: ChalkInstance;
  /** Failures, errors and warnings only, no progress (--quiet). */
  quiet?: boolean;
  /** The reporters of the run, so a check line names the report that holds what it leaves out. */
  reporters?: readonly string[];
  /** Marks a check the baseline accepts (≈ for an accepted failure), as the reports will read it. */
  markBaselined?: (check: CheckResult) => CheckResult;
  /** Injected for tests; defaults to Date.now. */
  now?: () => number;
}

export function createPlainConsoleReporter(opts: PlainConsoleOptions): Reporter {
  const { stream, chalk: c } = opts;
  const now = opts.now ?? Date.now;
  const include: CheckFilter = opts.quiet ? NEEDS_ATTENTION : () => true;
  const lastProgress = new Map<string, number>();
  const printed = new Set<string>();
  const writeDossier = (head: RunResult, parts: Iterable<RunResult>): void => {
    stream.write('\n');
    for (const chunk of formatDossierSummary(head, parts, c, include)) stream.write(chunk);
  };
  return {
    name: 'console',
    onCheckProgress(id: string, message: string) {
      if (opts.quiet) return;
      const t = now();
      const last = lastProgress.get(id);
      if (last !== undefined && t - last < PROGRESS_INTERVAL_MS) return;
      lastProgress.set(id, t);
      stream.write(`${c.dim(`… ${oneLine(id)}: ${oneLine(message)}`)}\n`);
    },
    onCheckEnd(ended: CheckResult) {
      const check = opts.markBaselined ? opts.markBaselined(ended) : ended;
      lastProgress.delete(check.id);
      printed.add(check.id);
      if (!include(check)) return;
      stream.write(`${formatCheckBlock(check, c, whereMoreIs(opts.reporters)).join('\n')}\n`);
    },
    onDossierEnd: writeDossier,
    onRunEnd: byShape({
      run(result) {
        if (printed.size === 0) {
          stream.write(`\n${formatGroupedSummary(result, c, include)}`);
          return;
        }
        // A blank line parts the ending from the check lines above it, if any were printed.
        const shown = result.checks.some((check) => include(check));
        stream.write(
          `${shown ? '\n' : ''}${formatEnding(result, c, (check) => !printed.has(check.id) && include(check))}`,
        );
      },
      dossier: writeDossier,
    }),
  };
}
