// The deliveries `svc-certify receiver` sends, built as the service builds them: the production
// envelope (Events: event_id, event, run_id, organization_external_id, job_external_id,
// occurred_at), compact JSON, POST with `Content-Type: application/json` and `x-svc-signature:
// sha256=<hex HMAC-SHA256 of the raw body>`. Bodies are text written by hand, never re-serialized,
// so a candidate_id above 2^53 goes out exactly and "unusual formatting" means exactly those bytes.

import { randomUUID } from 'node:crypto';
import { computeSignature } from '../webhook/signature.js';

/** 2^53 + 1: the first integer a double cannot hold; a receiver must not choke on it. */
export const LARGE_CANDIDATE_ID = '9007199254740993';
const ORGANIZATION_EXTERNAL_ID = 'svc-certify-receiver-org';
const JOB_EXTERNAL_ID = 'svc-certify-receiver-job';

/**
 * The identifiers a delivery's envelope carries. By default the organization and a fresh run id per
 * delivery are ones the partner has never seen; `receiver --org-external-id` / `--run-id` give ones it
 * knows, so that a receiver that refuses events for unknown organizations or runs can be judged fully.
 */
export interface EnvelopeIds {
  organizationExternalId: string;
  /** Absent: a fresh uuid per delivery. */
  runId?: string;
  /** The job of that run (`--job-external-id`); absent: one the partner never saw. */
  jobExternalId?: string;
}

export const DEFAULT_IDS: EnvelopeIds = { organizationExternalId: ORGANIZATION_EXTERNAL_ID };

/** Both the organization and the run are the partner's own: a 4xx cannot be blamed on identifiers it never saw. */
export function idsKnownToPartner(ids: EnvelopeIds): boolean {
  return ids.organizationExternalId !== ORGANIZATION_EXTERNAL_ID && ids.runId !== undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The identifiers from `--org-external-id` / `--run-id` / `--job-external-id`, or the reason they cannot be used (a usage error). */
export function envelopeIdsOf(
  orgExternalId: unknown,
  runId: unknown,
  jobExternalId?: unknown,
): EnvelopeIds | { error: string } {
  const job = typeof jobExternalId === 'string' ? jobExternalId.trim() : '';
  if (typeof jobExternalId === 'string' && job === '')
    return {
      error: 'receiver: --job-external-id is empty: give the external_id of the job of the run given with --run-id',
    };
  if (job !== '' && (typeof runId !== 'string' || runId.trim() === ''))
    return { error: 'receiver: --job-external-id names the job of a run: give that run with --run-id too' };
  const org = typeof orgExternalId === 'string' ? orgExternalId.trim() : '';
  const run = typeof runId === 'string' ? runId.trim() : '';
  if (typeof orgExternalId === 'string' && org === '')
    return {
      error:
        'receiver: --org-external-id is empty: give the external_id of an organization your receiver knows (from its redemption)',
    };
  if (run !== '' && !UUID.test(run))
    return { error: `receiver: --run-id ${JSON.stringify(run)} is not a uuid (Events: run_id is a string uuid)` };
  return {
    organizationExternalId: org || ORGANIZATION_EXTERNAL_ID,
    ...(run ? { runId: run.toLowerCase() } : {}),
    ...(job ? { jobExternalId: job } : {}),
  };
}
/** A secret that is not the webhook secret: shown as is, it protects nothing. */
export const WRONG_SECRET = 'svc-certify-not-the-webhook-secret';

/** How the signature header is made, so that the curl reproduction can make it the same way. */
export type SignatureMode =
  | { kind: 'valid' }
  | { kind: 'wrong-secret' }
  | { kind: 'none' }
  | { kind: 'truncated'; hexDigits: number }
  /** Signed over `signedBody`, then `body` is sent. */
  | { kind: 'body-changed'; signedBody: string };

export interface Delivery {
  /** Short label for reports: "run_completed", "unknown event", … */
  label: string;
  eventId: string;
  body: string;
  signature: SignatureMode;
  headers: Record<string, string>;
}

function envelope(event: string, eventId: string, ids: EnvelopeIds): string {
  const runId = ids.runId ?? randomUUID();
  const occurredAt = new Date().toISOString();
  return (
    `"event_id":${JSON.stringify(eventId)},"event":${JSON.stringify(event)},"run_id":"${runId}",` +
    `"organization_external_id":${JSON.stringify(ids.organizationExternalId)},"job_external_id":${JSON.stringify(ids.jobExternalId ?? JOB_EXTERNAL_ID)},"occurred_at":"${occurredAt}"`
  );
}

/** A body builder: the event id and the envelope's identifiers in, the exact bytes out. */
export type BodyBuilder = (eventId: string, ids?: EnvelopeIds) => string;

export const bodies = {
  runCompleted: (id: string, ids = DEFAULT_IDS): string =>
    `{${envelope('run_completed', id, ids)},"progress":{"confirmed":3,"target":3,"screened":41}}`,
  runFailed: (id: string, ids = DEFAULT_IDS): string => `{${envelope('run_failed', id, ids)}}`,
  candidateRevealed: (id: string, ids = DEFAULT_IDS): string =>
    `{${envelope('candidate_revealed', id, ids)},"candidate_id":${LARGE_CANDIDATE_ID}}`,
  /** Unknown fields at the top level and inside `progress` (the service may add fields at any time). */
  unknownFields: (id: string, ids = DEFAULT_IDS): string =>
    `{${envelope('run_completed', id, ids)},"progress":{"confirmed":2,"target":3,"screened":17,"zz_future_counter":5},` +
    `"zz_future_field":"svc-certify probe","zz_future_object":{"nested":[1,2,{"deep":true}]},"zz_future_number":12.5}`,
  /** Envelope only, so that this delivery tests the event name and nothing else. */
  unknownEvent: (id: string, ids = DEFAULT_IDS): string => `{${envelope('zz_certification_probe', id, ids)}}`,
  /**
   * Valid JSON in an unusual shape: keys in another order, spaces before colons, tabs and CRLF,
   * `\u`-escapes: a receiver that parses and re-serializes before verifying computes
   * another HMAC than the one over these bytes.
   */
  unusualFormatting: (id: string, ids = DEFAULT_IDS): string => {
    const runId = ids.runId ?? randomUUID();
    return (
      `{\r\n\t"occurred_at" :\t"${new Date().toISOString()}" ,\r\n  "job_external_id": ${ids.jobExternalId === undefined ? '"svc\\u002dcertify-receiver\\u002djob"' : JSON.stringify(ids.jobExternalId)},` +
      `\r\n  "candidate_id"  :  ${LARGE_CANDIDATE_ID} ,\n"run_id":"${runId}",   "event" : "candidate_revealed",` +
      `\n\t"organization_external_id" : ${JSON.stringify(ids.organizationExternalId)},\n "event_id" : ${JSON.stringify(id)}\n}\n`
    );
  },
};

/** The headers the service sends for `body` signed as `mode` says. */
export function signedHeaders(secret: string, body: string, mode: SignatureMode): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const valid = (text: string): string => computeSignature(secret, Buffer.from(text, 'utf8'));
  switch (mode.kind) {
    case 'valid':
      headers['x-svc-signature'] = valid(body);
      break;
    case 'wrong-secret':
      headers['x-svc-signature'] = computeSignature(WRONG_SECRET, Buffer.from(body, 'utf8'));
      break;
    case 'truncated':
      headers['x-svc-signature'] = valid(body).slice(0, 'sha256='.length + mode.hexDigits);
      break;
    case 'body-changed':
      headers['x-svc-signature'] = valid(mode.signedBody);
      break;
    case 'none':
      break;
  }
  return headers;
}

export function makeDelivery(
  secret: string,
  label: string,
  build: BodyBuilder,
  signature: SignatureMode = { kind: 'valid' },
  ids: EnvelopeIds = DEFAULT_IDS,
): Delivery {
  const eventId = randomUUID();
  const body = build(eventId, ids);
  return { label, eventId, body, signature, headers: signedHeaders(secret, body, signature) };
}

/** A valid run_completed whose `progress.confirmed` is changed after signing (one byte, a different meaning). */
export function bodyChangedDelivery(secret: string, ids: EnvelopeIds = DEFAULT_IDS): Delivery {
  const eventId = randomUUID();
  const signedBody = bodies.runCompleted(eventId, ids);
  const body = signedBody.replace('"confirmed":3', '"confirmed":9');
  const signature: SignatureMode = { kind: 'body-changed', signedBody };
  return {
    label: 'body changed after signing',
    eventId,
    body,
    signature,
    headers: signedHeaders(secret, body, signature),
  };
}
