// POST /sandbox/webhooks/test itself: accepted with 202, refused without a registered webhook URL,
// refused for an invalid body.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import { TEST_PATH, untilAborted } from '../support/webhook-deliveries.js';
import { sandboxHooks, suite, TRIO_TIMEOUT, withReceiver } from './common.js';

export const testEndpointAccepted: CheckDefinition = {
  id: 'webhooks.test-endpoint-accepted',
  title: 'POST /sandbox/webhooks/test answers 202 with event_id, event, run_id and valid_signature for each event',
  suite,
  evidence: 'input',
  spec: [S.webhookTest, S.sandbox],
  needs: [...sandboxHooks],
  timeoutMs: TRIO_TIMEOUT,
  run: withReceiver(async (t) => {
    const trio = await untilAborted(t.setup.webhookTrio(), t.signal);
    for (const e of trio ?? []) {
      if (!t.expect.status(e.res, 202, S.webhookTest)) continue;
      // The route exists in the sandbox only, so its answers are sandbox responses like any other.
      t.expect.header(
        e.res,
        'x-svc-environment',
        (v) => v?.trim() === 'sandbox',
        S.sandbox,
        `x-svc-environment: sandbox on the 202 to {"event":"${e.event}"}, as on every sandbox response`,
      );
      if (!t.expect.schema(e.res.json, 'webhook-test-response', S.webhookTest, e.res)) continue;
      const json = obj(e.res.json);
      t.expect.equal(json?.event, e.event, `event of the 202 to {"event":"${e.event}"}`, S.webhookTest, e.res);
      t.expect.equal(
        json?.valid_signature,
        true,
        `valid_signature of the 202 to {"event":"${e.event}"} (default true)`,
        S.webhookTest,
        e.res,
      );
    }
  }),
};

export const testRequiresWebhook: CheckDefinition = {
  id: 'webhooks.test-requires-webhook',
  title: 'With no webhook registered, POST /sandbox/webhooks/test answers 409 webhook_not_configured',
  suite,
  evidence: 'input',
  spec: [S.webhookTest, S.sandboxErrors],
  needs: ['sandbox', 'no-webhook-registered'],
  async run(t) {
    await t.setup.org();
    const res = await t.api.post(
      TEST_PATH,
      { event: 'run_completed' },
      { label: 'test run_completed (no webhook registered)' },
    );
    t.expect.error(res, 409, 'webhook_not_configured', S.webhookTest);
  },
};

export const testInvalidBody: CheckDefinition = {
  id: 'webhooks.test-invalid-body-422',
  title:
    'POST /sandbox/webhooks/test with an invalid body value (an unknown event, a non-boolean valid_signature) answers 422 invalid_request',
  suite,
  evidence: 'input',
  spec: [S.webhookTest, S.sandboxErrors],
  // A webhook registered: without one, whether 409 webhook_not_configured comes first is not shown.
  needs: ['sandbox', 'webhook-receiver', 'org'],
  async run(t) {
    await t.setup.org();
    for (const [body, what] of [
      [{ event: 'zz_not_an_event' }, 'an event outside run_completed, run_failed, candidate_revealed'],
      [{ event: 'run_completed', valid_signature: 'yes' }, 'valid_signature "yes", not a boolean'],
    ] as const) {
      const res = await t.api.post(TEST_PATH, body, { label: `test with ${what}` });
      t.expect.error(res, 422, 'invalid_request', S.webhookTest);
    }
  },
};
