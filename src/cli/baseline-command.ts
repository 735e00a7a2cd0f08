// `svc-certify baseline RESULTS.json`: a baseline accepting every failure of a run (and, in a section of
// their own, `expected_skips`, the skips that left it incomplete), on stdout, so that adopting one is
// `svc-certify baseline reports/results.json > known-failures.json`. Each entry's reason starts as the
// check's message: the operator replaces it with why it is accepted. A run the baseline helps pass is
// never `certified`.

import { ConfigError } from '../config/config-error.js';
import { baselineFromResult, isCalendarDate, utcToday } from '../runner/baseline.js';
import { readResultsFile } from './read-results.js';

/** How long a new entry is honoured unless --until says otherwise. */
const DEFAULT_BASELINE_DAYS = 30;

export interface BaselineFlags {
  until?: string;
  /** Where --until was given: the flag or SVC_UNTIL. */
  untilSource?: string;
}

export function baselineCommand(
  file: string,
  flags: BaselineFlags,
  out: (text: string) => void,
  now: Date = new Date(),
): number {
  let until = flags.until;
  const source = flags.untilSource ?? '--until';
  if (until !== undefined && !isCalendarDate(until))
    throw new ConfigError(`${source} must be a date YYYY-MM-DD (got "${until}")`);
  if (until !== undefined && until < utcToday(now))
    throw new ConfigError(`${source} ${until} is in the past; give a date from today on`);
  until ??= utcToday(new Date(now.getTime() + DEFAULT_BASELINE_DAYS * 86_400_000));
  const result = readResultsFile(file);
  out(JSON.stringify(baselineFromResult(result, until), null, 2));
  return 0;
}
