import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harness, type Harness } from '../testing.js';
import { FAULTS } from './index.js';

type Probe = (h: Harness) => Promise<unknown>;

const fixtureRead = async (h: Harness, name: string, lang = 'en') => {
  const id = (await h.startRun({ job_external_id: name, target_count: 10 })).json.run_id as string;
  return (await h.call('GET', `/runs/${id}`, undefined, { 'x-svc-lang': lang })).json;
};

/** What each fault changes, observed through the API only. */
const PROBES: Record<string, Probe> = {
  'conventions.error-without-charset': async (h) => (await h.call('GET', '/runs/x')).headers['content-type'],
  'conventions.decisions-success-without-charset': async (h) => {
    const id = (await h.startRun({ job_external_id: 'cert-empty' })).json.run_id as string;
    return (await h.call('POST', `/runs/${id}/decisions`, { acting_user_external_id: 'rec-1', decisions: [] })).headers[
      'content-type'
    ];
  },
  'conventions.invalid-utf8-in-run-read': async (h) => {
    const id = (await h.startRun({ job_external_id: 'cert-notices-all' })).json.run_id as string;
    return (await h.call('GET', `/runs/${id}`)).json.candidates[0].name;
  },
  'conventions.default-message-empty': async (h) => (await h.call('GET', '/runs/x')).json.message,
  'auth.jobs-unknown-key-403': async (h) =>
    (
      await h.app.request({
        method: 'POST',
        path: '/v1/jobs',
        headers: {
          'x-partner-key': `spk_live_${'0'.repeat(48)}`,
          'x-svc-org': h.orgToken,
          'content-type': 'application/json',
        },
        body: Buffer.from('{}'),
      })
    ).status,
  'auth.decisions-missing-org-token-403': async (h) =>
    (await h.callAs(undefined, 'POST', '/runs/x/decisions', {})).status,
  'conventions.message-language-swapped': async (h) => [
    (await h.call('GET', '/runs/x', undefined, { 'x-svc-lang': 'en' })).json.message,
    (await h.call('GET', '/runs/x', undefined, { 'x-svc-lang': 'he' })).json.message,
  ],
  'auth.missing-partner-key-403': async (h) =>
    (await h.app.request({ method: 'GET', path: '/v1/runs/x', headers: { 'x-svc-org': h.orgToken } })).status,
  'auth.unknown-org-token-wrong-code': async (h) => (await h.callAs('sot_never_issued', 'GET', '/runs/x')).json.error,
  'auth.redeem-demands-org-token': async (h) =>
    (await h.callAs(undefined, 'POST', '/activations/redeem', { code: 'NOPE-NOPE', external_id: 'o9' })).status,
  'fixtures.start-answered-200': async (h) => (await h.startRun({ job_external_id: 'cert-empty' })).status,
  'fixtures.start-without-fixture-name': async (h) =>
    (await h.startRun({ job_external_id: 'cert-empty' })).json.sandbox,
  'fixtures.notices-all-missing-paid-fallback': async (h) =>
    (await fixtureRead(h, 'cert-notices-all')).notices.map((n: { code: string }) => n.code),
  'fixtures.notices-all-impossible-code': async (h) =>
    (await fixtureRead(h, 'cert-notices-all')).notices.map((n: { code: string }) => n.code),
  'fixtures.notice-requirement-index-out-of-range': async (h) =>
    (await fixtureRead(h, 'cert-notice-unknown')).notices.map((n: { ref?: unknown }) => n.ref ?? null),
  'fixtures.notice-unknown-without-unknown-slot': async (h) =>
    (await fixtureRead(h, 'cert-notice-unknown')).notices.map((n: { slot: string }) => n.slot),
  'fixtures.empty-notice-outside-empty-state': async (h) =>
    (await fixtureRead(h, 'cert-empty')).notices.map((n: { slot: string }) => n.slot),
  'fixtures.failed-reports-completed': async (h) => (await fixtureRead(h, 'cert-failed')).status,
  'fixtures.extra-fields-missing-on-notices': async (h) =>
    (await fixtureRead(h, 'cert-extra-fields')).notices.map((n: object) => Object.keys(n)),
  'fixtures.webhook-lists-more-than-three': async (h) => (await fixtureRead(h, 'cert-webhook')).candidates.length,
  'fixtures.slow-completes-at-once': async (h) => (await fixtureRead(h, 'cert-slow')).status,
  'conventions.unrouted-without-envelope': async (h) => [
    (await h.call('GET', '/zz-no-such-route')).json,
    (await h.call('DELETE', '/runs/x')).json,
  ],
  'sandbox.accepted-without-environment-header': async (h) =>
    (await h.startRun({ job_external_id: 'cert-empty' })).headers['x-svc-environment'],
  'fixtures.candidate-requirements-musts-only': async (h) =>
    (await fixtureRead(h, 'cert-notices-all')).candidates.map(
      (c: { requirements: unknown[] }) => c.requirements.length,
    ),
  'fixtures.unknown-fixture-as-job-not-found': async (h) =>
    (await h.startRun({ job_external_id: 'cert-zz-none' })).json,
  'fixtures.read-names-other-fixture': async (h) => (await fixtureRead(h, 'cert-notices-all')).sandbox,
  'fixtures.submitted-requirements-used': async (h) =>
    (await h.startRun({ job_external_id: 'cert-empty', requirements: [{ text: 'Kotlin', kind: 'nice' }] })).json
      .requirements,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [readFileSync(join(dir, e.name), 'utf8')]
        : [],
  );
}

describe('faults at their points', () => {
  const probed = FAULTS.filter((f) => f.id in PROBES);
  const code = sources(join(new URL('.', import.meta.url).pathname, '..')).join('\n');
  // `faults.has('id')`, or `faults?.has('id')` where the fault set is optional.
  const switches = (id: string) =>
    code.split(new RegExp(`faults\\??\\.has\\('${id.replace(/\./g, '\\.')}'\\)`)).length - 1;

  it('every probe names a registered fault', () => {
    expect(Object.keys(PROBES).filter((id) => !FAULTS.some((f) => f.id === id))).toEqual([]);
  });

  it('a fault acts at its named points or is switched in the code, never both', () => {
    const both = FAULTS.filter((f) => f.acts && switches(f.id) > 0).map((f) => f.id);
    const nowhere = FAULTS.filter((f) => !f.acts && switches(f.id) === 0).map((f) => f.id);
    expect({ both, nowhere }).toEqual({ both: [], nowhere: [] });
  });

  it('each probed fault that is switched in the code is switched at exactly one place', () => {
    const switched = probed.filter((x) => !x.acts);
    expect(switched.length).toBeGreaterThan(0);
    for (const f of switched) expect(switches(f.id), f.id).toBe(1);
  });

  for (const fault of probed) {
    it(`${fault.id} changes what it names`, async () => {
      const probe = PROBES[fault.id];
      if (!probe) throw new Error(`no probe for ${fault.id}`);
      const clean = await harness({ timeScale: 600 });
      const faulty = await harness({ timeScale: 600, faults: [fault.id] });
      try {
        expect(JSON.stringify(await probe(faulty))).not.toBe(JSON.stringify(await probe(clean)));
      } finally {
        await clean.app.close();
        await faulty.app.close();
      }
    });
  }
});
