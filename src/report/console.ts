// The console reporter: live (listr2) on an interactive terminal, plain append-only lines otherwise.
// It writes no file.

import { createLiveConsoleReporter } from './console-live.js';
import { makeChalk } from './console-format.js';
import { consoleModeOf } from './console-mode.js';
import { createPlainConsoleReporter } from './console-plain.js';
import type { ConsoleReporterEntry, ConsoleReporterOptions, Reporter } from './reporter.js';

/** Defaults when the caller does not decide: consoleModeOf (live and coloured only on a terminal outside CI). */
export function resolveConsoleOptions(opts: ConsoleReporterOptions): {
  stream: NodeJS.WritableStream;
  interactive: boolean;
  color: boolean;
} {
  const stream = opts.stream ?? process.stdout;
  const mode = consoleModeOf(stream);
  return { stream, interactive: opts.interactive ?? mode.interactive, color: opts.color ?? mode.color };
}

export const createConsoleReporter = (opts: ConsoleReporterOptions): Reporter => {
  const { stream, interactive, color } = resolveConsoleOptions(opts);
  const chalk = makeChalk(color);
  // --quiet prints a few lines at the end of the run: a live task list would only hide them.
  if (interactive && !opts.quiet) return createLiveConsoleReporter({ stream, chalk });
  return createPlainConsoleReporter({
    stream,
    chalk,
    ...(opts.quiet ? { quiet: true } : {}),
    ...(opts.reporters ? { reporters: opts.reporters } : {}),
    ...(opts.markBaselined ? { markBaselined: opts.markBaselined } : {}),
  });
};

/** `--reporter console`. */
export const CONSOLE_REPORTER: ConsoleReporterEntry<'console'> = {
  name: 'console',
  kind: 'console',
  create: createConsoleReporter,
};
