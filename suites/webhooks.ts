// Webhooks: what the target posts to the certifier's receiver. Every wait runs beside the rest of
// the certification; deliveries are told apart by event_id or run_id, since other checks' events
// reach the same receiver in any order.

import type { ApiResponse } from '../src/http/types.js';
import type { JsonObject, JsonValue } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { declarationOf, type EvidenceDeclaration } from '../src/runner/evidence.js';
import { SkipCheck } from '../src/runner/skip-check.js';
import type { SpecSection } from '../src/spec/section-names.js';
import { isUtcDateTime } from '../src/schema/formats.js';
import type { ReceivedDelivery, WebhookReceiver } from '../src/webhook/receiver.js';
import { S } from '../src/spec/sections.js';
import { int, obj, objects, show, TWO_POW_53, warnUnlessRfc3339 } from './support.js';
import {
  DELIVERY_SPEC_MS,
  MIN_RETRY_GAP_SPEC_MS,
  PLAN_HOLD_MS,
  RETRY_SPEC_MS,
  SETTLE_SPEC_MS,
  TEST_PATH,
  describeDelivery,
  eventIdOf,
  eventOf,
  expectWait,
  field,
  isDeliveryOf,
  quietWait,
  receiverOf,
  runIdOf,
  settle,
  specDuration,
  triggerPlanned,
  triggerTest,
  trioDeliveries,
  untilAborted,
} from './webhook-support.js';

const suite = 'webhooks';
const ENVELOPE_FIELDS = ['event_id', 'event', 'run_id', 'organization_external_id', 'job_external_id', 'occurred_at'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FIXTURE_CANDIDATE = 990000000001n;
const TERMINAL = ['run_completed', 'run_failed'];

const sandboxHooks = ['sandbox', 'webhook-receiver'] as const;
/** Trio waits plus the check's own bookkeeping. */
const TRIO_TIMEOUT = DELIVERY_SPEC_MS + 60_000;
/** Test deliveries go out "usually within a minute" (POST /sandbox/webhooks/test). */
const USUAL_DELIVERY_SPEC_MS = 60_000;
// Like the receiver waits' floor (webhook-support.ts): a busy CI core can hold a delivery this long.
const LATE_FLOOR_MS = 3_000;
/** First delivery, then a retry window. */
const RETRY_TIMEOUT = DELIVERY_SPEC_MS + RETRY_SPEC_MS + 60_000;

/** Runs `body` with the receiver (or skips), once the organization whose token the calls carry exists. */
function withReceiver(
  body: (t: CheckContext, rx: WebhookReceiver) => Promise<void>,
): (t: CheckContext) => Promise<void> {
  return async (t) => {
    const rx = receiverOf(t);
    if (!rx) return;
    await t.setup.org();
    await body(t, rx);
  };
}

/** One delivery of the webhook trio with the 202 that queued it. */
type TrioDelivery = Awaited<ReturnType<typeof trioDeliveries>>[number];

/**
 * A check over the first delivery of each of the three test events (the shared trio): the rows below
 * state only what differs. A delivery that never came fails once, blamed on `missingBlames`
 * (trioDeliveries); `each` judges every delivery that came, `after` all of them together.
 */
interface TrioRow extends EvidenceDeclaration {
  id: string;
  title: string;
  spec: CheckDefinition['spec'];
  missingBlames: SpecSection;
  each(
    t: CheckContext,
    d: ReceivedDelivery,
    entry: TrioDelivery['entry'],
    org: Awaited<ReturnType<CheckContext['setup']['org']>>,
  ): void;
  after?(t: CheckContext, got: TrioDelivery[]): Promise<void>;
}

function trioCheck(row: TrioRow): CheckDefinition {
  return {
    id: row.id,
    title: row.title,
    suite,
    ...declarationOf(row),
    spec: row.spec,
    needs: [...sandboxHooks],
    timeoutMs: TRIO_TIMEOUT,
    run: withReceiver(async (t) => {
      const org = await t.setup.org();
      const got = await trioDeliveries(t, row.missingBlames);
      for (const { entry, d } of got) row.each(t, d, entry, org);
      await row.after?.(t, got);
    }),
  };
}

/** Distinct event ids among `ds`: a retry repeats its event_id, a second event does not. */
function distinctEvents(ds: readonly ReceivedDelivery[]): string[] {
  return [...new Set(ds.map((d) => eventIdOf(d) ?? `#${d.seq}`))];
}

const testEndpointAccepted: CheckDefinition = {
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

const testDeliverySameEventId = trioCheck({
  id: 'webhooks.test-delivery-same-event-id',
  title: 'A test event is delivered with the event_id, event and run_id its 202 returned',
  evidence: 'input',
  warns: ['a test delivery comes later than "usually within a minute" after its 202'],
  spec: [S.webhookTest, S.events],
  missingBlames: S.webhookTest,
  each(t, d, entry) {
    const what = `of ${describeDelivery(d)} for the test event whose 202 named event_id ${entry.eventId} and run_id ${entry.runId}`;
    t.expect.equal(eventIdOf(d), entry.eventId, `event_id ${what}`, S.webhookTest, entry.res);
    t.expect.equal(eventOf(d), entry.event, `event ${what}`, S.webhookTest, entry.res);
    t.expect.equal(runIdOf(d), entry.runId, `run_id ${what}`, S.webhookTest, entry.res);
    // "(usually within a minute)" is an expectation, not a limit: later is noted, never blamed.
    const answeredAt = Date.parse(entry.res.exchange.startedAt) + entry.res.exchange.durationMs;
    const afterMs = d.receivedAt - answeredAt;
    const afterSpecMs = afterMs * t.target.timeScale;
    // A floor in real time: at a high time scale a minute is a few ms, less than a busy machine's latency.
    t.expect.warn(
      afterMs <= Math.max(USUAL_DELIVERY_SPEC_MS / t.target.timeScale, LATE_FLOOR_MS),
      {
        message: `the first delivery of test event ${entry.eventId} (${entry.event}) came ${Math.round(afterSpecMs / 1000)} s of spec time after its 202, later than "usually within a minute"`,
        spec: S.webhookTest,
        reading: 'a delivery later than a minute is worth a look (a slow or paused queue)',
        otherReading: '"usually" states no limit; the spec bounds delivery only by 8 attempts over about 8 hours',
        expected: '<= 60 s',
        received: `${Math.round(afterSpecMs / 1000)} s`,
      },
      entry.res,
    );
  },
});

const testFixturePayload = trioCheck({
  id: 'webhooks.test-fixture-payload',
  title:
    'Test events carry the fixture payload: job cert-webhook, a run_id that reads 404, progress, candidate 990000000001',
  evidence: 'input',
  spec: [S.webhookTest],
  missingBlames: S.webhookTest,
  each(t, d, entry) {
    t.expect.equal(
      field(d, 'job_external_id'),
      'cert-webhook',
      `job_external_id of ${describeDelivery(d)}`,
      S.webhookTest,
      entry.res,
    );
    if (entry.event === 'run_completed') {
      const progress = field(d, 'progress');
      if (
        t.expect.that(progress !== undefined, {
          message: `${describeDelivery(d)} has no progress; a test run_completed carries progress`,
          spec: S.webhookTest,
          received: d.json,
        })
      ) {
        t.expect.schema(progress, 'progress', S.webhookTest);
      }
    }
    if (entry.event === 'candidate_revealed') {
      const id = field(d, 'candidate_id');
      t.expect.that(int(id) === FIXTURE_CANDIDATE, {
        message: `${describeDelivery(d)} carries candidate_id ${show(String(id))}; a test candidate_revealed carries candidate_id 990000000001`,
        spec: S.webhookTest,
        expected: '990000000001',
        received: String(id),
      });
    }
  },
  async after(t, got) {
    const runIds = got.map(({ d }) => runIdOf(d)).filter((r): r is string => r !== undefined);
    t.expect.that(new Set(runIds).size === runIds.length, {
      message: `the test events share run_id(s) ${runIds.join(', ')}; each carries a fresh run id`,
      spec: S.webhookTest,
      received: runIds,
    });
    const probe = runIds[0];
    if (probe && UUID.test(probe)) {
      const read = await t.api.get(`/runs/${encodeURIComponent(probe)}`, { label: 'read the test event run_id' });
      t.expect.error(read, 404, 'run_not_found', S.webhookTest);
    }
  },
});

const envelopeComplete = trioCheck({
  id: 'webhooks.envelope-complete',
  title: 'Every delivery carries the whole envelope, with the organization_external_id of the redemption',
  evidence: 'input',
  spec: [S.events],
  missingBlames: S.events,
  each(t, d, entry, org) {
    const body = obj(d.json);
    if (!body) {
      t.expect.fail({
        message: `${describeDelivery(d)} is not a JSON object; deliveries carry the JSON envelope`,
        spec: S.events,
        received: d.body.toString('utf8').slice(0, 200),
      });
      return;
    }
    const missing = ENVELOPE_FIELDS.filter((f) => typeof body[f] !== 'string' || body[f] === '');
    t.expect.that(missing.length === 0, {
      message: `${describeDelivery(d)} lacks envelope field(s) ${missing.join(', ')} as non-empty strings; the envelope is present on every event, all required`,
      spec: S.events,
      expected: ENVELOPE_FIELDS,
      received: Object.keys(body),
    });
    const runId = body.run_id;
    if (typeof runId === 'string') {
      t.expect.that(UUID.test(runId), {
        message: `run_id ${show(runId)} of ${describeDelivery(d)} is not a uuid`,
        spec: S.events,
        received: runId,
      });
    }
    t.expect.equal(body.event, entry.event, `event of ${describeDelivery(d)}`, S.events);
    // Known only when this certification redeemed the organization (not with --org-token).
    if (org.organizationExternalId && typeof body.organization_external_id === 'string') {
      t.expect.equal(
        body.organization_external_id,
        org.organizationExternalId,
        `organization_external_id of ${describeDelivery(d)} (the external_id given at redemption)`,
        S.events,
      );
    }
  },
});

const occurredAtUtc = trioCheck({
  id: 'webhooks.occurred-at-utc',
  title: 'occurred_at of every delivery is an ISO 8601 date-time in UTC',
  evidence: 'input',
  warns: ['occurred_at timestamp is ISO 8601 in UTC but not in RFC 3339 form (20250101T100000Z)'],
  spec: [S.events, S.general],
  missingBlames: S.events,
  each(t, d) {
    const at = field(d, 'occurred_at');
    if (at === undefined) return; // a missing field is webhooks.envelope-complete's finding
    t.expect.that(typeof at === 'string' && isUtcDateTime(at), {
      message: `occurred_at ${show(String(at))} of ${describeDelivery(d)} is not an ISO 8601 date-time in UTC (ending in Z or +00:00); timestamps are in UTC (see ${S.general})`,
      spec: S.events,
      received: String(at),
    });
    warnUnlessRfc3339(t, at, `occurred_at of ${describeDelivery(d)}`, S.general);
  },
});

const contentTypeJson = trioCheck({
  id: 'webhooks.content-type-json',
  title: 'Deliveries are POSTs with Content-Type: application/json',
  evidence: 'input',
  spec: [S.events],
  missingBlames: S.events,
  each(t, d) {
    const ct = d.headers['content-type'];
    t.expect.that(d.method === 'POST' && /^application\/json\s*(;.*)?$/i.test(ct ?? ''), {
      message: `${describeDelivery(d)} came as ${d.method} with Content-Type ${show(ct ?? null)}; deliveries are POST with Content-Type: application/json`,
      spec: S.events,
      expected: 'POST, application/json',
      received: `${d.method}, ${ct ?? '(absent)'}`,
    });
  },
});

const sandboxEnvironmentHeader = trioCheck({
  id: 'webhooks.sandbox-environment-header',
  title: 'Sandbox deliveries carry x-svc-environment: sandbox',
  evidence: 'input',
  spec: [S.sandbox, S.events],
  missingBlames: S.sandbox,
  each(t, d) {
    const v = d.headers['x-svc-environment'];
    t.expect.that(v === 'sandbox', {
      message: `${describeDelivery(d)} carries x-svc-environment ${show(v ?? null)}; every sandbox webhook carries x-svc-environment: sandbox`,
      spec: S.sandbox,
      expected: 'sandbox',
      received: v ?? '(absent)',
    });
  },
});

const signatureVerifies = trioCheck({
  id: 'webhooks.signature-verifies',
  title:
    'x-svc-signature is sha256= and the lowercase hex HMAC-SHA256 of the bytes sent, keyed with the webhook secret',
  evidence: 'input',
  spec: [S.events],
  missingBlames: S.events,
  each(t, d) {
    const header = d.signature.header;
    t.expect.that(d.signature.valid, {
      message:
        `${describeDelivery(d)}: ${d.signature.reason ?? 'signature refused'} (header ${header === undefined ? 'absent' : `starts ${show(header.slice(0, 12))}`}); ` +
        `x-svc-signature is sha256= followed by the lowercase hex HMAC-SHA256 of the raw body bytes keyed with the webhook secret`,
      spec: S.events,
    });
  },
});

const certWebhookRunCompleted: CheckDefinition = {
  id: 'webhooks.cert-webhook-run-completed',
  title: 'Starting a cert-webhook run delivers a signed run_completed with progress',
  suite,
  evidence: 'input',
  spec: [S.sandbox, S.events],
  needs: [...sandboxHooks],
  timeoutMs: TRIO_TIMEOUT,
  run: withReceiver(async (t, rx) => {
    const run = await t.setup.fixtureRun('cert-webhook');
    const d = await rx.waitFor((x) => runIdOf(x) === run.runId, expectWait(t, DELIVERY_SPEC_MS), t.signal);
    if (t.signal.aborted) return;
    if (!d) {
      t.expect.fail(
        {
          message: `no delivery for cert-webhook run ${run.runId} reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time; a cert-webhook run start queues run_completed`,
          spec: S.sandbox,
        },
        run.start,
      );
      return;
    }
    t.expect.equal(
      eventOf(d),
      'run_completed',
      `event of ${describeDelivery(d)} for cert-webhook run ${run.runId}`,
      S.sandbox,
      run.start,
    );
    t.expect.that(d.signature.valid, {
      message: `${describeDelivery(d)} for cert-webhook run ${run.runId} is not validly signed: ${d.signature.reason ?? 'refused'}`,
      spec: S.events,
    });
    t.expect.equal(field(d, 'job_external_id'), 'cert-webhook', `job_external_id of ${describeDelivery(d)}`, S.events);
    const progress = field(d, 'progress');
    if (
      t.expect.that(progress !== undefined, {
        message: `${describeDelivery(d)} has no progress; run_completed carries progress, same shape as in the run read`,
        spec: S.events,
        received: d.json,
      })
    ) {
      t.expect.schema(progress, 'progress', S.events);
    }
  }),
};

const badSignatureFailsVerification: CheckDefinition = {
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

const badSignatureNotRetried: CheckDefinition = {
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
    id: row.id,
    title: row.title,
    suite,
    ...declarationOf(row),
    spec: [S.events],
    needs: [...sandboxHooks],
    timeoutMs: RETRY_TIMEOUT,
    run: withReceiver(async (t, rx) => {
      const r = await failedThenNext(t, rx, row.answer);
      if (r) row.judge(t, rx, r.first, r.next);
    }),
  };
}

const retriedAfterFailure = retryCheck({
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

const retrySameEventId = retryCheck({
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

const redirectNotFollowed = retryCheck({
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

/** How long the receiver sits on the planned delivery: past the spec's 10 s (and any sandbox floor). */
function lateAnswerMs(t: CheckContext): number {
  return Math.max(20_000 / t.target.timeScale, 4_000);
}

const lateAckRedelivered: CheckDefinition = {
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

/** What makes an event the same event: its name, run and (for candidate_revealed) candidate. */
function eventKey(d: ReceivedDelivery): string {
  const id = int(field(d, 'candidate_id'));
  return `${eventOf(d) ?? '?'} run ${runIdOf(d) ?? '?'}${id !== undefined ? ` candidate ${id}` : ''}`;
}

const eventIdUnique: CheckDefinition = {
  id: 'webhooks.event-id-unique',
  title: 'event_id is unique per event: two different events never share one (only retries repeat it)',
  suite,
  evidence: 'input',
  spec: [S.events],
  needs: [...sandboxHooks],
  timeoutMs: TRIO_TIMEOUT,
  run: withReceiver(async (t, rx) => {
    // The trio's run_completed and one more of the same kind: two events alike but for their run.
    const trig = await triggerTest(t, 'run_completed', S.webhookTest);
    if (!trig) return;
    await trioDeliveries(t, S.events);
    const second = await rx.waitFor(isDeliveryOf(trig), expectWait(t, DELIVERY_SPEC_MS), t.signal);
    if (t.signal.aborted) return;
    if (!second) {
      t.expect.fail(
        {
          message: `no delivery of test event ${trig.eventId} reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time`,
          spec: S.webhookTest,
        },
        trig.res,
      );
      return;
    }
    // Every delivery received so far, other checks' included: a repeated event_id must be a retry of one event.
    const byId = new Map<string, Set<string>>();
    for (const d of rx.deliveries()) {
      const id = eventIdOf(d);
      if (id === undefined || !d.signature.valid) continue;
      byId.set(id, (byId.get(id) ?? new Set()).add(eventKey(d)));
    }
    for (const [id, events] of byId) {
      if (events.size < 2) continue;
      t.expect.fail({
        message: `event_id ${id} names ${events.size} different events (${[...events].join('; ')}); event_id is unique per event and identical only on retries of it`,
        spec: S.events,
        expected: 'one event per event_id',
        received: [...events],
      });
    }
  }),
};

interface Watched {
  label: string;
  runId: string;
  /** The event it must emit (exactly one), or undefined when only "at most one" is asserted. */
  expected?: 'run_completed' | 'run_failed';
  /** A missing `expected` event fails another check already. */
  missingJudgedElsewhere?: boolean;
}

const runEventOncePerRun: CheckDefinition = {
  id: 'webhooks.run-event-once-per-run',
  title:
    'run_completed / run_failed at most once per run; cert-webhook and the real run emit the one their final status ties to',
  suite,
  evidence: 'input',
  spec: [S.runStatus, S.events, S.sandbox],
  needs: ['webhook-receiver'],
  timeoutMs: DELIVERY_SPEC_MS + SETTLE_SPEC_MS + 60_000,
  run: withReceiver(async (t, rx) => {
    /** Runs judged (at least one terminal event seen or required), and why the others were not. */
    let judged = 0;
    const notJudged: string[] = [];
    const watch = async (w: Watched): Promise<void> => {
      const terminal = (d: ReceivedDelivery) => runIdOf(d) === w.runId && TERMINAL.includes(eventOf(d) ?? '');
      const first = await rx.waitFor(terminal, expectWait(t, DELIVERY_SPEC_MS), t.signal);
      if (t.signal.aborted) return;
      if (!first) {
        // cert-webhook's missing run_completed is webhooks.cert-webhook-run-completed's failure, not a second one here.
        if (w.expected && w.missingJudgedElsewhere) {
          notJudged.push(`the ${w.label} emitted no terminal event (webhooks.cert-webhook-run-completed judges that)`);
        } else if (w.expected) {
          judged++;
          t.expect.fail({
            message: `the ${w.label} ${w.runId} ended ${w.expected === 'run_completed' ? 'completed' : 'failed'} but no ${w.expected} reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time; a run reaching its terminal state emits it`,
            spec: S.runStatus,
          });
        } else {
          notJudged.push(`the ${w.label} emitted no terminal event (none is required of it)`);
        }
        return;
      }
      judged++;
      // A second emission of the same transition comes at about the same time; retries share the event_id.
      await settle(t);
      const all = rx.deliveries().filter(terminal);
      const events = distinctEvents(all);
      t.expect.that(events.length === 1, {
        message: `the ${w.label} ${w.runId} emitted ${events.length} terminal events (event_ids ${events.join(', ')}: ${all.map(describeDelivery).join('; ')}); run_completed and run_failed are emitted at most once per run`,
        spec: S.runStatus,
        expected: 1,
        received: events.length,
      });
      if (w.expected)
        t.expect.equal(
          eventOf(first),
          w.expected,
          `event for the ${w.label} ${w.runId}, which ended ${w.expected === 'run_completed' ? 'completed' : 'failed'}`,
          S.runStatus,
        );
    };

    const watches: Array<Promise<void>> = [];
    if (t.target.environment === 'sandbox') {
      // cert-webhook: "a run_completed webhook is queued at creation when a webhook is registered" (a
      // receiver is, for this check). cert-failed is created directly in failed: whether that "reaches"
      // failed and emits run_failed is not stated, so only "at most one" is asserted of it.
      watches.push(
        t.setup.fixtureRun('cert-webhook').then((run) =>
          watch({
            label: 'cert-webhook run',
            runId: run.runId,
            expected: 'run_completed',
            missingJudgedElsewhere: true,
          }),
        ),
      );
      watches.push(
        t.setup.fixtureRun('cert-failed').then((run) => watch({ label: 'cert-failed run', runId: run.runId })),
      );
    }
    watches.push(
      t.setup.realRun().then(async ({ run, final }) => {
        const status = obj(final.json)?.status;
        if (status !== 'completed' && status !== 'failed') {
          notJudged.push(
            `the real run ${run.runId} was still ${show(status ?? null)} when polling stopped (runs-read.real-run-ends-within-30-minutes judges that), so it tied no event to a final status`,
          );
          return;
        }
        await watch({
          label: 'real run',
          runId: run.runId,
          expected: status === 'completed' ? 'run_completed' : 'run_failed',
        });
      }),
    );
    await Promise.all(watches);
    if (t.signal.aborted) return;
    // Never a silent pass: with no run to judge, nothing was asserted.
    if (judged === 0) t.skip(`no run gave a terminal event to judge: ${notJudged.join('; ')}`, 'inconclusive');
  }),
};

/** The envelope, as the spec lists it, of one real delivery: problems found, as sentences. */
function envelopeProblems(d: ReceivedDelivery, want: { runId: string; job: string; org: string }): string[] {
  const body = obj(d.json);
  if (!body) return ['is not a JSON object'];
  const out: string[] = [];
  const missing = ENVELOPE_FIELDS.filter((f) => typeof body[f] !== 'string' || body[f] === '');
  if (missing.length > 0) out.push(`lacks envelope field(s) ${missing.join(', ')} as non-empty strings`);
  if (body.run_id !== want.runId) out.push(`has run_id ${show(body.run_id ?? null)}, not the run's ${want.runId}`);
  if (typeof body.job_external_id === 'string' && body.job_external_id !== want.job) {
    out.push(
      `has job_external_id ${show(body.job_external_id)}, not ${show(want.job)}, the job the run was started on`,
    );
  }
  if (
    want.org !== '' &&
    typeof body.organization_external_id === 'string' &&
    body.organization_external_id !== want.org
  ) {
    out.push(
      `has organization_external_id ${show(body.organization_external_id)}, not ${show(want.org)}, the external_id given at redemption`,
    );
  }
  const at = body.occurred_at;
  if (typeof at === 'string' && !isUtcDateTime(at))
    out.push(`has occurred_at ${show(at)}, not an ISO 8601 date-time in UTC`);
  if (!d.signature.valid) out.push(`does not verify: ${d.signature.reason ?? 'signature refused'}`);
  return out;
}

const showProgress = (p: unknown): string => show(p ?? null);

/**
 * run_completed carries `progress` "(same shape as in the run read)": the shape is the rule (fails). Its
 * values may be the run's progress when the event was emitted, so a difference from the final read only
 * warns, except where it contradicts what the fields mean: `target` is the run's target_count, and
 * `confirmed` and `screened` count "so far", so the event (at completion) cannot hold more than a read
 * made after the run completed.
 */
function judgeCompletedProgress(
  t: CheckContext,
  terminal: ReceivedDelivery,
  read: JsonObject | undefined,
  final: ApiResponse,
): void {
  const got = field(terminal, 'progress');
  const ok = t.expect.that(
    got !== undefined,
    {
      message: `${describeDelivery(terminal)} has no progress; run_completed carries progress, same shape as in the run read`,
      spec: S.events,
      received: terminal.json ?? null,
    },
    final,
  );
  if (!ok || !t.expect.schema(got, 'progress', S.events)) return;
  const mine = obj(got)!;
  const theirs = obj(read?.progress);
  if (!theirs) return; // the read's own shape is runs-read.run-schema's finding
  const keys = ['confirmed', 'target', 'screened'] as const;
  const at = (o: JsonObject, k: string): bigint | undefined => int(o[k]);
  const why = `${describeDelivery(terminal)} carries progress ${showProgress(mine)}, while the read that showed the run completed has ${showProgress(theirs)}`;
  const target = [at(mine, 'target'), at(theirs, 'target')];
  t.expect.that(
    target[0] === target[1],
    {
      message: `${why}; progress.target is the run's target_count in both`,
      spec: S.run,
      expected: String(target[1]),
      received: String(target[0]),
      pointer: '/progress/target',
    },
    final,
  );
  const above = (['confirmed', 'screened'] as const).filter((k) => {
    const [a, b] = [at(mine, k), at(theirs, k)];
    return a !== undefined && b !== undefined && a > b;
  });
  t.expect.that(
    above.length === 0,
    {
      message: `${why}: ${above.join(' and ')} of the event, emitted when the run completed, exceed the later read's; progress counts the candidates confirmed and examined so far, which cannot fall once the run completed`,
      spec: S.run,
      expected: `<= ${above.map((k) => `${k} ${String(at(theirs, k))}`).join(', ')}`,
      received: above.map((k) => `${k} ${String(at(mine, k))}`).join(', '),
    },
    final,
  );
  t.expect.warn(
    keys.every((k) => at(mine, k) === at(theirs, k)),
    {
      message: why,
      spec: S.events,
      expected: showProgress(theirs),
      received: showProgress(mine),
      reading: "run_completed carries the run's final progress, the values a read of the completed run shows",
      otherReading:
        'the Events table says only "same shape as in the run read": the values may be those of the moment the event was emitted, and webhooks are notifications, not state (delivery rule 6)',
    },
    final,
  );
}

const realRunDeliveriesValid: CheckDefinition = {
  id: 'webhooks.real-run-deliveries-valid',
  title:
    "The real run's run_completed/run_failed and candidate_revealed are signed over the bytes received, with the whole envelope, its job and organization, a UTC occurred_at (RFC 3339 form, else a warning), progress of the run read's shape (other values than the final read warn) and exact candidate ids",
  suite,
  evidence: 'input',
  warns: [
    'occurred_at timestamp is ISO 8601 in UTC but not in RFC 3339 form (20250101T100000Z)',
    "run_completed's progress differs from what a read of the completed run shows",
  ],
  spec: [S.events, S.runStatus, S.contactState, S.identifiers],
  needs: ['webhook-receiver', 'org'],
  timeoutMs: 32 * 60_000,
  run: withReceiver(async (t, rx) => {
    const [{ run, final }, job, org] = await Promise.all([t.setup.realRun(), t.setup.job(), t.setup.org()]);
    const read = obj(final.json);
    const status = read?.status;
    if (status !== 'completed' && status !== 'failed') {
      return t.skip(
        `the real run ${run.runId} was still running when polling stopped (30 minutes; the spec sets no duration for a run, and runs-read.real-run-ends-within-30-minutes judges it), so it emitted no terminal event to inspect`,
        'not-applicable',
      );
    }
    const runId = run.runId;
    const want = { runId, job: job.externalId, org: org.organizationExternalId };
    // One reveal of our own (free in the sandbox), the largest id: above 2^53 where the pool has one.
    let revealed: bigint | undefined;
    if (t.target.environment === 'sandbox') {
      const ids = objects(read?.candidates)
        .map((c) => int(c.id))
        .filter((x): x is bigint => x !== undefined);
      revealed = ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))[0];
      if (revealed !== undefined) {
        const user = await t.setup.user();
        const res = await t.api.post(
          `/runs/${encodeURIComponent(runId)}/candidates/${revealed}/reveal`,
          { acting_user_external_id: user.externalId },
          { label: `reveal ${revealed} of the real run` },
        );
        if (!t.expect.status(res, 200, S.reveal)) revealed = undefined;
      }
    }
    const expected = status === 'completed' ? 'run_completed' : 'run_failed';
    const isTerminal = (d: ReceivedDelivery) => runIdOf(d) === runId && TERMINAL.includes(eventOf(d) ?? '');
    const isMine = (d: ReceivedDelivery) =>
      runIdOf(d) === runId &&
      eventOf(d) === 'candidate_revealed' &&
      revealed !== undefined &&
      int(field(d, 'candidate_id')) === revealed;
    const [terminal, mine] = await Promise.all([
      rx.waitFor(isTerminal, expectWait(t, DELIVERY_SPEC_MS), t.signal),
      revealed === undefined
        ? Promise.resolve(undefined)
        : rx.waitFor(isMine, expectWait(t, DELIVERY_SPEC_MS), t.signal),
    ]);
    if (t.signal.aborted) return;
    if (
      !t.expect.that(
        terminal !== undefined,
        {
          message: `the real run ${runId} ended ${status} but no ${expected} reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time (see ${S.events})`,
          spec: S.runStatus,
        },
        final,
      )
    )
      return;
    if (revealed !== undefined) {
      t.expect.that(mine !== undefined, {
        message: `candidate ${revealed} of the real run ${runId} was revealed, but no candidate_revealed naming it reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time`,
        spec: S.contactState,
      });
    }
    t.expect.equal(
      eventOf(terminal!),
      expected,
      `event of ${describeDelivery(terminal!)} for the real run, which ended ${status}`,
      S.runStatus,
      final,
    );
    // Every delivery of this run the receiver got, ours and other checks' reveals alike.
    for (const d of rx.deliveries().filter((x) => runIdOf(x) === runId)) {
      for (const problem of envelopeProblems(d, want)) {
        t.expect.fail({ message: `${describeDelivery(d)} of the real run ${problem}`, spec: S.events });
      }
      warnUnlessRfc3339(t, field(d, 'occurred_at'), `occurred_at of ${describeDelivery(d)} of the real run`, S.general);
      if (eventOf(d) === 'candidate_revealed') {
        const id = int(field(d, 'candidate_id'));
        const exact =
          id !== undefined &&
          new RegExp(`"candidate_id"\\s*:\\s*${id.toString()}(?![\\d.eE])`).test(d.body.toString('utf8'));
        t.expect.that(exact, {
          message: `${describeDelivery(d)} carries candidate_id ${show(String(field(d, 'candidate_id') ?? null))} not written as the exact integer digits of a listed candidate; candidate_id is an int64`,
          spec: S.identifiers,
          received: d.body.toString('utf8').slice(0, 300),
        });
        if (id !== undefined && !objects(read?.candidates).some((c) => int(c.id) === id)) {
          t.expect.fail({
            message: `${describeDelivery(d)} names candidate ${id}, which the real run does not list; candidate_revealed names the revealed candidate of the run`,
            spec: S.contactState,
          });
        }
      }
    }
    if (eventOf(terminal!) === 'run_completed') judgeCompletedProgress(t, terminal!, read, final);
  }),
};

/** Locked candidates listed on `runId` (a fresh read), at most two; undefined when the read failed. */
async function lockedOn(
  t: CheckContext,
  runId: string,
  label: string,
  exclude: (id: bigint) => boolean = () => false,
): Promise<bigint[] | undefined> {
  const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
    label: `read the ${label} for locked candidates`,
  });
  if (!t.expect.status(read, 200, S.runsRead)) return undefined;
  return objects(obj(read.json)?.candidates)
    .flatMap((c) => {
      const id = int(c.id);
      return id !== undefined && c.contact_state === 'locked' && !exclude(id) ? [id] : [];
    })
    .slice(0, 2);
}

/**
 * A run and up to two of its candidates whose contact is still locked for the organization: only the
 * locked → revealed move names candidate_revealed (a repeat reveal names no event), and other checks
 * reveal fixture candidates (the same synthetic ids in every fixture run) for the same organization.
 * First the shared real run, whose candidates no other sandbox check reveals except those above 2^53
 * (reveal.candidate-id-above-2-53), so no reveal races ours; then a fresh cert-notices-all run; skips
 * when neither lists one.
 */
async function lockedToReveal(t: CheckContext, acting: string): Promise<{ runId: string; ids: bigint[] } | undefined> {
  // A used-up run quota skips the real run; the fixture run below is free of quota.
  const real = await t.setup.realRun().catch((e: unknown) => {
    if (e instanceof SkipCheck) return undefined;
    throw e;
  });
  if (real && objects(obj(real.final.json)?.candidates).length > 0) {
    const ids = await lockedOn(t, real.run.runId, 'shared real run', (id) => id > TWO_POW_53);
    if (ids === undefined) return undefined;
    if (ids.length > 0) return { runId: real.run.runId, ids };
  }
  const start = await t.setup.startRun(
    { job_external_id: 'cert-notices-all', acting_user_external_id: acting, target_count: 6 },
    { label: 'start a cert-notices-all run to reveal in' },
  );
  if (!t.expect.status(start, 202, S.runsStart)) return undefined;
  const runId = obj(start.json)?.run_id;
  if (typeof runId !== 'string') return void t.skip('the run start named no run_id', 'inconclusive');
  const ids = await lockedOn(t, runId, 'cert-notices-all run');
  if (ids === undefined) return undefined;
  if (ids.length === 0) {
    return void t.skip(
      `neither the shared real run nor a new cert-notices-all run (${runId}) lists a candidate with contact_state locked for this organization; only revealing a locked candidate names a candidate_revealed event`,
      'inconclusive',
    );
  }
  return { runId, ids };
}

const candidateRevealedOnce: CheckDefinition = {
  id: 'webhooks.candidate-revealed-once',
  title: 'candidate_revealed is emitted once per (run, candidate), even after repeated reveals',
  suite,
  evidence: 'input',
  spec: [S.contactState, S.sandbox, S.events],
  needs: [...sandboxHooks],
  timeoutMs: DELIVERY_SPEC_MS + SETTLE_SPEC_MS + 60_000,
  run: withReceiver(async (t, rx) => {
    const user = await t.setup.user();
    const source = await lockedToReveal(t, user.externalId);
    if (!source) return;
    const { runId, ids } = source;
    // The first candidate three times, the second once: one event each.
    const reveals = [ids[0]!, ids[0]!, ...ids.slice(1), ids[0]!];
    for (const id of reveals) {
      const res = await t.api.post(
        `/runs/${encodeURIComponent(runId)}/candidates/${id}/reveal`,
        { acting_user_external_id: user.externalId },
        { label: `reveal ${id}` },
      );
      if (!t.expect.status(res, 200, S.reveal)) return;
    }
    const of = (id: bigint) => (d: ReceivedDelivery) =>
      runIdOf(d) === runId && eventOf(d) === 'candidate_revealed' && int(field(d, 'candidate_id')) === id;
    const firsts = await Promise.all(ids.map((id) => rx.waitFor(of(id), expectWait(t, DELIVERY_SPEC_MS), t.signal)));
    if (t.signal.aborted) return;
    await settle(t);
    ids.forEach((id, i) => {
      const times = reveals.filter((r) => r === id).length;
      if (!firsts[i]) {
        t.expect.fail({
          message: `candidate ${id} of run ${runId} was revealed ${times}× but no candidate_revealed reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time; a reveal queues one`,
          spec: S.sandbox,
        });
        return;
      }
      const all = rx.deliveries().filter(of(id));
      const events = distinctEvents(all);
      t.expect.that(events.length === 1, {
        message: `candidate ${id} of run ${runId}, revealed ${times}×, produced ${events.length} candidate_revealed events (event_ids ${events.join(', ')}); it is emitted once per (run, candidate)`,
        spec: S.contactState,
        expected: 1,
        received: events.length,
      });
    });
  }),
};

const productionNoEnvironmentHeader: CheckDefinition = {
  id: 'webhooks.production-no-environment-header',
  title:
    "Production deliveries carry no x-svc-environment header: the real run's terminal event and any candidate_revealed of it",
  suite,
  evidence: 'input',
  warns: [
    'a production delivery carries x-svc-environment with a value other than sandbox (the header may be a response header only)',
  ],
  spec: [S.events, S.versioning],
  needs: ['production', 'webhook-receiver', 'org'],
  timeoutMs: 32 * 60_000,
  run: withReceiver(async (t, rx) => {
    const { run, final } = await t.setup.realRun();
    const status = obj(final.json)?.status;
    if (status !== 'completed' && status !== 'failed') {
      return t.skip(
        `the real run ${run.runId} was still running when polling stopped (30 minutes; the spec sets no duration for a run, and runs-read.real-run-ends-within-30-minutes judges it), so it emitted no terminal event to inspect`,
        'not-applicable',
      );
    }
    const ofRun = (d: ReceivedDelivery) => runIdOf(d) === run.runId;
    const terminal = await rx.waitFor(
      (d) => ofRun(d) && TERMINAL.includes(eventOf(d) ?? ''),
      expectWait(t, DELIVERY_SPEC_MS),
      t.signal,
    );
    if (t.signal.aborted) return;
    if (!terminal) {
      return t.skip(
        `no delivery of the real run ${run.runId} reached the receiver within ${specDuration(DELIVERY_SPEC_MS)} of spec time (webhooks.real-run-deliveries-valid judges that), so there was no production delivery to inspect`,
        'inconclusive',
      );
    }
    // Every delivery of the run so far: the terminal event, and candidate_revealed of production reveals.
    for (const d of rx.deliveries().filter(ofRun)) {
      const v = d.headers['x-svc-environment'];
      const claimsSandbox = v !== undefined && v.trim().toLowerCase() === 'sandbox';
      const noSandboxClaim = t.expect.that(!claimsSandbox, {
        message: `${describeDelivery(d)} of the real run carries x-svc-environment: ${v}, though the target is production; only sandbox deliveries carry it, and the header does not exist in production`,
        spec: S.events,
        expected: '(absent)',
        received: v ?? '(absent)',
      });
      if (!noSandboxClaim || v === undefined) continue;
      t.expect.warn(false, {
        message: `${describeDelivery(d)} of the real run carries x-svc-environment: ${v}`,
        spec: S.versioning,
        reading:
          'Versioning 4: the header x-svc-environment does not exist in production, and the Events section gives it to sandbox deliveries only',
        otherReading:
          'Versioning 4 names it a response header, and a delivery is a request the service sends; a value other than sandbox claims no sandbox',
        expected: '(absent)',
        received: v,
      });
    }
  }),
};

const testRequiresWebhook: CheckDefinition = {
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

const testInvalidBody: CheckDefinition = {
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

const retryScheduleWhole: CheckDefinition = {
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
  },
};

export const WEBHOOK_CHECKS: readonly CheckDefinition[] = [
  testEndpointAccepted,
  testDeliverySameEventId,
  testFixturePayload,
  envelopeComplete,
  occurredAtUtc,
  contentTypeJson,
  sandboxEnvironmentHeader,
  signatureVerifies,
  certWebhookRunCompleted,
  badSignatureFailsVerification,
  badSignatureNotRetried,
  retriedAfterFailure,
  retrySameEventId,
  retryScheduleWhole,
  redirectNotFollowed,
  lateAckRedelivered,
  eventIdUnique,
  runEventOncePerRun,
  realRunDeliveriesValid,
  candidateRevealedOnce,
  testRequiresWebhook,
  testInvalidBody,
  productionNoEnvironmentHeader,
];
