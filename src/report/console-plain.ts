// Non-interactive console (a pipe, a CI log, NO_COLOR): append-only lines, one per finished check, so
// a log viewer shows progress without cursor tricks; the grouped summary follows at the end.

import type { ChalkInstance } from 'chalk';
import type { CheckResult, RunResult } from '../runner/results.js';
import { formatCheckLine, formatGroupedSummary, oneLine } from './console-format.js';
import type { Reporter } from './reporter.js';

/** A long wait prints at most one progress line per check in this interval, so CI logs stay short. */
const PROGRESS_INTERVAL_MS = 15_000;

export interface PlainConsoleOptions {
  stream: NodeJS.WritableStream;
  chalk: ChalkInstance;
  /** Injected for tests; defaults to Date.now. */
  now?: () => number;
}

export function createPlainConsoleReporter(opts: PlainConsoleOptions): Reporter {
  const { stream, chalk: c } = opts;
  const now = opts.now ?? Date.now;
  const lastProgress = new Map<string, number>();
  return {
    name: 'console',
    onCheckProgress(id: string, message: string) {
      const t = now();
      const last = lastProgress.get(id);
      if (last !== undefined && t - last < PROGRESS_INTERVAL_MS) return;
      lastProgress.set(id, t);
      stream.write(`${c.dim(`… ${oneLine(id)}: ${oneLine(message)}`)}\n`);
    },
    onCheckEnd(check: CheckResult) {
      lastProgress.delete(check.id);
      stream.write(`${formatCheckLine(check, c)}\n`);
    },
    onRunEnd(result: RunResult) {
      stream.write(`\n${formatGroupedSummary(result, c)}`);
    },
  };
}
