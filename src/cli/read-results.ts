// Reads a results.json that a certifying command wrote (for `svc-certify report` and `baseline`):
// any problem is a ConfigError of one line that names the file and the first thing wrong with it.
//
// What it reads is bounded and redacted: a file past MAX_RESULTS_FILE_BYTES is refused before it is
// read, and every string of it goes through a redactor holding the secrets the environment gives any
// command (SVC_PARTNER_KEY, SVC_ORG_TOKEN, SVC_WEBHOOK_SECRET, …) and knowing keys and tokens by their
// format: a results.json written by hand, or by an older build, cannot carry a key into the reports.
// Redacted before the shared exchanges are put back, so each is redacted once, however many refer to it.

import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../config/config-error.js';
import { createRedactor, type Redactor } from '../config/redact.js';
import { secretsOfArgs } from '../config/secret-options.js';
import type { RunResult } from '../runner/results.js';
import { validateAgainst } from '../schema/validator.js';
import { resolveSharedExchanges } from '../report/shared-exchanges.js';
import { errnoOrMessage, errorMessage } from '../narrow.js';
import { COMMAND_OPTIONS } from './command-options.js';

/** The 1e5 hostile run writes 8 MB; a file 8 times that is no results.json of a bounded run. */
export const MAX_RESULTS_FILE_BYTES = 64 * 1024 * 1024;

/** Every secret the environment or the command line gives any command, plus the lookalikes of every redactor. */
export function readerRedactor(
  argv: readonly string[] = process.argv,
  env: Record<string, string | undefined> = process.env,
): Redactor {
  const specs = Object.values(COMMAND_OPTIONS).flat();
  const secrets = secretsOfArgs(specs, argv, env).filter((s) => s.value.length >= 4);
  return createRedactor(secrets);
}

export function readResultsFile(
  path: string,
  shownAs: string = path,
  redactor: Redactor = readerRedactor(),
): RunResult {
  const unreadable = (e: unknown): never => {
    throw new ConfigError(
      `${shownAs} cannot be read (${errnoOrMessage(e)}); give the results.json a certifying command wrote`,
    );
  };
  let text = '';
  try {
    const size = statSync(path).size;
    if (size > MAX_RESULTS_FILE_BYTES) {
      throw new ConfigError(
        `${shownAs} holds ${size} bytes, more than the ${MAX_RESULTS_FILE_BYTES} a results.json of svc-certify holds; give the results.json a certifying command wrote`,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    unreadable(e);
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
  // The results of an exit 2 hold no check: there is nothing to merge or to baseline, only its reason.
  const stopped = (data as { verdict?: unknown; error?: { reason?: unknown } }).verdict === 'error';
  if (stopped) {
    const reason = (data as { error?: { reason?: unknown } }).error?.reason;
    throw new ConfigError(
      `${shownAs} records a certification that stopped before any check ran (${redactor.text(typeof reason === 'string' ? reason : 'no reason recorded')}); fix that, run it again, then give its results.json`,
    );
  }
  try {
    return resolveSharedExchanges(redactor.value(data as RunResult));
  } catch (e) {
    throw new ConfigError(`${shownAs} is not an svc-certify results.json: ${errorMessage(e)}`);
  }
}
