// The names of the reporter registry (src/report/index.ts; test/report-registry.test.ts keeps the two
// equal) and the one validation of a --reporter list, used by `run` and every other certifying
// command. In config/, below the reporters: the CLI loads it at start-up without loading them.

import { isOneOf } from '../narrow.js';
import { ConfigError } from './config-error.js';

export const REPORTER_NAMES = ['console', 'junit', 'html', 'json', 'markdown', 'sarif'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** Written when --reporter is not given; sarif is asked for by name (mostly with `scan`). */
export const DEFAULT_REPORTERS: readonly ReporterName[] = ['console', 'junit', 'html', 'json', 'markdown'];

/** Written to standard output instead of a file: `json:-` (for piping; the console moves to stderr). */
const STDOUT_SUFFIX = ':-';
/** A --reporter item: a reporter, or a report written to stdout (`json:-`). */
export type ReporterToken = ReporterName | `${Exclude<ReporterName, 'console'>}${typeof STDOUT_SUFFIX}`;

/** The reporter a token names, and whether its report goes to stdout. */
export function parseReporterToken(token: ReporterToken): { name: ReporterName; stdout: boolean } {
  const stdout = token.endsWith(STDOUT_SUFFIX);
  const bare = stdout ? token.slice(0, -STDOUT_SUFFIX.length) : token;
  // A token is a name, or a name and the suffix: the type says so, the slice forgets it.
  return { name: bare as ReporterName, stdout };
}

/**
 * The items of a --reporter list in order, duplicates collapsed; an empty list, an unknown name, the
 * console to stdout (it is there already) or two reports to stdout (they would interleave) is a ConfigError.
 */
export function reporterNamesOf(names: readonly string[], source = '--reporter'): ReporterToken[] {
  const cleaned = names
    .flatMap((n) => n.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (cleaned.length === 0) throw new ConfigError(`${source} is empty; choose from ${REPORTER_NAMES.join(',')}`);
  const tokens: ReporterToken[] = [];
  for (const item of cleaned) {
    const stdout = item.endsWith(STDOUT_SUFFIX);
    const name = stdout ? item.slice(0, -STDOUT_SUFFIX.length) : item;
    if (!isOneOf(REPORTER_NAMES, name))
      throw new ConfigError(`${source}: unknown reporter "${name}"; choose from ${REPORTER_NAMES.join(',')}`);
    if (!stdout) tokens.push(name);
    else if (name === 'console')
      throw new ConfigError(
        `${source}: console:- is the console itself; write console, or another report to stdout (json:-)`,
      );
    else tokens.push(`${name}${STDOUT_SUFFIX}`);
  }
  const toStdout = [...new Set(tokens)].filter((t) => t.endsWith(STDOUT_SUFFIX));
  if (toStdout.length > 1)
    throw new ConfigError(
      `${source}: ${toStdout.join(' and ')} would interleave on stdout; send one report there, the others to files`,
    );
  return [...new Set(tokens)];
}
