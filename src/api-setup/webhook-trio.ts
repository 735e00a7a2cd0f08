// The webhook trio: one validly signed test event of each kind (POST /sandbox/webhooks/test) and its
// first delivery, shared by every check that inspects deliveries: three requests for the whole
// certification instead of three per check. It is a shared setup step (shared-setup.ts), so every check
// that awaits it gets its three exchanges attached, like the organization's or the real run's.

import type { ApiClient, ApiResponse } from '../http/types.js';
import { isJsonObject } from '../json/lossless.js';
import type { ReceivedDelivery, WebhookReceiver } from '../webhook/receiver.js';

const TEST_EVENTS = ['run_completed', 'run_failed', 'candidate_revealed'] as const;
export type TestEvent = (typeof TEST_EVENTS)[number];

export const TEST_PATH = '/sandbox/webhooks/test';

/**
 * How long an expected delivery is waited for before it is called missing (a failure). The spec says
 * test deliveries go out "usually within a minute" and states no latency for real events: "usually" is
 * no bound, so a delivery later than a minute is at most a warning (the checks that time it say so),
 * and only one still missing after ten times the usual is a failure — by then a queue that had tried
 * and failed would have retried twice (after 1 and 2 minutes). The wait ends as soon as the delivery
 * comes, so a conformant target is never slowed by it.
 */
export const DELIVERY_SPEC_MS = 10 * 60_000;

// The delivery path (sockets, event loop, a busy CI core) has a fixed latency that a time scale
// cannot shrink: a wait for something expected never goes below this (it ends as soon as it comes).
// Several certifications sharing two loaded cores (the variant matrix) were seen to hold a delivery
// past 3 s; only a delivery that never comes waits the whole floor.
const EXPECT_FLOOR_MS = 10_000;

/** Real milliseconds to wait for an expected delivery, `specMs` of spec time away. */
export function expectedDeliveryWaitMs(specMs: number, timeScale: number): number {
  return Math.max(specMs / timeScale, EXPECT_FLOOR_MS);
}

export interface TrioEntry {
  event: TestEvent;
  /** The 202 (or whatever came back); a setup exchange of every check that awaits the trio. */
  res: ApiResponse;
  eventId?: string;
  runId?: string;
  delivery?: ReceivedDelivery;
}

function stringField(d: ReceivedDelivery, name: string): string | undefined {
  const v = isJsonObject(d.json) ? d.json[name] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** A test event's delivery: by event_id, or by its fresh run_id (so a wrong event_id is still found). */
export function isDeliveryOf(trig: { eventId: string; runId: string }): (d: ReceivedDelivery) => boolean {
  return (d) => stringField(d, 'event_id') === trig.eventId || stringField(d, 'run_id') === trig.runId;
}

/**
 * Sends the three test events (the POSTs only). Never throws for the target's sake: an answer that is
 * not a 202 is webhooks.test-endpoint-accepted's finding.
 */
export async function postTestTrio(api: ApiClient): Promise<TrioEntry[]> {
  const entries: TrioEntry[] = [];
  for (const event of TEST_EVENTS) {
    const res = await api.post(TEST_PATH, { event }, { label: `test ${event}` });
    const json = isJsonObject(res.json) ? res.json : undefined;
    const eventId = typeof json?.event_id === 'string' ? json.event_id : undefined;
    const runId = typeof json?.run_id === 'string' ? json.run_id : undefined;
    entries.push({ event, res, ...(eventId ? { eventId } : {}), ...(runId ? { runId } : {}) });
  }
  return entries;
}

/** The entries whose answer names the event: only those can be followed to a delivery. */
export const followed = (entries: readonly TrioEntry[]): TrioEntry[] => entries.filter((e) => e.eventId || e.runId);
const deliveryOf = (e: TrioEntry): ((d: ReceivedDelivery) => boolean) =>
  isDeliveryOf({ eventId: e.eventId ?? '', runId: e.runId ?? '' });

/**
 * The first delivery of any of the trio's events within `waitMs`, recorded on its entry; undefined when
 * none came (or no answer named an event). One is enough to prove the path from the target's queue to
 * the listener; the others are each check's to wait for.
 */
export async function firstTrioDelivery(
  entries: readonly TrioEntry[],
  rx: WebhookReceiver,
  waitMs: number,
  signal: AbortSignal,
): Promise<ReceivedDelivery | undefined> {
  const named = followed(entries);
  if (named.length === 0) return undefined;
  const d = await rx.waitFor((x) => named.some((e) => deliveryOf(e)(x)), waitMs, signal);
  if (!d) return undefined;
  for (const e of named) if (!e.delivery && deliveryOf(e)(d)) e.delivery = d;
  return d;
}

/**
 * Waits for each event's first delivery, up to DELIVERY_SPEC_MS. Never throws for the target's sake:
 * a missing delivery is the finding of each check that reads it.
 */
export async function awaitTrioDeliveries(
  entries: TrioEntry[],
  rx: WebhookReceiver,
  timeScale: number,
  signal: AbortSignal,
): Promise<TrioEntry[]> {
  const wait = expectedDeliveryWaitMs(DELIVERY_SPEC_MS, timeScale);
  await Promise.all(
    followed(entries).map(async (e) => {
      // Any answer that names the event is followed; its status is webhooks.test-endpoint-accepted's concern.
      if (e.delivery) return;
      const d = await rx.waitFor(deliveryOf(e), wait, signal);
      if (d) e.delivery = d;
    }),
  );
  return entries;
}
