// The signed record through the one path every certifying command takes (finishCertification with
// --sign-key), then verifyRecord: each refusal has its own reason, and only `certified` is accepted.

import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePassingRunResult, makeRunResult, makeWarningRunResult } from '../../test/report-fixtures.js';
import type { RunResult } from '../runner/results.js';
import type { DsseEnvelope } from './dsse.js';
import { finishCertification } from './finish-certification.js';
import { RECORD_FILE } from './signed-record.js';
import { buildOf, TEST_RESULT_PREDICATE, testResultOf, type TestResultStatement } from './test-result-statement.js';
import { verifyRecord } from './verify-record.js';
import { createRedactor } from '../config/redact.js';

const pair = (): { privateKey: KeyObject; publicKey: KeyObject } => generateKeyPairSync('ed25519');

async function signed(
  result: RunResult,
  privateKey: KeyObject,
): Promise<{ dir: string; record: string; results: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-record-'));
  await finishCertification(createRedactor([]).value(result), {
    reportDir: dir,
    reporters: ['json'],
    strict: false,
    quiet: true,
    signKey: { file: 'k.pem', key: privateKey },
  });
  return {
    dir,
    record: readFileSync(join(dir, RECORD_FILE), 'utf8'),
    results: readFileSync(join(dir, 'results.json')),
  };
}

/** A copy with one bit of one byte changed (a negative index counts from the end). */
function flipByte(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  const i = at < 0 ? copy.length + at : at;
  copy.writeUInt8(copy.readUInt8(i) ^ 1, i);
  return copy;
}

const statementOf = (record: string): TestResultStatement =>
  JSON.parse(
    Buffer.from((JSON.parse(record) as DsseEnvelope).payload, 'base64').toString('utf8'),
  ) as TestResultStatement;

describe('the signed record', () => {
  it('records a certified run as PASSED with its check ids, subjects and configuration, and verifies', async () => {
    const { privateKey, publicKey } = pair();
    const { record, results } = await signed(makePassingRunResult(), privateKey);
    const statement = statementOf(record);
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe(TEST_RESULT_PREDICATE);
    expect(statement.predicate.result).toBe('PASSED');
    expect(statement.predicate.passedTests).toEqual(makePassingRunResult().checks.map((c) => c.id));
    expect(statement.predicate.failedTests).toEqual([]);
    expect(statement.subject.map((s) => s.name)).toEqual([makePassingRunResult().target.baseUrl, 'results.json']);
    expect(statement.predicate.configuration[0]?.annotations).toMatchObject({
      version: makePassingRunResult().tool.version,
    });
    expect(statement.predicate.configuration[1]?.digest).toEqual({ sha256: makePassingRunResult().spec.sha256 });
    const outcome = verifyRecord(record, publicKey, results);
    expect(outcome).toMatchObject({ ok: true, facts: { verdict: 'certified', result: 'PASSED' } });
  });

  it('records a failed run as FAILED with its failed ids, and verify refuses it as not certified', async () => {
    const { privateKey, publicKey } = pair();
    const { record, results } = await signed(makeRunResult(), privateKey);
    const statement = statementOf(record);
    expect(statement.predicate.result).toBe('FAILED');
    expect(statement.predicate.failedTests.length).toBeGreaterThan(0);
    expect(verifyRecord(record, publicKey, results)).toMatchObject({ ok: false, reason: 'not-certified' });
  });

  it('maps verdicts to the predicate result: only certified passes, warnings make it WARNED', () => {
    const summary = makePassingRunResult().summary;
    expect(testResultOf({ verdict: 'certified', summary })).toBe('PASSED');
    expect(testResultOf({ verdict: 'certified', summary: { ...summary, warning: 1 } })).toBe('WARNED');
    for (const verdict of ['passed-selection', 'incomplete', 'not-certified', 'interrupted'] as const)
      expect(testResultOf({ verdict, summary })).toBe('FAILED');
  });

  it('a certified run with a warning verifies as WARNED', async () => {
    const { privateKey, publicKey } = pair();
    const { record } = await signed(makeWarningRunResult(), privateKey);
    expect(verifyRecord(record, publicKey)).toMatchObject({ ok: true, facts: { result: 'WARNED' } });
  });

  it('names the target build from an x-svc-build response header', () => {
    const result = makePassingRunResult();
    const first = result.checks[0]!;
    const exchange = { ...first.exchanges[0]!, response: { status: 200, headers: { 'X-Svc-Build': 'b-41' } } };
    expect(buildOf([{ ...first, exchanges: [exchange] }])).toBe('b-41');
    expect(buildOf([{ ...first, exchanges: [] }])).toBeUndefined();
  });

  it('refuses each kind of tampering with its own reason', async () => {
    const { privateKey, publicKey } = pair();
    const { record, results } = await signed(makePassingRunResult(), privateKey);
    const envelope = JSON.parse(record) as DsseEnvelope;
    const payload = flipByte(Buffer.from(envelope.payload, 'base64'), -2);
    const tamperedPayload = JSON.stringify({ ...envelope, payload: payload.toString('base64') });
    const sig = flipByte(Buffer.from(envelope.signatures[0]!.sig, 'base64'), 0);
    const tamperedSig = JSON.stringify({
      ...envelope,
      signatures: [{ ...envelope.signatures[0], sig: sig.toString('base64') }],
    });
    const otherResults = flipByte(results, 10);
    expect(verifyRecord(tamperedPayload, publicKey)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyRecord(tamperedSig, publicKey)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyRecord(record, pair().publicKey)).toMatchObject({ ok: false, reason: 'wrong-key' });
    expect(verifyRecord(record, publicKey, otherResults)).toMatchObject({ ok: false, reason: 'results-mismatch' });
    expect(verifyRecord(JSON.stringify({ ...envelope, payloadType: 'text/plain' }), publicKey)).toMatchObject({
      ok: false,
      reason: 'payload-type',
    });
    expect(verifyRecord('{"not":"an envelope"}', publicKey)).toMatchObject({ ok: false, reason: 'not-an-envelope' });
  });

  it('refuses a non-canonical base64 payload even when it decodes to the signed bytes', async () => {
    const { privateKey, publicKey } = pair();
    const { record } = await signed(makePassingRunResult(), privateKey);
    const envelope = JSON.parse(record) as DsseEnvelope;
    // A character Buffer's decoder skips: the same bytes, another text.
    const padded = JSON.stringify({
      ...envelope,
      payload: `${envelope.payload.slice(0, 4)}.${envelope.payload.slice(4)}`,
    });
    expect(Buffer.from(JSON.parse(padded).payload as string, 'base64')).toEqual(
      Buffer.from(envelope.payload, 'base64'),
    );
    expect(verifyRecord(padded, publicKey)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a payload signed correctly that is not a Test Result statement', async () => {
    const { privateKey, publicKey } = pair();
    const { signEnvelope } = await import('./dsse.js');
    const other = signEnvelope('application/vnd.in-toto+json', Buffer.from(JSON.stringify({ _type: 'x' })), privateKey);
    expect(verifyRecord(JSON.stringify(other), publicKey)).toMatchObject({ ok: false, reason: 'statement-type' });
    const wrongPredicate = signEnvelope(
      'application/vnd.in-toto+json',
      Buffer.from(
        JSON.stringify({
          _type: 'https://in-toto.io/Statement/v1',
          subject: [],
          predicateType: 'https://slsa.dev/provenance/v1',
          predicate: {},
        }),
      ),
      privateKey,
    );
    expect(verifyRecord(JSON.stringify(wrongPredicate), publicKey)).toMatchObject({
      ok: false,
      reason: 'predicate-type',
    });
  });

  it('never writes the private key into the record or results', async () => {
    const { privateKey } = pair();
    const { dir } = await signed(makePassingRunResult(), privateKey);
    // The PEM's first characters are the same for every Ed25519 key: the secret is the 32-byte seed.
    const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
    const pemBody = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().split('\n')[1]!;
    for (const file of [RECORD_FILE, 'results.json']) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const form of [seed.toString('base64'), seed.toString('hex'), seed.toString('base64url'), pemBody])
        expect(text).not.toContain(form.slice(-12));
    }
  });
});
