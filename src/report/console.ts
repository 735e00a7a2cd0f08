// The console reporter: live (listr2) on an interactive terminal, plain append-only lines otherwise.
// It writes no file.

import { createLiveConsoleReporter } from './console-live.js';
import { makeChalk } from './console-format.js';
import { createPlainConsoleReporter } from './console-plain.js';
import type { Reporter, ReporterFactory, ReporterOptions } from './reporter.js';

function envSet(name: string): boolean {
  const value = process.env[name];
  return value !== undefined && value !== '';
}

/** Defaults when the caller does not decide: colour unless NO_COLOR; live only on a TTY outside CI. */
export function resolveConsoleOptions(opts: ReporterOptions): { stream: NodeJS.WritableStream; interactive: boolean; color: boolean } {
  const stream = opts.stream ?? process.stdout;
  const isTty = (stream as Partial<NodeJS.WriteStream>).isTTY === true;
  const interactive = opts.interactive ?? (isTty && !envSet('CI'));
  const color = opts.color ?? (isTty && !envSet('NO_COLOR'));
  return { stream, interactive, color };
}

export const createConsoleReporter: ReporterFactory = (opts: ReporterOptions): Reporter => {
  const { stream, interactive, color } = resolveConsoleOptions(opts);
  const chalk = makeChalk(color);
  return interactive ? createLiveConsoleReporter({ stream, chalk }) : createPlainConsoleReporter({ stream, chalk });
};
