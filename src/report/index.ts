// The reporter registry: one line per reporter, keyed by its --reporter name (the Vitest way). Each
// reporter's own file declares its name, whether it writes a file and which (reporter.ts). The names
// are validated once, in src/config/reporter-names.ts (below the reporters, so the CLI checks a flag
// without loading them): the registry is typed by them, so a name without a reporter, a reporter
// without a name, or an entry under another reporter's name does not compile.

import { CONSOLE_REPORTER } from './console.js';
import { HTML_REPORTER } from './html.js';
import { JSON_REPORTER } from './json.js';
import { JUNIT_REPORTER } from './junit.js';
import { MARKDOWN_REPORTER } from './markdown.js';
import { SARIF_REPORTER } from './sarif.js';
import type { ReporterName } from '../config/reporter-names.js';
import type { ConsoleReporterOptions, Reporter, ReporterEntry } from './reporter.js';

export const REPORTERS = {
  console: CONSOLE_REPORTER,
  junit: JUNIT_REPORTER,
  html: HTML_REPORTER,
  json: JSON_REPORTER,
  markdown: MARKDOWN_REPORTER,
  // Not in the default set: asked for by name (`--reporter sarif`), mostly with `scan`.
  sarif: SARIF_REPORTER,
} as const satisfies { readonly [N in ReporterName]: ReporterEntry<N> };

/**
 * Reporters for the given names (validated by reporterNamesOf), in the given order; duplicates
 * collapse. Only the console is told how to write; a file reporter writes its file.
 */
export function createReporters(names: readonly ReporterName[], consoleOptions: ConsoleReporterOptions): Reporter[] {
  return [...new Set(names)].map((name) => {
    const entry: ReporterEntry = REPORTERS[name];
    return entry.kind === 'console' ? entry.create(consoleOptions) : entry.create();
  });
}

export type { ConsoleReporterOptions, Reporter, ReporterEntry } from './reporter.js';
export { renderHtml } from './html.js';
export { renderJson } from './json.js';
export { renderJunit } from './junit.js';
export { renderMarkdown } from './markdown.js';
export { renderSarif } from './sarif.js';
