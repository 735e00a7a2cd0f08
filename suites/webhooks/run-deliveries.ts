// The deliveries of runs: cert-webhook's run_completed, the real run's terminal event (envelope and
// progress), and in production no x-svc-environment header on them.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { isUtcDateTime } from '../../src/schema/formats.js';
import type { ReceivedDelivery } from '../../src/webhook/receiver.js';
import { S } from '../../src/spec/sections.js';
import { int, obj, objects } from '../support/json-values.js';
import { firstIdAbove2Pow53 } from '../support/large-ids.js';
import { show } from '../support/messages.js';
import { warnUnlessRfc3339 } from '../support/timestamps.js';
import {
  DELIVERY_SPEC_MS,
  describeDelivery,
  eventOf,
  expectWait,
  field,
  runIdOf,
  specDuration,
} from '../support/webhook-deliveries.js';
import { ENVELOPE_FIELDS, sandboxHooks, suite, TERMINAL, TRIO_TIMEOUT, withReceiver } from './common.js';

export const certWebhookRunCompleted: CheckDefinition = {
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

/**
 * One reveal of our own (free in the sandbox), the largest id: above 2^53 where the pool has one. Not
 * the one reveal.candidate-id-above-2-53 spends (compared exactly): revealed first there, it would
 * name no event here. Undefined when none was revealed.
 */
async function revealOwn(
  t: CheckContext,
  runId: string,
  finalJson: ApiResponse['json'],
  read: JsonObject | undefined,
): Promise<bigint | undefined> {
  if (t.target.environment !== 'sandbox') return undefined;
  const spent = firstIdAbove2Pow53(finalJson);
  const ids = objects(read?.candidates)
    .map((c) => int(c.id))
    .filter((x): x is bigint => x !== undefined && x !== spent);
  const revealed = ids.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))[0];
  if (revealed === undefined) return undefined;
  const user = await t.setup.user();
  const res = await t.api.post(
    `/runs/${encodeURIComponent(runId)}/candidates/${revealed}/reveal`,
    { acting_user_external_id: user.externalId },
    { label: `reveal ${revealed} of the real run` },
  );
  return t.expect.status(res, 200, S.reveal) ? revealed : undefined;
}

/** One delivery of the real run: its envelope, its occurred_at, and a candidate_revealed's exact listed candidate id. */
function judgeRunDelivery(
  t: CheckContext,
  d: ReceivedDelivery,
  want: { runId: string; job: string; org: string },
  read: JsonObject | undefined,
): void {
  for (const problem of envelopeProblems(d, want)) {
    t.expect.fail({ message: `${describeDelivery(d)} of the real run ${problem}`, spec: S.events });
  }
  warnUnlessRfc3339(t, field(d, 'occurred_at'), `occurred_at of ${describeDelivery(d)} of the real run`, S.general);
  if (eventOf(d) !== 'candidate_revealed') return;
  const id = int(field(d, 'candidate_id'));
  const exact =
    id !== undefined && new RegExp(`"candidate_id"\\s*:\\s*${id.toString()}(?![\\d.eE])`).test(d.body.toString('utf8'));
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

export const realRunDeliveriesValid: CheckDefinition = {
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
    const revealed = await revealOwn(t, runId, final.json, read);
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
    for (const d of rx.deliveries().filter((x) => runIdOf(x) === runId)) judgeRunDelivery(t, d, want, read);
    if (eventOf(terminal!) === 'run_completed') judgeCompletedProgress(t, terminal!, read, final);
  }),
};

export const productionNoEnvironmentHeader: CheckDefinition = {
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
