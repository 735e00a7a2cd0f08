// The names of the reporter registry (src/report/index.ts; test/report-registry.test.ts keeps the two
// equal) and the one validation of a --reporter list, used by `run` and every other certifying
// command. In config/, below the reporters: the CLI loads it at start-up without loading them.

import { isOneOf } from '../narrow.js';
import { ConfigError } from './config-error.js';

export const REPORTER_NAMES = ['console', 'junit', 'html', 'json', 'markdown', 'sarif'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** Written when --reporter is not given; sarif is asked for by name (mostly with `scan`). */
export const DEFAULT_REPORTERS: readonly ReporterName[] = ['console', 'junit', 'html', 'json', 'markdown'];


/** The names of a --reporter list in order, duplicates collapsed; an empty list or unknown name is a ConfigError. */
export function reporterNamesOf(names: readonly string[], source = '--reporter'): ReporterName[] {
  const cleaned = names.flatMap((n) => n.split(',')).map((n) => n.trim()).filter((n) => n !== '');
  if (cleaned.length === 0) throw new ConfigError(`${source} is empty; choose from ${REPORTER_NAMES.join(',')}`);
  const unknown = cleaned.find((n) => !isOneOf(REPORTER_NAMES, n));
  if (unknown !== undefined) throw new ConfigError(`${source}: unknown reporter "${unknown}"; choose from ${REPORTER_NAMES.join(',')}`);
  return [...new Set(cleaned.filter((n) => isOneOf(REPORTER_NAMES, n)))];
}
