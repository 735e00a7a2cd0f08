// Partner isolation (issue 18 §1): a second partner's key with the first partner's org token. The
// embedded sandbox provisions the second partner, so a plain run judges it; without the key the check
// asks for it; a sandbox that accepts any partner's key with any org token fails it on the data it
// hands out (a run start it accepts is only a warning: the spec binds the organization, not the token).

import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../src/embedded/embedded-target.js';
import { certify } from '../src/runner/certify.js';
import { ALL_CHECKS, SUITE_ORDER } from '../suites/index.js';
import { certifySandbox, resultOf } from './support/certify-sandbox.js';
import type { Config } from '../src/config/config.js';

const ID = 'auth.other-partner-key-isolated';
const CHECK = ALL_CHECKS.filter((c) => c.id === ID);

const BASE: Config = {
  activationCodes: [],
  environment: 'auto',
  maxSpendCredits: 0,
  timeScale: 600,
  rateLimit: 6000,
  reportDir: '/nonexistent-not-written',
  reporters: [],
  suites: [],
  strict: false,
  exhaustLimits: false,
};

let target: EmbeddedTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

describe(ID, () => {
  it('passes the clean sandbox, whose second partner is provisioned by the embedded run', async () => {
    const r = resultOf(await certifySandbox({ ids: [ID] }), ID);
    expect(r.status, r.message).toBe('passed');
  });

  it('skips as needs-input, unlocked by --other-partner-key, without a second key', async () => {
    target = await startEmbeddedTarget(BASE, { timeScale: 600, rateLimit: 6000 });
    const { otherPartnerKey: _dropped, ...config } = target.config;
    const r = resultOf(
      await certify({ config, checks: CHECK, suiteOrder: SUITE_ORDER, embedded: true, webhooks: target.webhooks }),
      ID,
    );
    expect([r.status, r.skipKind, r.unlock]).toEqual(['skipped', 'needs-input', '--other-partner-key']);
    expect(r.message).toContain('SVC_OTHER_PARTNER_KEY');
  });

  it("fails a sandbox that serves the first organization's run and contacts to any partner, and warns on the run start", async () => {
    const r = resultOf(await certifySandbox({ ids: [ID], faults: ['auth.org-token-any-partner'] }), ID);
    expect(r.status).toBe('failed');
    const failures = r.observations.filter((o) => o.severity !== 'warning').map((o) => o.message);
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatch(/^reading the first partner's run .* answered 200 with the first organization's data/);
    expect(failures[1]).toMatch(
      /^revealing a candidate of the first partner's run .* answered 200 with the first organization's data/,
    );
    const warnings = r.observations.filter((o) => o.severity === 'warning').map((o) => o.message);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^starting a run in the first partner's organization .* answered 202 .*read as: the org token identifies an organization/,
      ),
    ]);
  });

  it.each(['auth.other-partner-token-403', 'auth.other-partner-token-404'])(
    'accepts the refusal of variant %s',
    async (variant) => {
      const r = resultOf(await certifySandbox({ ids: [ID], variants: [variant] }), ID);
      expect(r.status, r.message).toBe('passed');
    },
  );
});
