// A delivery acknowledged too late counts as failed and is delivered again.

import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { WebhookReceiver } from '../../src/webhook/receiver.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import {
  DELIVERY_SPEC_MS,
  RETRY_SPEC_MS,
  describeDelivery,
  eventIdOf,
  expectWait,
  isDeliveryOf,
  specDuration,
  triggerTest,
} from '../support/webhook-deliveries.js';
import { sandboxHooks, suite, withReceiver } from './common.js';

/** How long the receiver sits on the planned delivery: past the spec's 10 s (and any sandbox floor). */
function lateAnswerMs(t: CheckContext): number {
  return Math.max(20_000 / t.target.timeScale, 4_000);
}

export const lateAckRedelivered: CheckDefinition = {
  id: 'webhooks.late-ack-redelivered',
  title: 'A delivery answered only after more than 10 seconds counts as failed: the same event_id is delivered again',
  suite,
  evidence: 'input',
  spec: [S.events, S.limits],
  needs: [...sandboxHooks],
  timeoutMs: DELIVERY_SPEC_MS + RETRY_SPEC_MS + 2 * 60_000,
  run: withReceiver(async (t, rx) => {
    const delayMs = lateAnswerMs(t);
    const mine = new Set<string>();
    // candidate_revealed test events: only the shared trio sends those, and its run ids are never ours.
    const disarm = rx.planResponse(
      (d) => {
        const runId = obj(d.json)?.run_id;
        return typeof runId === 'string' && mine.has(runId);
      },
      { status: 200, delayMs },
    );
    try {
      await watchLateAck(t, rx, mine, delayMs);
    } finally {
      // An armed plan outliving its check would answer another check's delivery late.
      disarm();
    }
  }),
};

async function watchLateAck(t: CheckContext, rx: WebhookReceiver, mine: Set<string>, delayMs: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const trig = await triggerTest(t, 'candidate_revealed', S.events);
    if (!trig) return;
    mine.add(trig.runId);
    const first = await rx.waitFor(isDeliveryOf(trig), expectWait(t, DELIVERY_SPEC_MS), t.signal);
    if (t.signal.aborted) return;
    if (!first) {
      t.expect.fail(
        {
          message: `no delivery of test event ${trig.eventId} reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time`,
          spec: S.webhookTest,
        },
        trig.res,
      );
      return;
    }
    // Delivered before its 202 came back here: answered at once, so try another event.
    if (first.plan === undefined) continue;
    const again = await rx.waitFor(
      (d) => d.seq > first.seq && eventIdOf(d) === eventIdOf(first),
      delayMs + expectWait(t, RETRY_SPEC_MS),
      t.signal,
    );
    if (t.signal.aborted) return;
    t.expect.that(again !== undefined, {
      message: `${describeDelivery(first)} was answered 200 only after ${(delayMs / 1000).toFixed(1)} s (more than 10 s of spec time at time scale ${t.target.timeScale}), and its event_id never came again within ${specDuration(RETRY_SPEC_MS)} after that; no answer within 10 seconds is a failed attempt, retried with backoff (delivery rule 1; Limits)`,
      spec: S.events,
      expected: `a later delivery of event_id ${eventIdOf(first) ?? '?'}`,
      received: 'none',
    });
    return;
  }
  t.skip(
    'could not answer a delivery late: each of 3 test deliveries arrived before the 202 that named it',
    'inconclusive',
  );
}
