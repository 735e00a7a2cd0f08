import { randomUUID } from 'node:crypto';
import { serializeBody } from './json-body.js';
import { signBody } from './signing.js';
import type { WebhookEnvelope } from './types.js';
import type { FaultSet } from '../faults/index.js';

export interface Outgoing {
  eventId: string;
  body: Uint8Array;
  headers: Record<string, string>;
}

/** The same instant written with a +02:00 offset: valid ISO 8601, but not UTC. */
function toNonUtc(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
}

/**
 * The bytes and headers of one delivery attempt. Each webhook fault is applied here, at the one point where
 * it breaks the rule it names.
 */
export function buildOutgoing(input: {
  envelope: WebhookEnvelope;
  attempt: number;
  secret: string;
  wrongSecret: string;
  wrongSignature: boolean;
  sandboxHeader: boolean;
  faults: FaultSet;
  variants?: ReadonlySet<string>;
}): Outgoing {
  const { faults } = input;
  const variants = input.variants ?? new Set<string>();
  const envelope: Record<string, unknown> = { ...input.envelope };
  if (variants.has('additive.webhook-fields'))
    envelope.zz_variant_field = { added_by: 'variant additive.webhook-fields' };
  if (variants.has('json.timestamps-offset-form') && envelope.occurred_at === input.envelope.occurred_at) {
    envelope.occurred_at = input.envelope.occurred_at.replace(/Z$/, '+00:00');
  }
  // Variant json.timestamps-basic-format: the same instant in the ISO 8601 basic format.
  if (variants.has('json.timestamps-basic-format') && envelope.occurred_at === input.envelope.occurred_at) {
    envelope.occurred_at = input.envelope.occurred_at.replace(
      /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)Z$/,
      '$1$2$3T$4$5$6Z',
    );
  }
  if (faults.has('webhooks.new-event-id-on-retry') && input.attempt > 1) envelope.event_id = randomUUID();
  if (faults.has('webhooks.envelope-missing-organization-external-id')) delete envelope.organization_external_id;
  if (faults.has('webhooks.occurred-at-not-utc')) envelope.occurred_at = toNonUtc(input.envelope.occurred_at);

  const signed = serializeBody(envelope);
  // The fault sends one byte more than it signed: a trailing newline a lax receiver might even strip.
  const body = faults.has('webhooks.signature-over-different-bytes')
    ? Buffer.concat([signed, Buffer.from('\n')])
    : signed;
  const useWrong = input.wrongSignature && !faults.has('webhooks.bad-signature-test-valid');
  let signature = signBody(useWrong ? input.wrongSecret : input.secret, signed);
  if (faults.has('webhooks.signature-uppercase-hex'))
    signature = `sha256=${signature.slice('sha256='.length).toUpperCase()}`;
  if (faults.has('webhooks.signature-missing-prefix')) signature = signature.slice('sha256='.length);

  const headers: Record<string, string> = {
    'content-type': faults.has('webhooks.content-type-not-json') ? 'text/plain' : 'application/json',
    'x-svc-signature': signature,
    'user-agent': 'svc-sandbox-webhooks/1',
  };
  if (input.sandboxHeader && !faults.has('webhooks.environment-header-missing'))
    headers['x-svc-environment'] = 'sandbox';
  return { eventId: String(envelope.event_id), body, headers };
}
