// The three sandbox test events (the shared trio): one delivery of each, its envelope, payload,
// headers and signature.

import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { EvidenceDeclaration } from '../../src/runner/evidence.js';
import type { SpecSection } from '../../src/spec/section-names.js';
import { isUtcDateTime } from '../../src/schema/formats.js';
import type { ReceivedDelivery } from '../../src/webhook/receiver.js';
import { S } from '../../src/spec/sections.js';
import { int, obj } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { warnUnlessRfc3339 } from '../support/timestamps.js';
import {
  describeDelivery,
  eventIdOf,
  eventOf,
  expectWait,
  field,
  runIdOf,
  trioDeliveries,
} from '../support/webhook-deliveries.js';
import { ENVELOPE_FIELDS, sandboxHooks, suite, TRIO_TIMEOUT, withReceiver } from './common.js';
import { checkHeadOf } from '../support/check-row.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FIXTURE_CANDIDATE = 990000000001n;

/** Test deliveries go out "usually within a minute" (POST /sandbox/webhooks/test). */
const USUAL_DELIVERY_SPEC_MS = 60_000;

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
    ...checkHeadOf(suite, row),
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
export function distinctEvents(ds: readonly ReceivedDelivery[]): string[] {
  return [...new Set(ds.map((d) => eventIdOf(d) ?? `#${d.seq}`))];
}

export const testDeliverySameEventId = trioCheck({
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
    // The minute in real time, with the floor of every wait for a delivery (expectWait): at a high time
    // scale a minute is a few ms, less than a busy machine holds a delivery (2 cores at load 18: 3.9 to
    // 5.4 s, a warning in 4 runs of 6 at time scale 60 under a 3 s floor), and timing the spec does not
    // bound must not change the outcome of the same build on the same target.
    t.expect.warn(
      afterMs <= expectWait(t, USUAL_DELIVERY_SPEC_MS),
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

export const testFixturePayload = trioCheck({
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

export const envelopeComplete = trioCheck({
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

export const occurredAtUtc = trioCheck({
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

export const contentTypeJson = trioCheck({
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

export const sandboxEnvironmentHeader = trioCheck({
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

export const signatureVerifies = trioCheck({
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
