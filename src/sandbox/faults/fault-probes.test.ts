import { describe, expect, it } from 'vitest';
import { harness, type Harness } from '../testing.js';
import { FAULTS } from './index.js';

type Probe = (h: Harness) => Promise<unknown>;

const dec = (h: Harness, run: string, decisions: unknown[]) =>
  h.call('POST', `/runs/${run}/decisions`, { acting_user_external_id: 'rec-1', decisions });
const fixture = async (h: Harness, name: string, target = 3) =>
  (await h.startRun({ job_external_id: name, target_count: target })).json.run_id as string;
const redeem = (h: Harness, code: string, externalId: string) =>
  h.callAs(undefined, 'POST', '/activations/redeem', { code, external_id: externalId });
const issues = (r: { json: { rejected?: Array<{ index: number; code: string }> } }) =>
  r.json.rejected?.map((i) => `${i.index}:${i.code}`);
const A = { candidate_id: 990000000001, decision: 'shortlisted', occurred_at: '2025-01-01T10:00:00Z' };

/** What each fault changes, observed through the API only. */
const PROBES: Record<string, Probe> = {
  'conventions.content-type-without-charset': async (h) => (await h.call('GET', '/runs/x')).headers['content-type'],
  'conventions.json-byte-order-mark': async (h) =>
    (await h.app.request({ method: 'GET', path: '/v1/runs/x', headers: {} })).body.subarray(0, 3).toString('hex'),
  'conventions.timestamp-not-utc': async (h) => {
    const code = h.app.operator.createActivationCode(h.partnerId);
    await redeem(h, code, 'o1');
    return /Z$/.test((await redeem(h, code, 'o2')).json.redeemed_at);
  },
  'conventions.malformed-json-500': async (h) => (await h.call('POST', '/users', '{')).status,
  'conventions.message-not-localized': async (h) => (await h.call('GET', '/runs/x')).json.message,
  'auth.unknown-key-wrong-code': async (h) =>
    (
      await h.app.request({ method: 'GET', path: '/v1/runs/x', headers: { 'x-partner-key': 'spk_live_x' } })
    ).body.toString(),
  'auth.missing-org-token-403': async (h) => (await h.callAs(undefined, 'GET', '/runs/x')).status,
  'auth.disabled-organization-served': async (h) => {
    h.app.operator.setOrganizationEnabled(h.orgId, false);
    return (await h.call('GET', '/runs/x')).status;
  },
  'auth.org-token-any-partner': async (h) => {
    // A second, enabled partner's key with the first partner's org token.
    const other = h.app.operator.createPartner({ name: 'Other Partner' });
    const res = await h.app.request({
      method: 'GET',
      path: '/v1/runs/x',
      headers: { 'x-partner-key': other.partnerKey, 'x-svc-org': h.orgToken },
    });
    return res.status;
  },
  'auth.disabled-partner-401': async (h) => {
    h.app.operator.setPartnerEnabled(h.partnerId, false);
    return (await h.call('GET', '/runs/x')).status;
  },
  'activation.no-normalization': async (h) => {
    const code = h.app.operator.createActivationCode(h.partnerId);
    return (await redeem(h, code.toLowerCase().replace(/-/g, ' '), 'o1')).status;
  },
  'activation.code-reusable': async (h) => {
    const code = h.app.operator.createActivationCode(h.partnerId);
    await redeem(h, code, 'o1');
    return (await redeem(h, code, 'o2')).status;
  },
  'activation.external-id-taken-burns-code': async (h) => {
    const code = h.app.operator.createActivationCode(h.partnerId);
    await redeem(h, code, 'org-main');
    return (await redeem(h, code, 'o2')).status;
  },
  'activation.redeemed-at-missing': async (h) => {
    const code = h.app.operator.createActivationCode(h.partnerId);
    await redeem(h, code, 'o1');
    return 'redeemed_at' in (await redeem(h, code, 'o2')).json;
  },
  'users.repeat-created-true': async (h) => (await h.call('POST', '/users', { external_id: 'rec-1' })).json.created,
  'jobs.rejection-stores-job': async (h) => {
    await h.call('POST', '/jobs', { external_id: 'j-bad', title: 'T' });
    return (await h.startRun({ job_external_id: 'j-bad' })).status;
  },
  'jobs.repeat-new-job-id': async (h) => {
    const job = { external_id: 'j2', title: 'T', description_text: 'D', location_text: 'L' };
    return (await h.call('POST', '/jobs', job)).json.job_id === (await h.call('POST', '/jobs', job)).json.job_id;
  },
  'runs-start.no-whitespace-collapse': async (h) =>
    (await h.startRun({ job_external_id: 'job-1', requirements: [{ text: ' a   b ', kind: 'nice' }] })).json
      .requirements[0].text,
  'runs-start.drops-requirement': async (h) =>
    (await h.startRun({ job_external_id: 'job-1', requirements: [{ text: 'Rust', kind: 'nice' }] })).json.requirements
      .length,
  'runs-start.issue-index-one-based': async (h) =>
    issues(await h.startRun({ job_external_id: 'job-1', requirements: [{ text: '', kind: 'nice' }] })),
  'runs-start.not-array-index-zero': async (h) =>
    issues(await h.startRun({ job_external_id: 'job-1', requirements: 'x' })),
  'runs-start.too-many-musts-on-first': async (h) =>
    issues(
      await h.startRun({
        job_external_id: 'job-1',
        requirements: ['A1x', 'B2x', 'C3x'].map((text) => ({ text, kind: 'must' })),
      }),
    ),
  'runs-start.too-long-at-300': async (h) =>
    (await h.startRun({ job_external_id: 'job-1', requirements: [{ text: 'a'.repeat(300), kind: 'nice' }] })).status,
  'runs-start.title-not-appended': async (h) =>
    (await h.startRun({ job_external_id: 'job-1', requirements: [] })).json.requirements.length,
  'runs-start.duplicate-case-sensitive': async (h) =>
    (
      await h.startRun({
        job_external_id: 'job-1',
        requirements: [
          { text: 'Java', kind: 'nice' },
          { text: 'JAVA', kind: 'nice' },
        ],
      })
    ).status,
  'runs-read.candidate-id-string': async (h) =>
    (await h.call('GET', `/runs/${await fixture(h, 'cert-webhook')}`)).text.match(/"id":[^,]+/)?.[0],
  'runs-read.candidate-id-float': async (h) =>
    (await h.call('GET', `/runs/${await fixture(h, 'cert-webhook')}`)).text.match(/"id":[^,]+/)?.[0],
  'runs-read.more-than-target': async (h) =>
    (await h.call('GET', `/runs/${await fixture(h, 'cert-webhook', 2)}`)).json.candidates.length,
  'runs-read.notice-without-ref': async (h) =>
    (await h.call('GET', `/runs/${await fixture(h, 'cert-notices-all')}`)).json.notices.filter(
      (n: { ref?: unknown }) => n.ref,
    ).length,
  'runs-read.other-org-403': async (h) => {
    const run = await fixture(h, 'cert-empty');
    const other = h.app.operator.connectOrganization(h.partnerId, 'other');
    return (await h.callAs(other.orgToken, 'GET', `/runs/${run}`)).status;
  },
  'sandbox.errors-without-environment-header': async (h) =>
    (await h.call('GET', '/runs/x')).headers['x-svc-environment'],
  'reveal.charged-twice': async (h) => {
    const run = await fixture(h, 'cert-webhook');
    const reveal = () =>
      h.call('POST', `/runs/${run}/candidates/990000000001/reveal`, { acting_user_external_id: 'rec-1' });
    await reveal();
    return (await reveal()).json.credits_charged;
  },
  'reveal.contact-wrong-shape': async (h) =>
    (
      await h.call('POST', `/runs/${await fixture(h, 'cert-webhook')}/candidates/990000000001/reveal`, {
        acting_user_external_id: 'rec-1',
      })
    ).json.email,
  'decisions.rejection-stores-part': async (h) => {
    const run = await fixture(h, 'cert-webhook');
    await dec(h, run, [A, { ...A, decision: 'nope' }]);
    return (await dec(h, run, [A])).json;
  },
  'decisions.duplicates-miscounted': async (h) => {
    const run = await fixture(h, 'cert-webhook');
    await dec(h, run, [A]);
    return (await dec(h, run, [A])).json;
  },
  'decisions.allowed-incomplete': async (h) =>
    (await dec(h, await fixture(h, 'cert-webhook'), [{ ...A, decision: 'rejected', reject_reason: 'zzz' }])).json
      .allowed,
  'sandbox.simulate-no-retry-after': async (h) =>
    (await h.call('GET', '/runs/x', undefined, { 'x-svc-sandbox-simulate': 'rate_limited' })).headers['retry-after'],
  'sandbox.simulate-before-auth': async (h) =>
    (
      await h.app.request({
        method: 'GET',
        path: '/v1/runs/x',
        headers: { 'x-svc-sandbox-simulate': 'internal_error' },
      })
    ).status,
  'sandbox.reveal-price-ignored': async (h) =>
    (
      await h.call('GET', `/runs/${await fixture(h, 'cert-webhook')}`, undefined, {
        'x-svc-sandbox-reveal-price': '999',
      })
    ).json.candidates[0].reveal_price_credits,
  'limits.rate-limited-no-retry-after': async (h) => {
    h.app.operator.setRateLimit(h.partnerId, { perMinute: 1 });
    await h.call('GET', '/runs/x');
    return (await h.call('GET', '/runs/x')).headers['retry-after'] !== undefined;
  },
  'limits.fixture-runs-count': async (h) => {
    for (let i = 0; i < 20; i++) await fixture(h, 'cert-empty', 1);
    return (await h.startRun({ job_external_id: 'job-1', target_count: 1 })).status;
  },
  'fixtures.extra-fields-missing-on-reveal': async (h) =>
    'zz_extra_top_level' in
    (
      await h.call('POST', `/runs/${await fixture(h, 'cert-extra-fields')}/candidates/990000000001/reveal`, {
        acting_user_external_id: 'rec-1',
      })
    ).json,
  'production.environment-header': async (h) => (await h.call('GET', '/runs/x')).headers['x-svc-environment'],
};

const MODE: Record<string, 'production'> = { 'production.environment-header': 'production' };

/** The faults probed here: the API-level faults of every area whose change one request shows. */
const probed = FAULTS.filter((f) => f.id in PROBES);

describe('faults observed through the API', () => {
  it('has at least 18 probes, each of a registered fault, ids in the suite.property form', () => {
    expect(probed.length).toBeGreaterThanOrEqual(18);
    expect(Object.keys(PROBES).sort()).toEqual(probed.map((f) => f.id).sort());
    for (const f of probed) {
      expect(f.id).toMatch(
        /^(conventions|auth|activation|users|jobs|runs-start|runs-read|fixtures|reveal|decisions|sandbox|production|limits|webhooks)\.[a-z0-9-]+$/,
      );
      expect(f.caughtBy).toMatch(/^[a-z-]+\.[a-z0-9-]+(\.[a-z0-9-]+)*$/);
    }
  });

  for (const fault of probed) {
    it(`${fault.id} changes what it names`, async () => {
      const probe = PROBES[fault.id];
      if (!probe) throw new Error(`no probe for ${fault.id}`);
      const clean = await harness({ mode: MODE[fault.id] });
      const faulty = await harness({ mode: MODE[fault.id], faults: [fault.id] });
      try {
        const a = JSON.stringify(await probe(clean), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
        const b = JSON.stringify(await probe(faulty), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
        expect(b).not.toBe(a);
      } finally {
        await clean.app.close();
        await faulty.app.close();
      }
    });
  }
});
