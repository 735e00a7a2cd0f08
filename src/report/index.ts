// The reporter registry, keyed by --reporter name (the Vitest way): the CLI looks names up here and
// nowhere else, so an unknown name fails before the run starts.

import { createConsoleReporter } from './console.js';
import { createHtmlReporter } from './html.js';
import { createJsonReporter } from './json.js';
import { createJunitReporter } from './junit.js';
import { createMarkdownReporter } from './markdown.js';
import { createSarifReporter } from './sarif.js';
import type { Reporter, ReporterFactory, ReporterOptions } from './reporter.js';

export type ReporterName = 'console' | 'junit' | 'html' | 'json' | 'markdown' | 'sarif';

export const REPORTERS: Record<ReporterName, ReporterFactory> = {
  console: createConsoleReporter,
  junit: createJunitReporter,
  html: createHtmlReporter,
  json: createJsonReporter,
  markdown: createMarkdownReporter,
  // Not in the default set: asked for by name (`--reporter sarif`), mostly with `scan`.
  sarif: createSarifReporter,
};

export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

export function isReporterName(name: string): name is ReporterName {
  return Object.prototype.hasOwnProperty.call(REPORTERS, name);
}

/** Reporters for the given names, in the given order; duplicates collapse; an unknown name throws. */
export function createReporters(names: string[], opts: ReporterOptions): Reporter[] {
  const cleaned = names.map((name) => name.trim()).filter((name) => name !== '');
  const unknown = cleaned.filter((name) => !isReporterName(name));
  if (unknown.length > 0) {
    const list = unknown.map((name) => JSON.stringify(name)).join(', ');
    throw new Error(`Unknown reporter${unknown.length > 1 ? 's' : ''} ${list}; valid names: ${REPORTER_NAMES.join(', ')}`);
  }
  const unique = [...new Set(cleaned)] as ReporterName[];
  return unique.map((name) => REPORTERS[name](opts));
}

export type { PlannedCheck, Reporter, ReporterFactory, ReporterOptions, RunStartInfo } from './reporter.js';
export { renderHtml, HTML_FILE } from './html.js';
export { renderJson, JSON_FILE } from './json.js';
export { renderJunit, JUNIT_FILE } from './junit.js';
export { renderMarkdown, MARKDOWN_FILE } from './markdown.js';
export { renderSarif, SARIF_FILE } from './sarif.js';
export { formatGroupedSummary } from './console-format.js';
export { formatCountLine } from './format.js';
