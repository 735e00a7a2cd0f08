// certification.intoto.json: the statement of a finished certification (test-result-statement.ts),
// signed in a DSSE envelope (dsse.ts) with the `--sign-key` key, beside the reports. It signs the
// results.json just written, byte for byte, so a verifier can tell whether a results file is the one signed.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../runner/results.js';
import { signEnvelope } from './dsse.js';
import { JSON_FILE } from './json.js';
import type { SignKey } from './sign-key.js';
import { buildStatement, IN_TOTO_PAYLOAD_TYPE } from './test-result-statement.js';
import { writeReportFile } from './write-report-file.js';
import type { Redacted } from '../config/redacted.js';

export const RECORD_FILE = 'certification.intoto.json';

/** Writes the signed record of a settled result whose results.json is already in the report folder; returns its path. */
export async function writeSignedRecord(
  result: Redacted<RunResult>,
  reportDir: string,
  signKey: SignKey,
): Promise<string> {
  const resultsJson = await readFile(join(reportDir, JSON_FILE));
  const statement = buildStatement(result, resultsJson);
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), 'utf8'), signKey.key);
  return writeReportFile(reportDir, RECORD_FILE, `${JSON.stringify(envelope, null, 2)}\n`);
}
