// Partner isolation: a second partner's key with the first partner's org token. The
// embedded sandbox provisions the second partner, so a plain run judges it; without the key the check
// asks for it; a sandbox that accepts any partner's key with any org token fails it on the data it
// hands out (a run start it accepts is only a warning: the spec binds the organization, not the token).

import { describe, expect, it } from 'vitest';
import { certifySandbox, resultOf } from './support/certify-sandbox.js';

const ID = 'auth.other-partner-key-isolated';

describe(ID, () => {
  it('passes the clean sandbox, whose second partner is provisioned by the embedded run', async () => {
    const r = resultOf(await certifySandbox({ ids: [ID] }), ID);
    expect(r.status, r.message).toBe('passed');
  });

  it('skips as needs-input, unlocked by --other-partner-key, without a second key', async () => {
    const r = resultOf(
      await certifySandbox({
        ids: [ID],
        rateLimit: 6000,
        adjust: ({ otherPartnerKey: _dropped, ...config }) => config,
      }),
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
