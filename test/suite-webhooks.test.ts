// The webhooks suite against the embedded sandbox (time scale 600: a one-minute retry takes 0.1 s):
// every check passes on a clean sandbox, and without a receiver the checks are skipped naming the
// flag. That each webhook fault fails its check is the fault matrix's (test/fault-matrix.test.ts).

import { describe, expect, it } from 'vitest';
import type { RunResult } from '../src/runner/results.js';
import { WEBHOOK_CHECKS } from '../suites/webhooks/index.js';
import { decideVerdict } from '../src/runner/verdict.js';
import { certifySandbox, resultOf } from './support/certify-sandbox.js';

const MY_IDS = WEBHOOK_CHECKS.map((c) => c.id);
const NO_WEBHOOK = WEBHOOK_CHECKS.filter((c) => c.needs?.includes('no-webhook-registered')).map((c) => c.id);
/** Production-only checks: certified against a production-mode sandbox, declared production. */
const PRODUCTION_IDS = WEBHOOK_CHECKS.filter((c) => c.needs?.includes('production')).map((c) => c.id);
const PRODUCTION = { mode: 'production' as const, flags: { environment: 'production' } };
/** Opt-in (about 8 h of spec time): judged only with --watch-retries, at a time scale that makes it seconds. */
const WATCH_RETRIES = 'webhooks.retry-schedule-whole';
const WATCHING = { flags: { watchRetries: true }, timeScale: 4000 };
const WITH_WEBHOOK = MY_IDS.filter(
  (id) => !NO_WEBHOOK.includes(id) && !PRODUCTION_IDS.includes(id) && id !== WATCH_RETRIES,
);
/** The checks that read the shared webhook trio. */
const TRIO_READERS = [
  'webhooks.test-endpoint-accepted',
  'webhooks.test-delivery-same-event-id',
  'webhooks.test-fixture-payload',
  'webhooks.envelope-complete',
  'webhooks.occurred-at-utc',
  'webhooks.content-type-json',
  'webhooks.sandbox-environment-header',
  'webhooks.signature-verifies',
  'webhooks.event-id-unique',
];

function statuses(run: RunResult): Record<string, string> {
  return Object.fromEntries(
    run.checks.map((c) => [c.id, c.status === 'passed' ? 'passed' : `${c.status}: ${c.message ?? ''}`]),
  );
}

describe('webhooks suite', () => {
  it('passes every check against the clean sandbox', async () => {
    const run = await certifySandbox({ ids: WITH_WEBHOOK });
    expect(statuses(run)).toEqual(Object.fromEntries(WITH_WEBHOOK.map((id) => [id, 'passed'])));
    // The trio is a shared setup step: every check that reads it carries its three exchanges, the
    // checks that await it after the first included (they all start at once; one sends it).
    const trio = (id: string) =>
      resultOf(run, id)
        .exchanges.filter((e) => e.label?.startsWith('setup: webhook trio'))
        .map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response?.status ?? 0}`);
    const sent = [
      'POST /v1/sandbox/webhooks/test 202',
      'POST /v1/sandbox/webhooks/test 202',
      'POST /v1/sandbox/webhooks/test 202',
    ];
    for (const id of TRIO_READERS) expect(trio(id), id).toEqual(sent);
    // One trio for the whole certification: the same answers (each names a fresh event_id) in every check.
    const answers = (id: string) =>
      resultOf(run, id)
        .exchanges.filter((e) => e.label?.startsWith('setup: webhook trio'))
        .map((e) => e.response?.body);
    for (const id of TRIO_READERS) expect(answers(id), id).toEqual(answers(TRIO_READERS[0]!));
    expect(new Set(answers(TRIO_READERS[0]!)).size).toBe(3);
  });

  it('passes every production check against a production-mode sandbox, where the sandbox checks skip', async () => {
    const run = await certifySandbox({
      ...PRODUCTION,
      ids: [...PRODUCTION_IDS, 'webhooks.sandbox-environment-header'],
    });
    for (const id of PRODUCTION_IDS) expect(statuses(run)[id], id).toBe('passed');
    expect(resultOf(run, 'webhooks.sandbox-environment-header').message).toMatch(/applies to the sandbox only/);
  });

  it('with no webhook registered, the 409 check passes and the others are skipped', async () => {
    const run = await certifySandbox({ ids: MY_IDS, noWebhook: true });
    for (const id of NO_WEBHOOK) expect(statuses(run)[id]).toBe('passed');
    for (const id of WITH_WEBHOOK)
      expect(resultOf(run, id)).toMatchObject({ status: 'skipped', message: expect.stringMatching(/webhook-secret/) });
  });

  it('skips the 409 check as not applicable while deliveries reach the receiver (a webhook is registered)', async () => {
    const run = await certifySandbox({ ids: NO_WEBHOOK });
    for (const id of NO_WEBHOOK) {
      expect(resultOf(run, id)).toMatchObject({
        status: 'skipped',
        skipKind: 'not-applicable',
        message: expect.stringMatching(/one is \(deliveries reach the receiver\)/),
      });
    }
  });

  it('run-event-once-per-run never passes without judging a run: skipped, naming why, when no run ends', async () => {
    // Production mode (no fixtures) and a real run that reads running to the end: no run to judge.
    const id = 'webhooks.run-event-once-per-run';
    const run = await certifySandbox({
      mode: 'production',
      faults: ['runs-read.real-run-never-ends'],
      ids: [id],
      flags: { environment: 'production' },
    });
    // A run may stay running past 30 minutes (the spec sets no duration): not applicable, not incomplete.
    expect(resultOf(run, id)).toMatchObject({
      status: 'skipped',
      skipKind: 'not-applicable',
      message: expect.stringMatching(/no run gave a terminal event to judge: the real run .* was still "running"/),
    });
  });

  it('watches the whole retry schedule only with --watch-retries: otherwise not applicable, so the verdict stays complete', async () => {
    const off = await certifySandbox({ ids: [WATCH_RETRIES, 'webhooks.test-endpoint-accepted'] });
    expect(resultOf(off, WATCH_RETRIES)).toMatchObject({
      status: 'skipped',
      skipKind: 'not-applicable',
      message: expect.stringMatching(/^opt-in: --watch-retries/),
    });
    expect(decideVerdict(off, false).missing).toEqual([]);
    // The clean sandbox makes 8 attempts in all, each after its wait: passed, no warning.
    const on = await certifySandbox({ ids: [WATCH_RETRIES], ...WATCHING });
    expect(resultOf(on, WATCH_RETRIES).status, resultOf(on, WATCH_RETRIES).message).toBe('passed');
  });
});
