// What a certification records of its own clock for the timeline of report.html, beyond each check's
// start and duration: the requests it sent counted per rate window, and the webhook deliveries as they
// arrived. Pure functions of what the HTTP engine and the receiver kept, so `run` and `partner` record
// the same shapes (results.ts: RunTimeline).

import { MAX_TIMELINE_DELIVERIES, type RunTimeline, type TimelineDelivery } from './results.js';

/** The rate window: a minute of the spec's time, as the pacer and the target divide it. */
export function rateWindowMs(timeScale: number): number {
  return 60_000 / timeScale;
}

/** How many of `sendTimes` (epoch ms) fall in each window from `startedAtMs` up to `endMs`. */
export function requestsPerWindow(
  sendTimes: readonly number[],
  startedAtMs: number,
  endMs: number,
  windowMs: number,
): number[] {
  const windows = Math.max(1, Math.ceil((endMs - startedAtMs) / windowMs));
  const counts = new Array<number>(windows).fill(0);
  for (const t of sendTimes) {
    // A request sent before the start (none is) or after the end (a check left behind by a second
    // signal) counts in the first or the last window: the total stays the engine's.
    const i = Math.min(windows - 1, Math.max(0, Math.floor((t - startedAtMs) / windowMs)));
    counts[i] = counts[i]! + 1;
  }
  return counts;
}

/** A delivery as the receiver or the partner's recorder saw it, times in epoch ms. */
export interface SeenDelivery {
  eventId: string;
  event: string;
  sentAt?: number;
  receivedAt: number;
  status: number;
}

/**
 * The deliveries on the certification's clock, in arrival order, each numbered as an attempt of its
 * event id (a retry repeats the id); the first MAX_TIMELINE_DELIVERIES only.
 */
export function deliveriesOnClock(seen: readonly SeenDelivery[], startedAtMs: number): TimelineDelivery[] {
  const attempts = new Map<string, number>();
  return [...seen]
    .sort((a, b) => a.receivedAt - b.receivedAt)
    .slice(0, MAX_TIMELINE_DELIVERIES)
    .map((d) => {
      const attempt = (attempts.get(d.eventId) ?? 0) + 1;
      attempts.set(d.eventId, attempt);
      return {
        event: d.event,
        eventId: d.eventId,
        attempt,
        ...(d.sentAt !== undefined && Number.isFinite(d.sentAt) ? { sentMs: d.sentAt - startedAtMs } : {}),
        receivedMs: d.receivedAt - startedAtMs,
        status: d.status,
      };
    });
}

const MAX_ENVELOPE_TEXT = 120;

/** The envelope fields of a delivery body the timeline shows; '' for what is missing or not a string. */
export function envelopeOf(json: unknown): { eventId: string; event: string; occurredAt?: number } {
  const o = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  // The target writes them: bounded, so a flood of long ids cannot grow results.json.
  const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, MAX_ENVELOPE_TEXT) : '');
  const occurred = typeof o.occurred_at === 'string' ? Date.parse(o.occurred_at) : Number.NaN;
  return {
    eventId: text(o.event_id),
    event: text(o.event),
    ...(Number.isFinite(occurred) ? { occurredAt: occurred } : {}),
  };
}

/**
 * The timeline `run` and `partner` record alike: the requests sent (epoch ms) per rate window from
 * `startedAtMs` to `endMs`, and the deliveries seen, when there were any.
 */
export function trafficTimeline(
  sendTimes: readonly number[],
  seen: readonly SeenDelivery[],
  startedAtMs: number,
  endMs: number,
  timeScale: number,
): RunTimeline {
  const windowMs = rateWindowMs(timeScale);
  const deliveries = deliveriesOnClock(seen, startedAtMs);
  return {
    windowMs,
    requests: requestsPerWindow(sendTimes, startedAtMs, endMs, windowMs),
    ...(deliveries.length > 0 ? { deliveries } : {}),
  };
}
