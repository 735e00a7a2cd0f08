// `svc-certify verify RECORD --key PUB.pem [--results results.json]`: what a person who did not run the
// certification can check of it (src/report/verify-record.ts decides). Exit 0 only for a valid
// signature over a certified record; 1 for any refusal, with its reason id; 2 when a file cannot be read.

import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { errnoOf } from '../config/config-error.js';
import { verifyRecord, type RecordFacts } from '../report/verify-record.js';
import { UsageError } from './usage-error.js';

export interface VerifyFlags {
  key?: string;
  results?: string;
}

function read(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new UsageError(`verify: cannot read ${what} ${file} (${errnoOf(e) ?? 'unreadable'})`);
  }
}

function publicKeyOf(file: string): KeyObject {
  let key: KeyObject;
  try {
    // A private key's file is accepted too (its public half is derived); its text is never shown.
    key = createPublicKey({ key: read(file, 'the key'), format: 'pem' });
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`verify: --key ${file} is not a PEM public key`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new UsageError(`verify: --key ${file} is not an Ed25519 key (${key.asymmetricKeyType ?? 'unknown kind'})`);
  return key;
}

function factLines(facts: RecordFacts): string[] {
  return [
    `  verdict: ${facts.verdict} (test result ${facts.result})`,
    `  target:  ${facts.target}${facts.build !== undefined ? ` (x-svc-build ${facts.build})` : ''}`,
    `  tool:    ${facts.tool}`,
    `  spec:    ${facts.spec}`,
    `  date:    ${facts.date}`,
    ...(facts.failedTests.length > 0 ? [`  failed:  ${facts.failedTests.join(', ')}`] : []),
  ];
}

export function verifyCommand(record: string, flags: VerifyFlags, out: (line: string) => void): number {
  if (flags.key === undefined)
    throw new UsageError('verify: --key PUB.pem is required (the public key of whoever signed the record)');
  const key = publicKeyOf(flags.key);
  const text = read(record, 'the record').toString('utf8');
  const results = flags.results === undefined ? undefined : read(flags.results, 'the results file');
  const outcome = verifyRecord(text, key, results);
  out(`verify: ${record}`);
  if (outcome.facts) for (const line of factLines(outcome.facts)) out(line);
  if (!outcome.ok) {
    out(`refused (${outcome.reason}): ${outcome.message}`);
    return 1;
  }
  if (flags.results !== undefined) out(`  results: ${flags.results} is the file signed`);
  out('verified: a valid signature over a certified record');
  return 0;
}
