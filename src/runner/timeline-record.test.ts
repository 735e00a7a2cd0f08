import { describe, expect, it } from 'vitest';
import { deliveriesOnClock, envelopeOf, rateWindowMs, requestsPerWindow } from './timeline-record.js';
import { MAX_TIMELINE_DELIVERIES } from './results.js';

describe('the timeline a certification records', () => {
  it('counts requests per rate window of spec time, every request counted once', () => {
    expect(rateWindowMs(60)).toBe(1_000);
    expect(rateWindowMs(1)).toBe(60_000);
    const start = 1_000_000;
    const sent = [start, start + 999, start + 1_000, start + 2_500, start + 2_999];
    expect(requestsPerWindow(sent, start, start + 3_000, 1_000)).toEqual([2, 1, 2]);
    // A request after the end (a check left behind by a second signal) counts in the last window.
    expect(requestsPerWindow([start + 9_000], start, start + 1_500, 1_000)).toEqual([0, 1]);
    expect(requestsPerWindow([], start, start, 1_000)).toEqual([0]);
  });

  it('numbers each delivery as an attempt of its event id, in arrival order, on the run clock', () => {
    const start = 5_000;
    const seen = [
      { eventId: 'b', event: 'run_completed', receivedAt: 9_000, status: 200 },
      { eventId: 'a', event: 'run_started', sentAt: 5_500, receivedAt: 6_000, status: 503 },
      { eventId: 'a', event: 'run_started', sentAt: 5_500, receivedAt: 8_000, status: 200 },
    ];
    expect(deliveriesOnClock(seen, start)).toEqual([
      { event: 'run_started', eventId: 'a', attempt: 1, sentMs: 500, receivedMs: 1_000, status: 503 },
      { event: 'run_started', eventId: 'a', attempt: 2, sentMs: 500, receivedMs: 3_000, status: 200 },
      { event: 'run_completed', eventId: 'b', attempt: 1, receivedMs: 4_000, status: 200 },
    ]);
    const flood = Array.from({ length: MAX_TIMELINE_DELIVERIES + 7 }, (_, i) => ({
      eventId: `e${i}`,
      event: 'x',
      receivedAt: i,
      status: 200,
    }));
    expect(deliveriesOnClock(flood, 0)).toHaveLength(MAX_TIMELINE_DELIVERIES);
  });

  it('reads the envelope of a delivery body, bounded, and nothing from a body that is not one', () => {
    expect(envelopeOf({ event_id: 'e1', event: 'run_completed', occurred_at: '1970-01-01T00:00:01.000Z' })).toEqual({
      eventId: 'e1',
      event: 'run_completed',
      occurredAt: 1_000,
    });
    expect(envelopeOf({ event_id: 'z'.repeat(500), occurred_at: 'yesterday' })).toEqual({
      eventId: 'z'.repeat(120),
      event: '',
    });
    expect(envelopeOf(undefined)).toEqual({ eventId: '', event: '' });
    expect(envelopeOf(['event_id'])).toEqual({ eventId: '', event: '' });
  });
});
