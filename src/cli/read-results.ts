// Reads a results.json that a certifying command wrote (for `svc-certify report` and `baseline`):
// any problem is a ConfigError of one line that names the file and the first thing wrong with it.
//
// What it reads is bounded and redacted: a file past MAX_RESULTS_FILE_BYTES is refused before it is
// read whole, and every string of it goes through a redactor holding the secrets the environment gives any
// command (SVC_PARTNER_KEY, SVC_ORG_TOKEN, SVC_WEBHOOK_SECRET, …) and knowing keys and tokens by their
// format: a results.json written by hand, or by an older build, cannot carry a key into the reports.
// Redacted before the shared exchanges are put back, so each is redacted once, however many refer to it.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ConfigError } from '../config/config-error.js';
import { createRedactor, type Redactor } from '../config/redact.js';
import { secretsOfArgs } from '../config/secret-options.js';
import type { RunResult } from '../runner/results.js';
import { validateAgainst } from '../schema/validator.js';
import { resolveSharedExchanges } from '../report/shared-exchanges.js';
import { errnoOrMessage, errorMessage } from '../narrow.js';
import { COMMAND_OPTIONS } from './command-options.js';
import { reshapeRedacted, type Redacted } from '../config/redacted.js';

/**
 * The largest results.json `report` and `baseline` read. The 1e5 hostile run writes 8 MB; reading,
 * checking and re-rendering one costs about 30 times its size in memory (a 22 MB file took 678 MB),
 * so 16 MiB keeps the largest input within the 512 MB every command holds to. Honoured while reading:
 * a pipe, a device or a file growing under the reader is cut at the bound, never read whole first.
 */
export const MAX_RESULTS_FILE_BYTES = 16 * 1024 * 1024;

const READ_CHUNK_BYTES = 1024 * 1024;

/** The file's bytes, or `undefined` once it holds more than `max` (reading stops there). */
export function readAtMost(path: string, max: number): Buffer | undefined {
  const fd = openSync(path, 'r');
  try {
    const info = fstatSync(fd);
    if (info.isFile() && info.size > max) return undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, max + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      if (total > max) return undefined;
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

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
): Redacted<RunResult> {
  const unreadable = (e: unknown): never => {
    throw new ConfigError(
      `${shownAs} cannot be read (${errnoOrMessage(e)}); give the results.json a certifying command wrote`,
    );
  };
  let text = '';
  try {
    const bytes = readAtMost(path, MAX_RESULTS_FILE_BYTES);
    if (bytes === undefined) {
      throw new ConfigError(
        `${shownAs} holds more than the ${MAX_RESULTS_FILE_BYTES} bytes (16 MiB) a results.json of svc-certify holds; give the results.json a certifying command wrote`,
      );
    }
    text = bytes.toString('utf8');
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
    return reshapeRedacted(redactor.value(data as RunResult), resolveSharedExchanges);
  } catch (e) {
    throw new ConfigError(`${shownAs} is not an svc-certify results.json: ${errorMessage(e)}`);
  }
}
