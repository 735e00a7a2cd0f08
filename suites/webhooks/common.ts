// What the checks of the webhooks suite share: the suite name, the envelope's fields, the terminal
// events, the inputs a sandbox delivery check needs, the time a trio wait may take, and running a
// check with the receiver.

import type { CheckContext } from '../../src/api-setup/check.js';
import type { WebhookReceiver } from '../../src/webhook/receiver.js';
import { DELIVERY_SPEC_MS, receiverOf } from '../support/webhook-deliveries.js';

export const suite = 'webhooks';
export const ENVELOPE_FIELDS = [
  'event_id',
  'event',
  'run_id',
  'organization_external_id',
  'job_external_id',
  'occurred_at',
];

export const TERMINAL = ['run_completed', 'run_failed'];

export const sandboxHooks = ['sandbox', 'webhook-receiver'] as const;
/** Trio waits plus the check's own bookkeeping. */
export const TRIO_TIMEOUT = DELIVERY_SPEC_MS + 60_000;

/**
 * Runs `body` with the receiver (or skips), once the organization whose token the calls carry exists
 * and the webhook set-up is proven (a test event reached the listener): a set-up mistake skips the
 * check instead of failing the target.
 */
export function withReceiver(
  body: (t: CheckContext, rx: WebhookReceiver) => Promise<void>,
): (t: CheckContext) => Promise<void> {
  return async (t) => {
    const rx = receiverOf(t);
    if (!rx) return;
    await t.setup.org();
    await t.setup.webhookPath();
    await body(t, rx);
  };
}
