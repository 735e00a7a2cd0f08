// Reads a results.json that a certifying command wrote (for `svc-certify report` and `baseline`):
// any problem is a ConfigError of one line that names the file and the first thing wrong with it.

import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/config-error.js';
import type { RunResult } from '../runner/results.js';
import { validateAgainst } from '../schema/validator.js';
import { resolveSharedExchanges } from '../report/shared-exchanges.js';
import { errnoOrMessage, errorMessage } from '../narrow.js';

export function readResultsFile(path: string, shownAs: string = path): RunResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(
      `${shownAs} cannot be read (${errnoOrMessage(e)}); give the results.json a certifying command wrote`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(
      `${shownAs} is not valid JSON (${errorMessage(e).split('\n')[0]}); give the results.json a certifying command wrote`,
    );
  }
  const [first] = validateAgainst('results', data);
  if (first) {
    throw new ConfigError(
      `${shownAs} is not an svc-certify results.json: at ${first.pointer === '' ? '(top level)' : first.pointer}: ${first.message}`,
    );
  }
  try {
    return resolveSharedExchanges(data as RunResult);
  } catch (e) {
    throw new ConfigError(`${shownAs} is not an svc-certify results.json: ${errorMessage(e)}`);
  }
}
