// The whole retry schedule of a failing webhook (about 8 hours of spec time), watched only when asked
// for (--watch-retries).

import type { JsonValue } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { ReceivedDelivery } from '../../src/webhook/receiver.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import {
  DELIVERY_SPEC_MS,
  PLAN_HOLD_MS,
  describeDelivery,
  expectWait,
  isDeliveryOf,
  receiverOf,
  runIdOf,
  specDuration,
  triggerTest,
} from '../support/webhook-deliveries.js';
import { suite } from './common.js';

/**
 * Events, delivery rule 1: the waits before each retry. "Up to 8 attempts … (after 1 min, …, 4 h)"
 * reads two ways: 8 attempts in all (the 4 h wait never comes), or a retry after each of the 8 waits
 * (9 attempts, "about 8 hours"). A tenth attempt fits neither.
 */
const RETRY_WAITS_SPEC_MS = [1, 2, 5, 15, 30, 60, 120, 240].map((m) => m * 60_000);
const ATTEMPTS_IN_ALL = 8;
const ATTEMPTS_ONE_PER_WAIT = RETRY_WAITS_SPEC_MS.length + 1;
/** A retry sooner than half its wait is not that wait (as MIN_RETRY_GAP_SPEC_MS is for the first). */
const SOONEST_FRACTION = 0.5;
/** After the last attempt seen, how long to watch for the next: its wait (4 h past the listed ones) and a tenth. */
const WATCH_MARGIN = 1.1;
const WHOLE_SCHEDULE_SPEC_MS =
  RETRY_WAITS_SPEC_MS.reduce((a, b) => a + b, 0) + WATCH_MARGIN * RETRY_WAITS_SPEC_MS[RETRY_WAITS_SPEC_MS.length - 1]!;

/** The wait before attempt `n` (2 = the first retry); past the listed ones, the last. */
function waitBefore(n: number): number {
  return RETRY_WAITS_SPEC_MS[Math.min(n - 2, RETRY_WAITS_SPEC_MS.length - 1)]!;
}

/** Each retry no sooner than its wait in the schedule, and no attempt past the last one either reading allows. */
function judgeSchedule(t: CheckContext, attempts: readonly ReceivedDelivery[]): void {
  const scale = t.target.timeScale;
  for (let n = 2; n <= attempts.length; n++) {
    const gap = (attempts[n - 1]!.receivedAt - attempts[n - 2]!.receivedAt) * scale;
    const wait = waitBefore(n);
    if (
      !t.expect.that(gap >= SOONEST_FRACTION * wait, {
        message: `attempt ${n} (${describeDelivery(attempts[n - 1]!)}) came ${specDuration(gap)} of spec time after attempt ${n - 1}; the schedule waits ${specDuration(wait)} before it`,
        spec: S.events,
        expected: `about ${specDuration(wait)}`,
        received: specDuration(gap),
      })
    )
      return;
  }
  const count = attempts.length;
  if (
    !t.expect.that(count <= ATTEMPTS_ONE_PER_WAIT, {
      message: `the event was sent ${count} times, answered 500 each time; the spec allows up to ${ATTEMPTS_IN_ALL} attempts (${ATTEMPTS_ONE_PER_WAIT} if each listed wait precedes a retry), then never again`,
      spec: S.events,
      expected: `at most ${ATTEMPTS_ONE_PER_WAIT} attempts`,
      received: `${count} attempts`,
    })
  )
    return;
  t.expect.warn(count <= ATTEMPTS_IN_ALL, {
    message: `the event was sent ${count} times, answered 500 each time, the last ${specDuration(waitBefore(count))} after the eighth`,
    spec: S.events,
    reading: `"up to ${ATTEMPTS_IN_ALL} attempts" counts the first, so the 4 h wait is never reached`,
    otherReading: `each of the ${RETRY_WAITS_SPEC_MS.length} listed waits precedes a retry (${ATTEMPTS_ONE_PER_WAIT} attempts, "about 8 hours")`,
  });
}

export const retryScheduleWhole: CheckDefinition = {
  id: 'webhooks.retry-schedule-whole',
  title:
    'A delivery that keeps failing is retried no sooner than the schedule (1, 2, 5, 15, 30 min, 1, 2, 4 h) and stops after the last attempt (opt-in: --watch-retries)',
  suite,
  evidence: 'input',
  unlockedBy: '--watch-retries',
  warns: ['a ninth attempt follows the eighth ("up to 8 attempts" may count the first or not)'],
  spec: [S.events],
  needs: ['sandbox'],
  timeoutMs: DELIVERY_SPEC_MS + WHOLE_SCHEDULE_SPEC_MS + 10 * 60_000,
  async run(t) {
    // About 8 hours of spec time: judged only when asked for, and then a skip of no input.
    if (!t.inputs.watchRetries) {
      t.skip(
        "opt-in: --watch-retries (watches a failing webhook's whole retry schedule, about 8 h of spec time)",
        'not-applicable',
      );
      return;
    }
    const rx = receiverOf(t);
    if (!rx) return;
    await t.setup.org();
    await t.setup.webhookPath();
    const mine = new Set<string>();
    const ours = (d: { json: JsonValue | undefined }) => {
      const runId = obj(d.json)?.run_id;
      return typeof runId === 'string' && mine.has(runId);
    };
    // Every attempt of this event is answered 500 (a plan answers one delivery): the first by the plan
    // that holds a delivery beating the 202 naming its run, lifted once taken (a hold slows every other
    // delivery), each later one by its own, up to one past what either reading allows.
    const disarmHold = rx.planResponse(ours, { status: 500, holdMs: PLAN_HOLD_MS });
    const disarms = Array.from({ length: ATTEMPTS_ONE_PER_WAIT }, () => rx.planResponse(ours, { status: 500 }));
    const disarm = () => disarms.forEach((d) => d());
    const attempts: ReceivedDelivery[] = [];
    try {
      const trig = await triggerTest(t, 'run_failed', S.events);
      if (!trig) return;
      mine.add(trig.runId);
      const first = await rx.waitFor(isDeliveryOf(trig), expectWait(t, DELIVERY_SPEC_MS), t.signal);
      disarmHold();
      if (t.signal.aborted) return;
      if (!first) {
        t.expect.fail(
          {
            message: `no delivery of test event ${trig.eventId} (run_failed) reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time; deliveries go out usually within a minute`,
            spec: S.events,
          },
          trig.res,
        );
        return;
      }
      if (first.answeredStatus >= 200 && first.answeredStatus < 300) {
        t.skip(
          `${describeDelivery(first)} arrived before the 202 that named it, so it could not be failed`,
          'inconclusive',
        );
        return;
      }
      attempts.push(first);
      // By run_id (fresh per test event), so a retry under a new event_id still counts.
      while (attempts.length <= ATTEMPTS_ONE_PER_WAIT) {
        const last = attempts[attempts.length - 1]!;
        t.progress(`webhook retries: ${attempts.length} attempt(s) seen, watching for the next`);
        const next = await rx.waitFor(
          (d) => runIdOf(d) === trig.runId && d.seq > last.seq,
          expectWait(t, WATCH_MARGIN * waitBefore(attempts.length + 1)),
          t.signal,
        );
        if (t.signal.aborted) return;
        if (!next) break;
        attempts.push(next);
      }
    } finally {
      disarmHold();
      disarm();
    }
    judgeSchedule(t, attempts);
  },
};
