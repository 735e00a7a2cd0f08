// The shared setup's bookkeeping without a server: a scripted client factory stands in for the HTTP
// engine and a scripted receiver for the webhook receiver. What matters here is who gets which
// exchanges (every check that awaits a step, not only the first) and what counts as a real run.

import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse, RequestSpec } from '../http/types.js';
import type { JsonValue } from '../json/lossless.js';
import type { ReceivedDelivery, WebhookReceiver } from '../webhook/receiver.js';
import { planActivationCodes } from './code-plan.js';
import type { RecordedExchange } from '../runner/results.js';
import type { ClientFactory } from '../runner/client-factory.js';
import { SharedSetupCore } from './shared-setup.js';
import { TEST_PATH } from './webhook-trio.js';

type Answer = (spec: RequestSpec) => { status: number; json?: unknown };

/** A client factory whose every request is answered by `answer` and recorded like the engine does. */
function scriptedEngine(answer: Answer): ClientFactory & { sent: RequestSpec[] } {
  const sent: RequestSpec[] = [];
  return {
    sent,
    client(record, opts): ApiClient {
      const request = async (spec: RequestSpec): Promise<ApiResponse> => {
        sent.push(spec);
        const { status, json: value } = answer(spec);
        const json = value as JsonValue | undefined;
        const text = json === undefined ? '' : JSON.stringify(json);
        const exchange: RecordedExchange = {
          label: [opts?.labelPrefix, spec.label].filter((s) => s !== undefined && s !== '').join(': '),
          startedAt: new Date().toISOString(),
          durationMs: 1,
          request: {
            method: spec.method,
            url: `http://127.0.0.1:9/v1${spec.path}`,
            headers: {},
            body: JSON.stringify(spec.body ?? null),
          },
          response: { status, headers: {}, body: text },
          curl: 'curl …',
        };
        record(exchange);
        return { status, headers: {}, text, json, exchange };
      };
      return {
        request,
        get: (path, o) => request({ ...o, method: 'GET', path }),
        post: (path, body, o) => request({ ...o, method: 'POST', path, body }),
      };
    },
  };
}

function delivery(json: JsonValue): ReceivedDelivery {
  return {
    seq: 1,
    receivedAt: Date.now(),
    method: 'POST',
    path: '/hook',
    headers: {},
    body: Buffer.from(JSON.stringify(json)),
    json,
    signature: { header: undefined, valid: true },
    answeredStatus: 200,
  };
}

/** Delivers every test event at once: waitFor finds a delivery naming the awaited run. */
function scriptedReceiver(runIds: string[]): WebhookReceiver {
  return {
    url: 'http://127.0.0.1:9/hook',
    deliveries: () => runIds.map((runId) => delivery({ run_id: runId })),
    waitFor: async (predicate) => runIds.map((runId) => delivery({ run_id: runId })).find(predicate),
    planResponse: () => () => undefined,
    close: async () => undefined,
  };
}

function core(engine: ClientFactory, receiver?: WebhookReceiver): SharedSetupCore {
  return new SharedSetupCore({
    engine,
    baseUrl: 'http://127.0.0.1:9/v1',
    orgToken: `sot_${'cd'.repeat(24)}`,
    codes: planActivationCodes({ codes: [], hasOrgToken: true, wanted: [] }),
    onSecret: () => undefined,
    timeScale: 600,
    ...(receiver ? { receiver } : {}),
    signal: new AbortController().signal,
  });
}

const checkApi = (engine: ClientFactory, into: RecordedExchange[]): ApiClient => engine.client((ex) => into.push(ex));

/** The webhook path of a certification whose receiver gets nothing, as one check awaits it. */
function pathWithoutDeliveries(engine: ClientFactory): Promise<void> {
  return core(engine, scriptedReceiver([]))
    .forCheck(() => undefined, [], checkApi(engine, []))
    .webhookPath();
}

describe('the webhook trio as a shared setup step', () => {
  it('is sent once, and every check that awaits it carries its three exchanges', async () => {
    let n = 0;
    const engine = scriptedEngine((spec) => {
      n += 1;
      const event = (spec.body as { event: string }).event;
      return { status: 202, json: { event_id: `evt-${n}`, event, run_id: `run-${n}`, valid_signature: true } };
    });
    const setup = core(engine, scriptedReceiver(['run-1', 'run-2', 'run-3']));
    const first: RecordedExchange[] = [];
    const second: RecordedExchange[] = [];
    const viewOf = (into: RecordedExchange[]) =>
      setup.forCheck((list) => into.push(...list), [], checkApi(engine, into));

    const [a, b] = await Promise.all([viewOf(first).webhookTrio(), viewOf(second).webhookTrio()]);
    expect(a).toBe(b);
    expect(a.map((e) => [e.event, e.delivery?.json])).toEqual([
      ['run_completed', { run_id: 'run-1' }],
      ['run_failed', { run_id: 'run-2' }],
      ['candidate_revealed', { run_id: 'run-3' }],
    ]);
    expect(engine.sent.filter((s) => s.path === TEST_PATH)).toHaveLength(3);
    const trioLabels = [
      'setup: webhook trio: test run_completed',
      'setup: webhook trio: test run_failed',
      'setup: webhook trio: test candidate_revealed',
    ];
    expect(first.map((ex) => ex.label)).toEqual(trioLabels);
    // The second check to await it, after the trio was done, gets the very same records.
    expect(second.map((ex) => ex.label)).toEqual(trioLabels);
    const third: RecordedExchange[] = [];
    await viewOf(third).webhookTrio();
    expect(third).toEqual(first);
    expect(third[0]).toBe(a[0]!.res.exchange);
    expect(engine.sent.filter((s) => s.path === TEST_PATH)).toHaveLength(3);
  });

  it('records an event the receiver never got without a delivery, and a non-202 as it came', async () => {
    // run_completed's delivery proves the path; candidate_revealed's never comes (the checks' finding).
    const engine = scriptedEngine((spec) => {
      const event = (spec.body as { event: string }).event;
      if (event === 'run_failed') return { status: 500, json: { error: 'internal_error', message: 'boom' } };
      return { status: 202, json: { event_id: `evt-${event}`, run_id: `run-${event}` } };
    });
    const setup = core(engine, scriptedReceiver(['run-run_completed']));
    const trio = await setup.forCheck(() => undefined, [], checkApi(engine, [])).webhookTrio();
    expect(trio.map((e) => [e.event, e.res.status, e.delivery?.json])).toEqual([
      ['run_completed', 202, { run_id: 'run-run_completed' }],
      ['run_failed', 500, undefined],
      ['candidate_revealed', 202, undefined],
    ]);
  });

  it('a set-up mistake skips (set-up) instead of failing: 409 webhook_not_configured, or no delivery at all within the delivery deadline', async () => {
    const refused = scriptedEngine(() => ({
      status: 409,
      json: { error: 'webhook_not_configured', message: 'No webhook is configured for the partner.' },
    }));
    const notRegistered = pathWithoutDeliveries(refused);
    await expect(notRegistered).rejects.toMatchObject({ name: 'SkipCheck', kind: 'set-up' });
    await expect(notRegistered).rejects.toThrow(
      /^set-up: POST \/sandbox\/webhooks\/test answered 409 webhook_not_configured/,
    );

    const accepted = scriptedEngine(() => ({ status: 202, json: { event_id: 'evt', run_id: 'run-never' } }));
    const never = pathWithoutDeliveries(accepted);
    await expect(never).rejects.toMatchObject({ name: 'SkipCheck', kind: 'set-up' });
    await expect(never).rejects.toThrow(/^set-up: no test event reached the listener within 10 s/);
  });

  it('skips a check without a receiver', async () => {
    const engine = scriptedEngine(() => ({ status: 202, json: {} }));
    await expect(
      core(engine)
        .forCheck(() => undefined, [], checkApi(engine, []))
        .webhookTrio(),
    ).rejects.toThrow(/needs a webhook receiver: --webhook-secret/);
    expect(engine.sent).toEqual([]);
  });
});

describe('real runs, counted where they are started', () => {
  const started = (spec: RequestSpec) => {
    const body = spec.body as { job_external_id?: string };
    if (body.job_external_id === 'refused')
      return { status: 422, json: { error: 'requirements_rejected', message: 'no', rejected: [] } };
    if (body.job_external_id === 'no-run-id') return { status: 202, json: {} };
    return { status: 202, json: { run_id: 'run-1', status: 'queued' } };
  };

  it('counts a 2xx naming a run_id; not a refusal, not a sandbox fixture; the check records the start', async () => {
    const engine = scriptedEngine(started);
    const setup = core(engine);
    setup.replan(planActivationCodes({ codes: [], hasOrgToken: true, wanted: [] }), 'sandbox');
    const own: RecordedExchange[] = [];
    const attached: RecordedExchange[] = [];
    const view = setup.forCheck((list) => attached.push(...list), [], checkApi(engine, own));
    for (const job of ['svc-certify-job-1', 'refused', 'no-run-id', 'cert-empty', 'svc-certify-job-2']) {
      await view.startRun(
        { job_external_id: job, acting_user_external_id: 'u', target_count: 1 },
        { label: `start ${job}` },
      );
    }
    expect(setup.realRunCount()).toBe(2);
    expect(own.map((ex) => ex.label)).toEqual([
      'start svc-certify-job-1',
      'start refused',
      'start no-run-id',
      'start cert-empty',
      'start svc-certify-job-2',
    ]);
    expect(attached).toEqual([]);
  });

  it('counts a cert-* job in production, where it is a job like any other', async () => {
    const engine = scriptedEngine(started);
    const setup = core(engine);
    setup.replan(planActivationCodes({ codes: [], hasOrgToken: true, wanted: [] }), 'production');
    await setup
      .forCheck(() => undefined, [], checkApi(engine, []))
      .startRun({ job_external_id: 'cert-empty', acting_user_external_id: 'u', target_count: 1 });
    expect(setup.realRunCount()).toBe(1);
  });
});
