// Webhooks (Webhooks: signing, retries, envelopes) and the test endpoint (POST /sandbox/webhooks/test). The
// queue's act at the deliveryPolicy, webhookEnvelope and delivery points that src/sandbox/webhooks reads; what
// events are queued is switched in events.ts and queue.ts; the test endpoint's act at its points.
import { edited } from './reshape.js';
import { newUuid } from '../ids.js';
import { onAnswer, onBody, onRefusal } from './points.js';
import type { Delivery } from './points.js';
import type { FaultDefinition } from './types.js';

/** The delivery with its `x-svc-signature` rewritten. */
function withSignature(d: Delivery, rewrite: (signature: string) => string): Delivery {
  return { ...d, headers: { ...d.headers, 'x-svc-signature': rewrite(d.headers['x-svc-signature'] ?? '') } };
}

/** The same instant written with a +02:00 offset: valid ISO 8601, but not UTC. */
function plus2(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
}

export const webhooksFaults = [
  {
    id: 'webhooks.retry-backoff-flat',
    area: 'webhooks',
    summary: 'every retry comes one minute after the last failed attempt (no backoff beyond the first retry)',
    caughtBy: 'webhooks.retry-schedule-whole',
    acts: {
      deliveryPolicy: (p) => ({ ...p, backoff: 'flat' }),
    },
  },
  {
    id: 'webhooks.retries-past-eighth-attempt',
    area: 'webhooks',
    summary: 'after the eighth attempt the event is retried four more times, a minute apart (12 attempts in all)',
    caughtBy: 'webhooks.retry-schedule-whole',
    acts: {
      deliveryPolicy: (p) => ({ ...p, backoff: 'past-eighth' }),
    },
  },
  {
    id: 'webhooks.test-event-id-per-name',
    area: 'webhooks',
    summary: 'every test event of one kind carries the same event_id, so two different events share it',
    caughtBy: 'webhooks.event-id-unique',
  },
  {
    id: 'webhooks.late-ack-accepted',
    area: 'webhooks',
    summary: 'a 2xx that comes after more than 10 seconds still counts as delivered: the event is never sent again',
    caughtBy: 'webhooks.late-ack-redelivered',
    acts: {
      deliveryPolicy: (p) => ({ ...p, ackWait: 'one-minute' }),
    },
  },
  {
    id: 'webhooks.real-run-progress-stale',
    area: 'webhooks',
    summary:
      "a real run's run_completed carries a progress.screened one above the run's final read (test and fixture events stay right)",
    caughtBy: 'webhooks.real-run-deliveries-valid',
  },
  {
    id: 'webhooks.real-reveal-candidate-id-rounded',
    area: 'webhooks',
    summary: "a real run's candidate_revealed writes candidate_id through a double, so ids above 2^53 arrive rounded",
    caughtBy: 'webhooks.real-run-deliveries-valid',
  },
  {
    id: 'webhooks.signature-uppercase-hex',
    area: 'webhooks',
    summary: 'x-svc-signature carries upper-case hex',
    caughtBy: 'webhooks.signature-verifies',
    acts: {
      delivery: (d) => withSignature(d, (s) => `sha256=${s.slice('sha256='.length).toUpperCase()}`),
    },
  },
  {
    id: 'webhooks.signature-missing-prefix',
    area: 'webhooks',
    summary: 'x-svc-signature lacks the sha256= prefix',
    caughtBy: 'webhooks.signature-verifies',
    acts: {
      delivery: (d) => withSignature(d, (s) => s.slice('sha256='.length)),
    },
  },
  {
    id: 'webhooks.signature-over-different-bytes',
    area: 'webhooks',
    summary: 'the signature is computed over the body without the trailing newline that is sent',
    caughtBy: 'webhooks.signature-verifies',
    acts: {
      // One byte more is sent than was signed: a trailing newline a lax receiver might even strip.
      delivery: (d) => ({ ...d, body: Buffer.concat([d.body, Buffer.from('\n')]) }),
    },
  },
  {
    id: 'webhooks.bad-signature-test-valid',
    area: 'webhooks',
    summary: 'the bad-signature test delivery (valid_signature: false) is signed with the real secret',
    caughtBy: 'webhooks.bad-signature-fails-verification',
    acts: {
      delivery: (d, f) => (f.wrongSignature ? withSignature(d, () => f.validSignature()) : d),
    },
  },
  {
    id: 'webhooks.bad-signature-test-retried',
    area: 'webhooks',
    summary: 'the bad-signature test delivery is retried after its non-2xx answer',
    caughtBy: 'webhooks.bad-signature-not-retried',
    acts: {
      deliveryPolicy: (p) => ({ ...p, retriesBadSignatureTest: true }),
    },
  },
  {
    id: 'webhooks.new-event-id-on-retry',
    area: 'webhooks',
    summary: 'a retry carries a new event_id instead of the original one',
    caughtBy: 'webhooks.retry-same-event-id',
    acts: {
      webhookEnvelope: (e, f) => (f.attempt > 1 ? { ...e, event_id: newUuid() } : e),
    },
  },
  {
    id: 'webhooks.no-retry-after-server-error',
    area: 'webhooks',
    summary: 'a delivery answered 5xx is never retried',
    caughtBy: 'webhooks.retried-after-failure',
    acts: {
      deliveryPolicy: (p) => ({ ...p, retriesAfterServerError: false }),
    },
  },
  {
    id: 'webhooks.redirect-followed',
    area: 'webhooks',
    summary: 'a 3xx answer is followed to its Location',
    caughtBy: 'webhooks.redirect-not-followed',
    acts: {
      deliveryPolicy: (p) => ({ ...p, followsRedirects: true }),
    },
  },
  {
    id: 'webhooks.cert-webhook-emits-run-failed',
    area: 'webhooks',
    summary: 'a `cert-webhook` run reads `completed` but queues `run_failed` instead of `run_completed`',
    caughtBy: 'webhooks.run-event-once-per-run',
    alsoCaughtBy: ['webhooks.cert-webhook-run-completed'],
  },
  {
    id: 'webhooks.duplicate-candidate-revealed',
    area: 'webhooks',
    summary: 'a reveal emits candidate_revealed twice, under two event ids',
    caughtBy: 'webhooks.candidate-revealed-once',
  },
  {
    id: 'webhooks.envelope-missing-organization-external-id',
    area: 'webhooks',
    summary: 'deliveries omit organization_external_id from the envelope',
    caughtBy: 'webhooks.envelope-complete',
    acts: {
      webhookEnvelope: (e) => {
        const { organization_external_id: _dropped, ...rest } = e;
        return rest;
      },
    },
  },
  {
    id: 'webhooks.occurred-at-not-utc',
    area: 'webhooks',
    summary: 'occurred_at is written with a +02:00 offset instead of UTC',
    caughtBy: 'webhooks.occurred-at-utc',
    acts: {
      webhookEnvelope: (e, f) => ({ ...e, occurred_at: plus2(f.occurredAt) }),
    },
  },
  {
    id: 'webhooks.environment-header-missing',
    area: 'webhooks',
    summary: 'sandbox deliveries lack x-svc-environment: sandbox',
    caughtBy: 'webhooks.sandbox-environment-header',
    acts: {
      delivery: (d) => {
        const { 'x-svc-environment': _dropped, ...headers } = d.headers;
        return { ...d, headers };
      },
    },
  },
  {
    id: 'webhooks.content-type-not-json',
    area: 'webhooks',
    summary: 'deliveries are sent with Content-Type: text/plain',
    caughtBy: 'webhooks.content-type-json',
    acts: {
      delivery: (d) => ({ ...d, headers: { ...d.headers, 'content-type': 'text/plain' } }),
    },
  },
  {
    id: 'webhooks.cert-webhook-not-queued',
    area: 'webhooks',
    summary: 'a cert-webhook run start queues no run_completed',
    caughtBy: 'webhooks.cert-webhook-run-completed',
  },
  {
    id: 'webhooks.test-response-not-202',
    area: 'webhooks',
    summary: 'POST /sandbox/webhooks/test answers 200 instead of 202',
    caughtBy: 'webhooks.test-endpoint-accepted',
    acts: {
      answer: onAnswer('webhook-test', (r) => ({ ...r, status: 200 })),
    },
  },
  {
    id: 'webhooks.test-event-id-mismatch',
    area: 'webhooks',
    summary: 'the 202 of the test endpoint names an event_id other than the one delivered',
    caughtBy: 'webhooks.test-delivery-same-event-id',
    acts: {
      answer: onAnswer('webhook-test', (r) =>
        edited(r, (b) => {
          b.event_id = newUuid();
        }),
      ),
    },
  },
  {
    id: 'webhooks.test-payload-wrong-candidate-id',
    area: 'webhooks',
    summary: 'the test candidate_revealed carries candidate_id 990000000002 instead of 990000000001',
    caughtBy: 'webhooks.test-fixture-payload',
  },
  {
    id: 'webhooks.run-event-twice',
    area: 'webhooks',
    summary: 'a run reaching completed or failed emits its terminal event twice, under two event ids',
    caughtBy: 'webhooks.run-event-once-per-run',
  },
  {
    id: 'webhooks.test-accepted-without-webhook',
    area: 'webhooks',
    summary: 'the test endpoint answers 202 when no webhook is registered instead of 409 webhook_not_configured',
    caughtBy: 'webhooks.test-requires-webhook',
    acts: {
      refusal: onRefusal('webhook-not-configured', () => undefined),
    },
  },
  {
    id: 'webhooks.test-signature-flag-coerced',
    area: 'webhooks',
    summary:
      '`POST /sandbox/webhooks/test` reads `valid_signature` for its truth: `"yes"` is accepted (202) instead of `422 invalid_request`',
    caughtBy: 'webhooks.test-invalid-body-422',
    acts: {
      body: onBody('webhook-test', (b) => ({ ...b, valid_signature: Boolean(b.valid_signature ?? true) })),
    },
  },
] as const satisfies readonly FaultDefinition[];
