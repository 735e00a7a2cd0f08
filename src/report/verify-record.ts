// What `svc-certify verify` decides about a signed record: the envelope is DSSE, the key's signature
// holds over PAE(payloadType, payload), the payload is an in-toto Statement v1 with the Test Result
// predicate, the results file (when given) is the one signed, and the verdict is `certified`. Each
// refusal has its own reason id; a changed payload and a changed signature are one reason, since no
// verifier can tell which of the two was altered.

import { createHash, type KeyObject } from 'node:crypto';
import { envelopeSignedBy, keyIdOf, type DsseEnvelope } from './dsse.js';
import {
  IN_TOTO_PAYLOAD_TYPE,
  RESULTS_SUBJECT,
  STATEMENT_TYPE,
  TEST_RESULT_PREDICATE,
  type ResourceDescriptor,
  type TestResultStatement,
} from './test-result-statement.js';

type RefusalReason =
  | 'not-an-envelope'
  | 'payload-type'
  | 'wrong-key'
  | 'bad-signature'
  | 'statement-type'
  | 'predicate-type'
  | 'results-mismatch'
  | 'not-certified';

/** What the record says, shown whether or not it is accepted (once the signature holds). */
export interface RecordFacts {
  verdict: string;
  result: string;
  target: string;
  build?: string;
  tool: string;
  spec: string;
  date: string;
  failedTests: string[];
}

export type VerifyOutcome =
  { ok: true; facts: RecordFacts } | { ok: false; reason: RefusalReason; message: string; facts?: RecordFacts };

const refuse = (reason: RefusalReason, message: string, facts?: RecordFacts): VerifyOutcome => ({
  ok: false,
  reason,
  message,
  ...(facts ? { facts } : {}),
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Buffer.from(…, 'base64') skips characters it does not know and ignores spare bits: an edited
// character could decode to the same bytes. Only the canonical form is accepted.
const canonicalBase64 = (text: string): boolean => Buffer.from(text, 'base64').toString('base64') === text;

function envelopeOf(text: string): DsseEnvelope | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.payload !== 'string' || typeof parsed.payloadType !== 'string')
    return undefined;
  const signatures = parsed.signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) return undefined;
  if (
    !signatures.every(
      (s) => isRecord(s) && typeof s.sig === 'string' && (s.keyid === undefined || typeof s.keyid === 'string'),
    )
  )
    return undefined;
  return parsed as unknown as DsseEnvelope;
}

function factsOf(statement: TestResultStatement): RecordFacts {
  const subjects: ResourceDescriptor[] = Array.isArray(statement.subject) ? statement.subject : [];
  const results = subjects.find((s) => s.name === RESULTS_SUBJECT);
  const target = subjects.find((s) => s.name !== RESULTS_SUBJECT);
  const [tool, spec] = Array.isArray(statement.predicate?.configuration) ? statement.predicate.configuration : [];
  const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '(not recorded)');
  const build = target?.annotations?.['x-svc-build'];
  return {
    verdict: text(results?.annotations?.verdict),
    result: text(statement.predicate?.result),
    target: text(target?.name),
    ...(typeof build === 'string' ? { build } : {}),
    tool: `${text(tool?.name)} ${text(tool?.annotations?.version)}`,
    spec: `${text(spec?.name)} (sha256 ${text(spec?.digest?.sha256)})`,
    date: text(results?.annotations?.finishedAt),
    failedTests: Array.isArray(statement.predicate?.failedTests) ? statement.predicate.failedTests.map(String) : [],
  };
}

/** Verifies a record's text with a public key and, optionally, the bytes of the results file it should sign. */
export function verifyRecord(recordText: string, publicKey: KeyObject, resultsJson?: Buffer): VerifyOutcome {
  const envelope = envelopeOf(recordText);
  if (!envelope) return refuse('not-an-envelope', 'the file is not a DSSE envelope (payload, payloadType, signatures)');
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return refuse(
      'payload-type',
      `payloadType is ${JSON.stringify(envelope.payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}`,
    );
  const keyid = keyIdOf(publicKey);
  if (!envelope.signatures.some((s) => s.keyid === undefined || s.keyid === keyid)) {
    const ids = envelope.signatures.map((s) => s.keyid).join(', ');
    return refuse('wrong-key', `signed with another key (keyid ${ids}); the key given has keyid ${keyid}`);
  }
  if (!canonicalBase64(envelope.payload) || !envelope.signatures.every((s) => canonicalBase64(s.sig)))
    return refuse('bad-signature', 'the payload or a signature is not canonical base64: the envelope was altered');
  if (!envelopeSignedBy(envelope, publicKey))
    return refuse(
      'bad-signature',
      'the signature does not hold over the payload: the payload or the signature was altered after signing',
    );

  let statement: TestResultStatement;
  try {
    statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as TestResultStatement;
  } catch {
    return refuse('statement-type', 'the signed payload is not JSON');
  }
  if (!isRecord(statement) || statement._type !== STATEMENT_TYPE)
    return refuse('statement-type', `the payload is not an in-toto Statement (_type ${STATEMENT_TYPE})`);
  if (statement.predicateType !== TEST_RESULT_PREDICATE || !isRecord(statement.predicate))
    return refuse('predicate-type', `the predicate is not a Test Result (${TEST_RESULT_PREDICATE})`);
  const facts = factsOf(statement);

  if (resultsJson !== undefined) {
    const signed = statement.subject.find((s) => s.name === RESULTS_SUBJECT)?.digest?.sha256;
    const actual = createHash('sha256').update(resultsJson).digest('hex');
    if (signed !== actual)
      return refuse(
        'results-mismatch',
        `the results file is not the one signed (sha256 ${actual}, signed ${signed ?? 'none'})`,
        facts,
      );
  }
  const pass = facts.result === 'PASSED' || facts.result === 'WARNED';
  if (facts.verdict !== 'certified' || !pass || facts.failedTests.length > 0)
    return refuse(
      'not-certified',
      `the record is valid, but its verdict is ${facts.verdict} (result ${facts.result}), not certified`,
      facts,
    );
  return { ok: true, facts };
}
