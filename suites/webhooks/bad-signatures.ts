// The bad-signature test event (valid_signature: false): delivered with a signature that does not
// verify, and not retried when the receiver refuses it.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import {
  DELIVERY_SPEC_MS,
  RETRY_SPEC_MS,
  describeDelivery,
  expectWait,
  isDeliveryOf,
  quietWait,
  specDuration,
  triggerTest,
} from '../support/webhook-deliveries.js';
import { sandboxHooks, suite, TRIO_TIMEOUT, withReceiver } from './common.js';

export const badSignatureFailsVerification: CheckDefinition = {
  id: 'webhooks.bad-signature-fails-verification',
  title: 'The bad-signature test (valid_signature: false) is delivered with a signature that does not verify',
  suite,
  evidence: 'input',
  spec: [S.webhookTest, S.events],
  needs: [...sandboxHooks],
  timeoutMs: TRIO_TIMEOUT,
  run: withReceiver(async (t, rx) => {
    const trig = await triggerTest(t, 'run_failed', S.webhookTest, false);
    if (!trig) return;
    t.expect.equal(
      obj(trig.res.json)?.valid_signature,
      false,
      'valid_signature of the 202 to {"valid_signature":false}',
      S.webhookTest,
      trig.res,
    );
    const d = await rx.waitFor(isDeliveryOf(trig), expectWait(t, DELIVERY_SPEC_MS), t.signal);
    if (t.signal.aborted) return;
    if (!d) {
      t.expect.fail(
        {
          message: `the bad-signature test event ${trig.eventId} was never delivered within ${specDuration(DELIVERY_SPEC_MS)} of spec time; it goes through the normal queue`,
          spec: S.webhookTest,
        },
        trig.res,
      );
      return;
    }
    t.expect.that(!d.signature.valid, {
      message: `${describeDelivery(d)} of the bad-signature test verifies with the webhook secret; with valid_signature: false the event is signed with a deliberately wrong secret`,
      spec: S.webhookTest,
    });
  }),
};

export const badSignatureNotRetried: CheckDefinition = {
  id: 'webhooks.bad-signature-not-retried',
  title: 'The bad-signature test delivery, answered 401, is sent once and never retried',
  suite,
  evidence: 'input',
  spec: [S.webhookTest],
  needs: [...sandboxHooks],
  timeoutMs: TRIO_TIMEOUT + RETRY_SPEC_MS,
  run: withReceiver(async (t, rx) => {
    const trig = await triggerTest(t, 'run_completed', S.webhookTest, false);
    if (!trig) return;
    const mine = isDeliveryOf(trig);
    const first = await rx.waitFor(mine, expectWait(t, DELIVERY_SPEC_MS), t.signal);
    if (t.signal.aborted) return;
    if (!first) {
      t.expect.fail(
        {
          message: `the bad-signature test event ${trig.eventId} was never delivered within ${specDuration(DELIVERY_SPEC_MS)} of spec time`,
          spec: S.webhookTest,
        },
        trig.res,
      );
      return;
    }
    // The first retry would come one minute after a failed attempt; watch past it.
    const window = 90_000;
    const again = await rx.waitFor((d) => mine(d) && d.seq > first.seq, quietWait(t, window), t.signal);
    if (t.signal.aborted) return;
    t.expect.that(again === undefined, {
      message: `the bad-signature test event was delivered again as ${again ? describeDelivery(again) : ''} after ${describeDelivery(first)}; it is sent once, never retried`,
      spec: S.webhookTest,
    });
  }),
};
