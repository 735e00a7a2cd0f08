// The reporter registry, keyed by --reporter name (the Vitest way). The names are validated once, in
// src/config/reporter-names.ts (below the reporters, so the CLI checks a flag without loading them):
// the registry is typed by them, so a name without a reporter, or a reporter without a name, does not compile.

import { createConsoleReporter } from './console.js';
import { createHtmlReporter } from './html.js';
import { createJsonReporter } from './json.js';
import { createJunitReporter } from './junit.js';
import { createMarkdownReporter } from './markdown.js';
import { createSarifReporter } from './sarif.js';
import type { ReporterName } from '../config/reporter-names.js';
import type { Reporter, ReporterFactory, ReporterOptions } from './reporter.js';

export const REPORTERS: Record<ReporterName, ReporterFactory> = {
  console: createConsoleReporter,
  junit: createJunitReporter,
  html: createHtmlReporter,
  json: createJsonReporter,
  markdown: createMarkdownReporter,
  // Not in the default set: asked for by name (`--reporter sarif`), mostly with `scan`.
  sarif: createSarifReporter,
};

/** Reporters for the given names (validated by reporterNamesOf), in the given order; duplicates collapse. */
export function createReporters(names: readonly ReporterName[], opts: ReporterOptions): Reporter[] {
  return [...new Set(names)].map((name) => REPORTERS[name](opts));
}

export type { PlannedCheck, Reporter, ReporterFactory, ReporterOptions, RunStartInfo } from './reporter.js';
export { renderHtml, HTML_FILE } from './html.js';
export { renderJson, JSON_FILE } from './json.js';
export { renderJunit, JUNIT_FILE } from './junit.js';
export { renderMarkdown, MARKDOWN_FILE } from './markdown.js';
export { renderSarif, SARIF_FILE } from './sarif.js';
export { formatGroupedSummary } from './console-format.js';
export { formatCountLine } from './format.js';
