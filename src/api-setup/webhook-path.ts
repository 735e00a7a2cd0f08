// The webhook set-up, proven once before any delivery check may blame the target: the test events
// of the trio (POST /sandbox/webhooks/test) through the target's queue to the certifier's listener.
// Two set-up mistakes look exactly like a broken target from inside a check: no webhook registered for
// the partner (the test route answers 409 webhook_not_configured), and a registered URL that does not
// reach the listener (a tunnel down, another URL registered, a firewall). Either ends every check that
// waits on a delivery `skipped` (set-up) with a reason naming the readings and the fix: the verdict is
// `incomplete`, never `not-certified`. The proof runs beside the other checks; a conformant target's
// first delivery ends it.

import type { ApiClient } from '../http/types.js';
import { isJsonObject } from '../json/lossless.js';
import { SkipCheck } from '../runner/skip-check.js';
import type { WebhookReceiver } from '../webhook/receiver.js';
import {
  DELIVERY_SPEC_MS,
  expectedDeliveryWaitMs,
  firstTrioDelivery,
  followed,
  postTestTrio,
  TEST_PATH,
  type TrioEntry,
} from './webhook-trio.js';

/**
 * Test deliveries go out "usually within a minute" (POST /sandbox/webhooks/test), which is no promise: a
 * conformant queue may take longer. The proof waits as long as any delivery check would (the delivery
 * deadline), so a slow but conformant queue is never taken for a broken set-up; it ends at the first
 * delivery, so only a set-up that is broken waits the whole time.
 */
const PROOF_SPEC_MS = DELIVERY_SPEC_MS;

export interface WebhookPathInputs {
  /** The URL the operator says is registered and reaches the listener (--webhook-public-url). */
  publicUrl: string;
  /** --webhook-not-registered: the operator says no webhook is registered (409 is then expected). */
  announcedUnregistered: boolean;
  timeScale: number;
}

const isNotConfigured = (e: TrioEntry): boolean =>
  e.res.status === 409 && isJsonObject(e.res.json) && e.res.json.error === 'webhook_not_configured';

/** What unlocks the webhook checks again: the short form the verdict lists. */
const WEBHOOK_SETUP_FIX = 'a registered webhook URL that reaches the listener';

function notRegisteredReason(inputs: WebhookPathInputs): string {
  if (inputs.announcedUnregistered) {
    return `set-up: --webhook-not-registered says no webhook is registered for the partner, so no delivery can reach the listener (POST ${TEST_PATH} answered 409 webhook_not_configured, as stated); to run the delivery checks, have the operator register ${inputs.publicUrl} and leave out --webhook-not-registered`;
  }
  return (
    `set-up: POST ${TEST_PATH} answered 409 webhook_not_configured: the target has no webhook URL registered for this partner ` +
    `(or keeps it for another partner key than the one given); have the service operator register ${inputs.publicUrl} ` +
    `(the URL that reaches --webhook-listen) for the partner, or, if none is to be registered, pass --webhook-not-registered and leave out --webhook-secret; ` +
    'not blamed on the target'
  );
}

function neverArrivedReason(inputs: WebhookPathInputs, waitedMs: number): string {
  const waited = `${Math.round(waitedMs / 1000)} s`;
  return (
    `set-up: no test event reached the listener within ${waited} (${Math.round(PROOF_SPEC_MS / 60_000)} minutes of spec time at time scale ${inputs.timeScale}; the spec: test deliveries go out "usually within a minute"), ` +
    `though the target accepted them: either the registered URL does not reach the listener (a tunnel or ingress down, a URL other than ${inputs.publicUrl} registered, ` +
    "a firewall before --webhook-listen), or the target's webhook queue is not sending (or is slower than a minute); " +
    `check that ${inputs.publicUrl} reaches the listener from outside and is the URL registered for the partner, then run again; not blamed on the target`
  );
}

/**
 * Sends the trio's test events and waits for the first delivery of any of them. Resolves to the
 * entries (the delivery recorded on its entry); throws SkipCheck (set-up) for the two set-up readings.
 * An answer that is neither a 409 webhook_not_configured nor names an event is the target's own
 * finding (webhooks.test-endpoint-accepted): it resolves, and the checks judge it.
 */
export async function proveWebhookPath(
  api: ApiClient,
  rx: WebhookReceiver,
  inputs: WebhookPathInputs,
  signal: AbortSignal,
): Promise<TrioEntry[]> {
  const entries = await postTestTrio(api);
  if (entries.some(isNotConfigured)) throw new SkipCheck(notRegisteredReason(inputs), 'set-up', WEBHOOK_SETUP_FIX);
  if (followed(entries).length === 0) return entries;
  const waitMs = expectedDeliveryWaitMs(PROOF_SPEC_MS, inputs.timeScale);
  const first = await firstTrioDelivery(entries, rx, waitMs, signal);
  if (!first && !signal.aborted) throw new SkipCheck(neverArrivedReason(inputs, waitMs), 'set-up', WEBHOOK_SETUP_FIX);
  return entries;
}
