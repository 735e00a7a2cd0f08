// Set-up is checked before anything is blamed: a webhook secret given while no webhook is registered
// for the partner, or a registered URL that does not reach the listener, is a set-up finding. Every
// check that waits on a delivery ends skipped (set-up) with a reason naming the readings and the fix;
// nothing fails, the verdict is incomplete and the set-up reason is the first thing it lists. The
// sandbox here is the embedded one at time scale 600 with its partner's registered URL changed
// behind the certification's back (certifySandbox's registeredWebhookUrl).

import { describe, expect, it } from 'vitest';
import { decideVerdict, describeMissing } from '../src/runner/verdict.js';
import type { RunResult } from '../src/runner/results.js';
import { WEBHOOK_CHECKS } from '../suites/webhooks/index.js';
import { certifySandbox, notPassed } from './support/certify-sandbox.js';
import { freePort } from './cli-support.js';

/** The checks that wait on a delivery in the sandbox: every webhook check but the opt-in, production and no-webhook ones. */
const DELIVERY_CHECKS = WEBHOOK_CHECKS.filter(
  (c) =>
    c.needs?.includes('webhook-receiver') &&
    !c.needs.includes('production') &&
    c.id !== 'webhooks.retry-schedule-whole' &&
    c.id !== 'webhooks.test-invalid-body-422',
).map((c) => c.id);

function setUpSkips(run: RunResult): string[] {
  return run.checks.filter((c) => c.status === 'skipped' && c.skipKind === 'set-up').map((c) => c.id);
}

describe('the webhook set-up is proven before a delivery check may blame the target', () => {
  it('no webhook registered, not announced: 0 failed, every delivery check skipped (set-up) naming the 409 and the fix, incomplete', async () => {
    const run = await certifySandbox({ ids: DELIVERY_CHECKS, registeredWebhookUrl: null });
    expect(
      run.checks.filter((c) => c.status === 'failed' || c.status === 'error'),
      notPassed(run).join('\n'),
    ).toEqual([]);
    expect(setUpSkips(run).sort()).toEqual([...DELIVERY_CHECKS].sort());
    const first = run.checks.find((c) => c.skipKind === 'set-up')!;
    expect(first.message).toMatch(/^set-up: POST \/sandbox\/webhooks\/test answered 409 webhook_not_configured/);
    expect(first.message).toMatch(
      /register .* for the partner, or, if none is to be registered, pass --webhook-not-registered/,
    );
    const { verdict, missing } = decideVerdict(run, false);
    expect(verdict).toBe('incomplete');
    expect(missing[0]?.kind).toBe('set-up');
    expect(describeMissing(missing[0]!)).toMatch(
      /^set-up, \d+ checks not run: set-up: POST \/sandbox\/webhooks\/test answered 409/,
    );
  });

  it('a registered URL that does not reach the listener: 0 failed, skipped (set-up) naming the URL or tunnel and the queue, found within the delivery deadline', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/nobody-listens`;
    const run = await certifySandbox({ ids: DELIVERY_CHECKS, registeredWebhookUrl: dead });
    expect(
      run.checks.filter((c) => c.status === 'failed' || c.status === 'error'),
      notPassed(run).join('\n'),
    ).toEqual([]);
    expect(setUpSkips(run).sort()).toEqual([...DELIVERY_CHECKS].sort());
    const reason = run.checks.find((c) => c.skipKind === 'set-up')!.message;
    expect(reason).toMatch(/^set-up: no test event reached the listener within \d+ s/);
    expect(reason).toMatch(/the registered URL does not reach the listener \(a tunnel or ingress down/);
    expect(reason).toMatch(/or the target's webhook queue is not sending/);
    expect(decideVerdict(run, false).verdict).toBe('incomplete');
    // The proof waits as long as a delivery check would (ten spec-minutes: 1 s at time scale 600, raised
    // to the 10 s floor a busy machine needs): "usually within a minute" is no promise, so a slower
    // conformant queue is never taken for a broken set-up.
    expect(reason).toMatch(/within 10 s \(10 minutes of spec time at time scale 600; the spec: test deliveries go out/);
  });

  it('the set-up registered as the certification says: the proof passes and every delivery check runs', async () => {
    const run = await certifySandbox({ ids: DELIVERY_CHECKS });
    expect(setUpSkips(run)).toEqual([]);
    expect(
      run.checks.filter((c) => c.status === 'failed' || c.status === 'error'),
      notPassed(run).join('\n'),
    ).toEqual([]);
  });
});

describe('an operator code the target refuses as unusable is a set-up finding', () => {
  it("the organization's code unknown to the target (404 code_not_found): the checks needing it skip (set-up) naming the fix, none fails", async () => {
    // Checks that need only the certification's organization: its code is the first one given.
    const ids = ['webhooks.test-endpoint-accepted', 'webhooks.envelope-complete'];
    const run = await certifySandbox({
      ids,
      adjust: (config) => ({ ...config, activationCodes: ['SVC-2222-2222', ...config.activationCodes.slice(1)] }),
    });
    expect(
      run.checks.filter((c) => c.status === 'failed' || c.status === 'error'),
      notPassed(run).join('\n'),
    ).toEqual([]);
    expect(setUpSkips(run).sort()).toEqual([...ids].sort());
    expect(run.checks[0]!.message).toMatch(
      /^set-up: the activation code SVC-2222… given for the certification's organization was refused with 404 code_not_found: the target does not know it .*give an unused code/,
    );
    expect(decideVerdict(run, false).verdict).toBe('incomplete');
  });
});
