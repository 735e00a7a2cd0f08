import { serializeBody } from './json-body.js';
import { signBody } from './signing.js';
import type { WebhookEnvelope } from './types.js';
import type { Points } from '../faults/points.js';

export interface Outgoing {
  eventId: string;
  body: Uint8Array;
  headers: Record<string, string>;
}

/**
 * The bytes and headers of one delivery attempt: the envelope and the attempt as it leaves are the points
 * where a webhook fault breaks the rule it names.
 */
export function buildOutgoing(input: {
  envelope: WebhookEnvelope;
  attempt: number;
  secret: string;
  wrongSecret: string;
  wrongSignature: boolean;
  sandboxHeader: boolean;
  points: Pick<Points, 'webhookEnvelope' | 'delivery'>;
  variants?: ReadonlySet<string>;
}): Outgoing {
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
  const sent = input.points.webhookEnvelope(envelope, {
    attempt: input.attempt,
    occurredAt: input.envelope.occurred_at,
  });
  const body = serializeBody(sent);
  const signature = signBody(input.wrongSignature ? input.wrongSecret : input.secret, body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-svc-signature': signature,
    'user-agent': 'svc-sandbox-webhooks/1',
  };
  if (input.sandboxHeader) headers['x-svc-environment'] = 'sandbox';
  const out = input.points.delivery(
    { headers, body },
    {
      attempt: input.attempt,
      wrongSignature: input.wrongSignature,
      validSignature: () => signBody(input.secret, body),
    },
  );
  return { eventId: String(sent.event_id), ...out };
}
