// Helpers of the webhooks suite: triggering sandbox test events, finding one's own deliveries among
// everything else the shared receiver gets, and waiting in spec time with a real-time floor.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonValue } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import {
  DELIVERY_SPEC_MS,
  TEST_PATH,
  expectedDeliveryWaitMs,
  isDeliveryOf,
  type TestEvent,
  type TrioEntry,
} from '../../src/api-setup/webhook-trio.js';
import type { ReceivedDelivery, ResponsePlan, WebhookReceiver } from '../../src/webhook/receiver.js';
import type { SpecSection } from '../../src/spec/section-names.js';
import { obj } from './json-values.js';

// The trio's own facts live beside the shared setup step that sends it (src/api-setup/webhook-trio.ts).
export {
  DELIVERY_SPEC_MS,
  TEST_PATH,
  isDeliveryOf,
  type TestEvent,
  type TrioEntry,
} from '../../src/api-setup/webhook-trio.js';

/** First retry "after 1 min", plus the same allowance for its delivery. */
export const RETRY_SPEC_MS = 60_000 + DELIVERY_SPEC_MS;
/** A retry sooner than this after the failed attempt is not the spec's one-minute backoff. */
export const MIN_RETRY_GAP_SPEC_MS = 30_000;
/** How long to keep watching for a duplicate once the one expected delivery came. */
export const SETTLE_SPEC_MS = 10_000;

// The delivery path (sockets, event loop, a busy CI core) has a fixed latency that a time scale
// cannot shrink: waits for something expected have a floor (expectedDeliveryWaitMs; they end as soon
// as it comes), and windows that must stay empty never go below QUIET_FLOOR_MS.
const QUIET_FLOOR_MS = 1_000;

/** Real milliseconds to wait for an expected delivery. */
export function expectWait(t: CheckContext, specMs: number): number {
  return expectedDeliveryWaitMs(specMs, t.target.timeScale);
}

/** Real milliseconds of a window in which nothing should arrive. */
export function quietWait(t: CheckContext, specMs: number): number {
  return Math.max(specMs / t.target.timeScale, QUIET_FLOOR_MS);
}

/** Keeps watching for duplicates once the one expected delivery came (a quiet window). */
export function settle(t: CheckContext): Promise<void> {
  return t.sleep(quietWait(t, SETTLE_SPEC_MS) * t.target.timeScale);
}

/** "2 min" / "45 s" of spec time, for messages. */
export function specDuration(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

export function field(d: ReceivedDelivery, name: string): JsonValue | undefined {
  return obj(d.json)?.[name];
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export const eventIdOf = (d: ReceivedDelivery): string | undefined => str(field(d, 'event_id'));
export const eventOf = (d: ReceivedDelivery): string | undefined => str(field(d, 'event'));
export const runIdOf = (d: ReceivedDelivery): string | undefined => str(field(d, 'run_id'));

/** One line naming a delivery for messages (no secret: the body holds none). */
export function describeDelivery(d: ReceivedDelivery): string {
  return `delivery #${d.seq} (${eventOf(d) ?? 'no event'} ${eventIdOf(d) ?? 'no event_id'}, answered ${d.answeredStatus})`;
}

/** The receiver, or a skip: every check that uses it declares the need, so this is a safety net. */
export function receiverOf(t: CheckContext): WebhookReceiver | undefined {
  if (t.webhooks) return t.webhooks.receiver;
  t.skip(
    'needs a webhook receiver: --webhook-secret or SVC_WEBHOOK_SECRET',
    'needs-input',
    '--webhook-secret (with --webhook-public-url)',
  );
  return undefined;
}

export interface Triggered {
  event: TestEvent;
  res: ApiResponse;
  eventId: string;
  runId: string;
}

/** POST /sandbox/webhooks/test; undefined (after recording why) unless a 202 names an event_id and run_id. */
export async function triggerTest(
  t: CheckContext,
  event: TestEvent,
  spec: SpecSection,
  validSignature = true,
): Promise<Triggered | undefined> {
  const body = validSignature ? { event } : { event, valid_signature: false };
  const res = await t.api.post(TEST_PATH, body, { label: `test ${event}${validSignature ? '' : ' (bad signature)'}` });
  if (!t.expect.status(res, 202, spec)) return undefined;
  const json = obj(res.json);
  const eventId = str(json?.event_id);
  const runId = str(json?.run_id);
  const ok = t.expect.that(
    eventId !== undefined && runId !== undefined,
    {
      message: `the 202 of POST ${TEST_PATH} lacks event_id or run_id as strings; the spec lists both`,
      spec,
      received: res.json,
    },
    res,
  );
  return ok && eventId && runId ? { event, res, eventId, runId } : undefined;
}

/**
 * Resolves with `p`, or with undefined as soon as `signal` aborts. Every other rejection is rethrown:
 * a SetupFailure or SkipCheck of the awaited step must reach the runner, never turn into "nothing to
 * check" (a pass with no assertion).
 */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) resolve(undefined);
        else reject(e);
      },
    );
  });
}

export interface PlannedDelivery {
  trig: Triggered;
  /** The first delivery of the event, answered non-2xx (by the plan, or 401 for a bad signature). */
  first: ReceivedDelivery;
}

const PLAN_TRIES = 3;
/** Real ms a delivery may wait for the 202 that names its run (see ResponsePlan.holdMs). */
export const PLAN_HOLD_MS = 1_000;

/**
 * Triggers a test event whose first delivery the receiver answers with `plan`. The plan is armed
 * before the trigger and matches only run ids this call got back, so other checks' deliveries never
 * consume it; a delivery that beats its 202 back here is held briefly for it, and if it still goes
 * unplanned another event is tried.
 * Undefined after recording or skipping why.
 */
export async function triggerPlanned(
  t: CheckContext,
  rx: WebhookReceiver,
  event: TestEvent,
  plan: ResponsePlan,
  spec: SpecSection,
): Promise<PlannedDelivery | undefined> {
  const mine = new Set<string>();
  // Held: a delivery that beats the 202 naming its run waits briefly for that 202 (a fast queue
  // behind a slow API is conformant), then the plan applies to it.
  const disarm = rx.planResponse(
    (d) => {
      const runId = obj(d.json)?.run_id;
      return typeof runId === 'string' && mine.has(runId);
    },
    { ...plan, holdMs: PLAN_HOLD_MS },
  );
  try {
    return await triggerUntilPlanned(t, rx, event, plan, spec, mine);
  } finally {
    disarm();
  }
}

async function triggerUntilPlanned(
  t: CheckContext,
  rx: WebhookReceiver,
  event: TestEvent,
  plan: ResponsePlan,
  spec: SpecSection,
  mine: Set<string>,
): Promise<PlannedDelivery | undefined> {
  for (let i = 0; i < PLAN_TRIES; i++) {
    const trig = await triggerTest(t, event, spec);
    if (!trig) return undefined;
    mine.add(trig.runId);
    const wait = expectWait(t, DELIVERY_SPEC_MS);
    const first = await rx.waitFor(isDeliveryOf(trig), wait, t.signal);
    if (!first) {
      if (!t.signal.aborted) {
        t.expect.fail(
          {
            message: `no delivery of test event ${trig.eventId} (${event}) reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time; deliveries go out usually within a minute`,
            spec,
          },
          trig.res,
        );
      }
      return undefined;
    }
    if (first.answeredStatus < 200 || first.answeredStatus > 299) return { trig, first };
  }
  t.skip(
    `could not answer a delivery with ${plan.status}: each of ${PLAN_TRIES} test deliveries arrived before the 202 that named it`,
    'inconclusive',
  );
  return undefined;
}

/**
 * The trio's deliveries for `check`, recording a failure for each event that has none (a 202 that
 * never turns into a delivery breaks the spec whatever the check looks at).
 */
export async function trioDeliveries(
  t: CheckContext,
  spec: SpecSection,
): Promise<Array<{ entry: TrioEntry; d: ReceivedDelivery }>> {
  const trio = await untilAborted(t.setup.webhookTrio(), t.signal);
  if (!trio) return [];
  const out: Array<{ entry: TrioEntry; d: ReceivedDelivery }> = [];
  for (const entry of trio) {
    if (entry.delivery) {
      out.push({ entry, d: entry.delivery });
      continue;
    }
    const why =
      !entry.eventId && !entry.runId
        ? `POST ${TEST_PATH} {"event":"${entry.event}"} answered ${entry.res.status} naming no event_id or run_id, so there was no delivery to inspect`
        : `no delivery of test event ${entry.eventId ?? '?'} (${entry.event}) reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time; deliveries go out usually within a minute`;
    t.expect.fail({ message: `${why}`, spec }, entry.res);
  }
  return out;
}
