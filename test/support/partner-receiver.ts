// A partner's webhook receiver for the tests of `svc-certify receiver`: correct by default (raw
// bytes verified in constant time, 401 on mismatch, unknown events and fields acknowledged,
// repeats acknowledged and de-duplicated on event_id), with named single defects (faults) and
// conformant alternatives (variants). It shares no code with the certifier: its HMAC and JSON
// handling are written here, as a partner would write them.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ReceiverFault {
  id: string;
  summary: string;
  caughtBy: string;
  /** Sibling checks the same defect must fail too. */
  alsoCaughtBy?: string[];
  /** Checks the defect makes warn (the spec reads two ways there), not fail. */
  warns?: string[];
}

/** The checks that send a valid delivery and expect it acknowledged with 2xx. */
export const ACKS = [
  'receiver.acknowledges-run-completed',
  'receiver.acknowledges-run-failed',
  'receiver.acknowledges-candidate-revealed-int64-id',
  'receiver.ignores-unknown-fields',
  'receiver.acknowledges-unknown-event',
  'receiver.acknowledges-repeated-event-id',
  'receiver.verifies-signature-over-raw-bytes',
];
const without = (list: string[], id: string): string[] => list.filter((x) => x !== id);
const REFUSALS = [
  'receiver.refuses-wrong-secret-401',
  'receiver.refuses-missing-signature-401',
  'receiver.refuses-truncated-signature-401',
  'receiver.refuses-body-changed-after-signing-401',
];

export const RECEIVER_FAULTS: ReceiverFault[] = [
  {
    id: 'accepts-bad-signature',
    summary: 'never verifies the signature',
    caughtBy: 'receiver.refuses-wrong-secret-401',
    alsoCaughtBy: without(REFUSALS, 'receiver.refuses-wrong-secret-401'),
  },
  {
    id: 'accepts-missing-signature',
    summary: 'verifies a signature only when the header is present',
    caughtBy: 'receiver.refuses-missing-signature-401',
  },
  {
    id: 'compares-prefix-only',
    summary: 'accepts a signature that is a prefix of the expected one',
    caughtBy: 'receiver.refuses-truncated-signature-401',
  },
  {
    id: 'verifies-reserialized-json',
    summary: 'computes the HMAC over JSON.stringify(JSON.parse(body)) instead of the raw bytes',
    caughtBy: 'receiver.verifies-signature-over-raw-bytes',
    alsoCaughtBy: ['receiver.acknowledges-candidate-revealed-int64-id'],
  },
  {
    id: 'rejects-unknown-event',
    summary: 'answers 400 to an event name it does not know',
    caughtBy: 'receiver.acknowledges-unknown-event',
  },
  {
    id: 'rejects-unknown-fields',
    summary: 'answers 422 when the body has a top-level field it does not know',
    caughtBy: 'receiver.ignores-unknown-fields',
  },
  {
    id: 'rejects-repeated-event-id',
    summary: 'answers 409 to an event_id it has seen',
    caughtBy: 'receiver.acknowledges-repeated-event-id',
  },
  {
    id: 'rejects-int64-candidate-id',
    summary: 'answers 422 when candidate_id is not a safe JavaScript integer',
    caughtBy: 'receiver.acknowledges-candidate-revealed-int64-id',
    alsoCaughtBy: ['receiver.verifies-signature-over-raw-bytes'],
  },
  {
    id: 'errors-on-run-failed',
    summary: 'answers 500 to run_failed (it reads progress, which run_failed does not carry)',
    caughtBy: 'receiver.acknowledges-run-failed',
    alsoCaughtBy: ['receiver.acknowledges-repeated-event-id'],
  },
  {
    id: 'errors-on-run-completed',
    summary: 'answers 500 to run_completed',
    caughtBy: 'receiver.acknowledges-run-completed',
    alsoCaughtBy: ['receiver.ignores-unknown-fields'],
  },
  // Decided reading: "answers `401` without processing on mismatch" is explicit; another refusal fails.
  {
    id: 'answers-403-on-mismatch',
    summary: 'refuses a bad signature with 403 instead of 401',
    caughtBy: 'receiver.refuses-wrong-secret-401',
    alsoCaughtBy: without(REFUSALS, 'receiver.refuses-wrong-secret-401'),
  },
  {
    id: 'answers-400-on-mismatch',
    summary: 'refuses a bad signature with 400 instead of 401',
    caughtBy: 'receiver.refuses-wrong-secret-401',
    alsoCaughtBy: without(REFUSALS, 'receiver.refuses-wrong-secret-401'),
  },
  {
    id: 'answers-500-on-missing-signature',
    summary: 'answers 500 when the signature header is missing (refused and not processed, but not 401)',
    caughtBy: 'receiver.refuses-missing-signature-401',
  },
  {
    id: 'times-out',
    summary: 'answers a valid delivery only after the acknowledgement time-out',
    caughtBy: 'receiver.answers-within-10-seconds',
    alsoCaughtBy: ACKS,
  },
  {
    id: 'redirects',
    summary: 'answers a valid delivery with 307 to another path',
    caughtBy: 'receiver.never-redirects-a-delivery',
    alsoCaughtBy: ACKS,
  },
];

export interface ReceiverVariant {
  id: string;
  summary: string;
  /** Checks the variant makes warn, failing none. */
  warns?: string[];
}

export const RECEIVER_VARIANTS: ReceiverVariant[] = [
  {
    id: 'accepts-bare-hex',
    summary: 'also accepts the hex digest without the sha256= prefix (still verifies the HMAC)',
  },
  { id: 'answers-204', summary: 'acknowledges with 204 and no body' },
  { id: 'answers-202-queued', summary: 'acknowledges with 202 and processes later' },
  { id: 'refuses-with-json-body', summary: 'refuses with 401 and a JSON error body' },
  {
    id: 'refuses-naming-its-secret',
    summary: 'refuses with 401 and a debugging body that quotes the signature it expected and its secret',
  },
];

export interface PartnerReceiver {
  url: string;
  /** Deliveries that passed verification, in arrival order (processing happened). */
  processed: string[];
  close(): Promise<void>;
}

export interface PartnerReceiverOptions {
  secret: string;
  faults?: string[];
  variants?: string[];
  /** How long the times-out fault waits before answering. */
  slowMs?: number;
  tls?: { cert: string; key: string };
  /**
   * Conformant strictness: a verified delivery naming another organization or run than these is
   * answered 404 (the receiver knows only what it was connected to). Absent: every one is accepted.
   */
  knows?: { organizationExternalId: string; runId: string; jobExternalId?: string };
}

const KNOWN_EVENTS = new Set(['run_completed', 'run_failed', 'candidate_revealed']);
const KNOWN_FIELDS = new Set([
  'event_id',
  'event',
  'run_id',
  'organization_external_id',
  'job_external_id',
  'occurred_at',
  'progress',
  'candidate_id',
]);

export async function startPartnerReceiver(opts: PartnerReceiverOptions): Promise<PartnerReceiver> {
  const faults = new Set(opts.faults ?? []);
  const variants = new Set(opts.variants ?? []);
  const seen = new Set<string>();
  const processed: string[] = [];

  const expectedHex = (bytes: Buffer): string => createHmac('sha256', opts.secret).update(bytes).digest('hex');

  function signatureOk(raw: Buffer, header: string | undefined): boolean {
    if (header === undefined) return faults.has('accepts-missing-signature') || faults.has('accepts-bad-signature');
    if (faults.has('accepts-bad-signature')) return true;
    let hex: string;
    if (header.startsWith('sha256=')) hex = header.slice(7);
    else if (variants.has('accepts-bare-hex')) hex = header;
    else return false;
    const signed = faults.has('verifies-reserialized-json')
      ? Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))))
      : raw;
    const expected = expectedHex(signed);
    if (faults.has('compares-prefix-only')) return hex.length > 0 && expected.startsWith(hex);
    if (hex.length !== expected.length) return false;
    return timingSafeEqual(Buffer.from(hex), Buffer.from(expected));
  }

  function answer(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
    res.end(text);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    const raw = Buffer.concat(parts);
    if (faults.has('answers-500-on-missing-signature') && req.headers['x-svc-signature'] === undefined)
      return answer(res, 500, { error: 'TypeError: cannot read signature' });
    if (!signatureOk(raw, req.headers['x-svc-signature'] as string | undefined)) {
      const status = faults.has('answers-403-on-mismatch') ? 403 : faults.has('answers-400-on-mismatch') ? 400 : 401;
      // A careless but conformant receiver: what it answers is the certifier's evidence, and must reach
      // no report with the secret in it.
      const body = variants.has('refuses-naming-its-secret')
        ? { error: 'invalid_signature', expected: `sha256=${expectedHex(raw)}`, secret: opts.secret }
        : variants.has('refuses-with-json-body')
          ? { error: 'invalid_signature' }
          : undefined;
      return answer(res, status, body);
    }
    if (faults.has('times-out')) await new Promise((r) => setTimeout(r, opts.slowMs ?? 12_000));
    if (faults.has('redirects') && req.url !== '/moved') return answer(res, 307, undefined, { location: '/moved' });
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      return answer(res, 400, { error: 'bad_json' });
    }
    const known = opts.knows;
    if (known && (event.organization_external_id !== known.organizationExternalId || event.run_id !== known.runId))
      return answer(res, 404, { error: 'unknown_organization_or_run' });
    // A receiver that also checks the job against the run it knows.
    if (known?.jobExternalId !== undefined && event.job_external_id !== known.jobExternalId)
      return answer(res, 404, { error: 'job_not_of_this_run' });
    const name = String(event.event);
    if (faults.has('rejects-unknown-event') && !KNOWN_EVENTS.has(name))
      return answer(res, 400, { error: 'unknown_event' });
    if (faults.has('rejects-unknown-fields') && Object.keys(event).some((k) => !KNOWN_FIELDS.has(k)))
      return answer(res, 422, { error: 'unknown_field' });
    if (
      faults.has('rejects-int64-candidate-id') &&
      typeof event.candidate_id === 'number' &&
      !Number.isSafeInteger(event.candidate_id)
    )
      return answer(res, 422, { error: 'bad_candidate_id' });
    if (faults.has('errors-on-run-failed') && name === 'run_failed')
      return answer(res, 500, { error: 'progress missing' });
    if (faults.has('errors-on-run-completed') && name === 'run_completed') return answer(res, 500, { error: 'boom' });
    const id = String(event.event_id);
    if (seen.has(id)) {
      if (faults.has('rejects-repeated-event-id')) return answer(res, 409, { error: 'duplicate' });
      return answer(res, 200, { ok: true, duplicate: true });
    }
    seen.add(id);
    processed.push(id);
    if (variants.has('answers-204')) return answer(res, 204);
    if (variants.has('answers-202-queued')) return answer(res, 202, { queued: true });
    return answer(res, 200, { ok: true });
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500);
    });
  };
  const server: Server = opts.tls
    ? createHttpsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener)
    : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}/hooks/svc`,
    processed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
