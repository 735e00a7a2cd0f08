// Retries after a failed delivery: a retry comes, with the same event_id, and a redirect is a failure
// that is not followed.

import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { EvidenceDeclaration } from '../../src/runner/evidence.js';
import type { ReceivedDelivery, WebhookReceiver } from '../../src/webhook/receiver.js';
import { S } from '../../src/spec/sections.js';
import {
  DELIVERY_SPEC_MS,
  MIN_RETRY_GAP_SPEC_MS,
  RETRY_SPEC_MS,
  describeDelivery,
  eventIdOf,
  expectWait,
  runIdOf,
  specDuration,
  triggerPlanned,
} from '../support/webhook-deliveries.js';
import { sandboxHooks, suite, withReceiver } from './common.js';
import { checkHeadOf } from '../support/check-row.js';

/** First delivery, then a retry window. */
const RETRY_TIMEOUT = DELIVERY_SPEC_MS + RETRY_SPEC_MS + 60_000;

/** A planned non-2xx answer and the next delivery of the same event (a retry, or a redirect followed). */
async function failedThenNext(
  t: CheckContext,
  rx: WebhookReceiver,
  status: number,
): Promise<
  { first: ReceivedDelivery; next: ReceivedDelivery | undefined; runId: string; eventId: string } | undefined
> {
  const planned = await triggerPlanned(t, rx, 'run_failed', { status }, S.events);
  if (!planned) return undefined;
  const { trig, first } = planned;
  // By run_id (fresh per test event), so a retry under a new event_id is still recognised.
  const next = await rx.waitFor(
    (d) => (runIdOf(d) === trig.runId && d.seq > first.seq) || d.followedRedirectOf === first.seq,
    expectWait(t, RETRY_SPEC_MS),
    t.signal,
  );
  if (t.signal.aborted) return undefined;
  return { first, next, runId: trig.runId, eventId: trig.eventId };
}

/**
 * A check that has the receiver answer one test delivery with `answer` (500, 302) and judges what came
 * next (failedThenNext): the rows state the answer and the judgement, `next` undefined when nothing came.
 */
function retryCheck(
  row: EvidenceDeclaration & {
    id: string;
    title: string;
    answer: 500 | 302;
    judge(t: CheckContext, rx: WebhookReceiver, first: ReceivedDelivery, next: ReceivedDelivery | undefined): void;
  },
): CheckDefinition {
  return {
    ...checkHeadOf(suite, row),
    spec: [S.events],
    needs: [...sandboxHooks],
    timeoutMs: RETRY_TIMEOUT,
    run: withReceiver(async (t, rx) => {
      const r = await failedThenNext(t, rx, row.answer);
      if (r) row.judge(t, rx, r.first, r.next);
    }),
  };
}

export const retriedAfterFailure = retryCheck({
  id: 'webhooks.retried-after-failure',
  title: 'A delivery answered 500 is retried after the one-minute backoff',
  evidence: 'input',
  answer: 500,
  judge(t, _rx, first, next) {
    if (
      !t.expect.that(next !== undefined, {
        message: `${describeDelivery(first)} was never retried within ${specDuration(RETRY_SPEC_MS)} of spec time; a non-2xx answer is retried with backoff, first after 1 min`,
        spec: S.events,
      }) ||
      !next
    )
      return;
    const gapSpecMs = (next.receivedAt - first.receivedAt) * t.target.timeScale;
    t.expect.that(gapSpecMs >= MIN_RETRY_GAP_SPEC_MS, {
      message: `${describeDelivery(next)} retried ${describeDelivery(first)} after ${specDuration(gapSpecMs)} of spec time; the first retry comes after 1 min`,
      spec: S.events,
      expected: 'about 1 min',
      received: specDuration(gapSpecMs),
    });
  },
});

export const retrySameEventId = retryCheck({
  id: 'webhooks.retry-same-event-id',
  title: 'A retried delivery carries the same event_id as the failed attempt',
  evidence: 'input',
  answer: 500,
  judge(t, _rx, first, next) {
    if (!next) {
      t.expect.fail({
        message: `${describeDelivery(first)} was never retried within ${specDuration(RETRY_SPEC_MS)} of spec time, so its event_id could not be compared`,
        spec: S.events,
      });
      return;
    }
    t.expect.equal(
      eventIdOf(next),
      eventIdOf(first),
      `event_id of the retry ${describeDelivery(next)} of ${describeDelivery(first)} (identical on every retry)`,
      S.events,
    );
  },
});

export const redirectNotFollowed = retryCheck({
  id: 'webhooks.redirect-not-followed',
  title: 'A 3xx answer is never followed and counts as a failed attempt, retried later',
  evidence: 'input',
  answer: 302,
  judge(t, rx, first, next) {
    const followed = rx.deliveries().find((d) => d.followedRedirectOf === first.seq);
    if (
      !t.expect.that(followed === undefined, {
        message: `${describeDelivery(first)} was answered 302 and the target followed its Location (${followed ? describeDelivery(followed) : ''}); redirects are never followed`,
        spec: S.events,
      })
    )
      return;
    t.expect.that(next !== undefined, {
      message: `${describeDelivery(first)} was answered 302 and never retried within ${specDuration(RETRY_SPEC_MS)} of spec time; any 3xx counts as a failed attempt, retried after 1 min`,
      spec: S.events,
    });
  },
});
