import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './testing.js';

const open: Harness[] = [];
async function make(opts: Parameters<typeof harness>[0] = {}): Promise<Harness> {
  const h = await harness(opts);
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.app.close()));
});

const HEBREW = /[\u0590-\u05FF]/;

describe('conventions', () => {
  it('answers JSON with charset and the sandbox environment header, errors too', async () => {
    const h = await make();
    for (const r of [await h.call('POST', '/users', { external_id: 'u2' }), await h.call('GET', '/runs/nope')]) {
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.headers['x-svc-environment']).toBe('sandbox');
    }
  });

  it('writes error messages in Hebrew by default and in English on request', async () => {
    const h = await make();
    const he = await h.call('GET', '/runs/00000000-0000-4000-8000-000000000000');
    expect(he.json.error).toBe('run_not_found');
    expect(he.json.message).toMatch(HEBREW);
    const en = await h.call('GET', '/runs/00000000-0000-4000-8000-000000000000', undefined, { 'x-svc-lang': 'en' });
    expect(en.json.message).not.toMatch(HEBREW);
  });

  it('refuses bad input with a 4xx JSON envelope', async () => {
    const h = await make();
    const cases = [
      await h.call('POST', '/users', '{"external_id": '),
      await h.call('POST', '/users', '[1,2]'),
      await h.call('POST', '/users', { external_id: 'x' }, { 'content-type': 'text/plain' }),
      await h.call('GET', '/users'),
      await h.call('GET', '/nowhere'),
      await h.call('POST', '/runs', { job_external_id: 5, acting_user_external_id: 'rec-1', target_count: 1 }),
      await h.call('POST', '/runs', { job_external_id: 'job-1', acting_user_external_id: 'rec-1', target_count: '3' }),
      await h.call('POST', '/runs', { job_external_id: 'job-1', acting_user_external_id: 'rec-1', target_count: 2.5 }),
      await h.call('POST', '/jobs', { external_id: ['a'], title: {}, description_text: 1, location_text: null }),
      await h.call('POST', '/users', { external_id: 'u', email: 42 }),
    ];
    for (const r of cases) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(typeof r.json.error).toBe('string');
      expect(typeof r.json.message).toBe('string');
    }
    expect(cases[3]?.status).toBe(405);
    expect(cases[3]?.headers.allow).toBe('POST');
    expect(cases[4]?.status).toBe(404);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const h = await make();
    const r = await h.call('POST', '/users', Buffer.alloc(1024 * 1024 + 1, 0x20));
    expect(r.status).toBe(413);
    expect(r.json.error).toBeTypeOf('string');
  });
});

describe('authentication', () => {
  it('401 for a missing or unknown key, 401 for a missing or unknown token', async () => {
    const h = await make();
    const noKey = await h.app.request({ method: 'GET', path: '/v1/runs/x', headers: {} });
    expect(noKey.status).toBe(401);
    expect(JSON.parse(noKey.body.toString()).error).toBe('invalid_partner_key');
    const badKey = await h.app.request({
      method: 'GET',
      path: '/v1/runs/x',
      headers: { 'x-partner-key': 'spk_live_' + '0'.repeat(48) },
    });
    expect(JSON.parse(badKey.body.toString()).error).toBe('invalid_partner_key');
    expect((await h.callAs(undefined, 'GET', '/runs/x')).json.error).toBe('invalid_org_token');
    const bad = await h.callAs('sot_' + 'a'.repeat(48), 'GET', '/runs/x');
    expect([bad.status, bad.json.error]).toEqual([401, 'invalid_org_token']);
  });

  it('403 for a disabled partner and a disabled organization; rotation kills the old key', async () => {
    const h = await make();
    h.app.operator.setOrganizationEnabled(h.orgId, false);
    const r = await h.call('GET', '/runs/x');
    expect([r.status, r.json.error]).toEqual([403, 'organization_disabled']);
    h.app.operator.setOrganizationEnabled(h.orgId, true);
    h.app.operator.setPartnerEnabled(h.partnerId, false);
    const p = await h.call('GET', '/runs/x');
    expect([p.status, p.json.error]).toEqual([403, 'partner_disabled']);
    h.app.operator.setPartnerEnabled(h.partnerId, true);
    const newKey = h.app.operator.rotatePartnerKey(h.partnerId);
    expect(newKey).toMatch(/^spk_live_[0-9a-f]{48}$/);
    expect((await h.call('GET', '/runs/x')).json.error).toBe('invalid_partner_key');
    const ok = await h.app.request({
      method: 'GET',
      path: '/v1/runs/x',
      headers: { 'x-partner-key': newKey, 'x-svc-org': h.orgToken },
    });
    expect(ok.status).toBe(404);
  });

  it('keeps only hashes of keys and tokens', async () => {
    const h = await make();
    const dump = JSON.stringify(
      [...h.app.context.store.partners.values(), ...h.app.context.store.organizations.values()],
      (_k, v: unknown) => (v instanceof Set ? [...v].map(String) : typeof v === 'bigint' ? String(v) : v),
    );
    expect(dump).not.toContain(h.partnerKey);
    expect(dump).not.toContain(h.orgToken);
  });
});

describe('activation', () => {
  it('redeems a normalized code once; external_id_taken keeps it valid; expired is 410', async () => {
    const h = await make();
    const op = h.app.operator;
    const code = op.createActivationCode(h.partnerId);
    expect(code).toMatch(/^SVC-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}$/);
    const messy = ` ${code.toLowerCase().replace(/-/g, ' ')} `;
    const taken = await h.callAs(undefined, 'POST', '/activations/redeem', { code: messy, external_id: 'org-main' });
    expect([taken.status, taken.json.error]).toEqual([409, 'external_id_taken']);
    const ok = await h.callAs(undefined, 'POST', '/activations/redeem', { code: messy, external_id: 'org-2' });
    expect(ok.status).toBe(200);
    expect(ok.json.org_token).toMatch(/^sot_[0-9a-f]{48}$/);
    expect(ok.json.organization_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof ok.json.organization_name).toBe('string');
    const again = await h.callAs(undefined, 'POST', '/activations/redeem', { code, external_id: 'org-3' });
    expect([again.status, again.json.error]).toEqual([409, 'code_already_redeemed']);
    expect(again.json.redeemed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(again.json.org_token).toBeUndefined();
    const expired = op.createActivationCode(h.partnerId, { expired: true });
    expect(
      (await h.callAs(undefined, 'POST', '/activations/redeem', { code: expired, external_id: 'org-4' })).status,
    ).toBe(410);
    const missing = await h.callAs(undefined, 'POST', '/activations/redeem', {
      code: 'SVC-AAAA-AAAA',
      external_id: 'org-5',
    });
    expect([missing.status, missing.json.error]).toEqual([404, 'code_not_found']);
  });

  it('expires after 14 scaled days', async () => {
    const h = await make({ timeScale: (14 * 86_400_000) / 50 });
    const code = h.app.operator.createActivationCode(h.partnerId);
    await new Promise((r) => setTimeout(r, 80));
    expect((await h.callAs(undefined, 'POST', '/activations/redeem', { code, external_id: 'late' })).status).toBe(410);
  });
});

describe('users and jobs', () => {
  it('upserts users and jobs with stable ids', async () => {
    const h = await make({ createdStatus: 201 });
    const a = await h.call('POST', '/users', {
      external_id: 'u9',
      email: 'u9@example.com',
      full_name: 'U',
      role: 'admin',
    });
    const b = await h.call('POST', '/users', {
      external_id: 'u9',
      email: 'u9b@example.com',
      full_name: 'U',
      role: 'admin',
    });
    expect(a.status).toBe(201);
    expect([a.json.created, b.json.created, b.json.user_id]).toEqual([true, false, a.json.user_id]);
    const j1 = await h.call('POST', '/jobs', {
      external_id: 'j9',
      title: 'T',
      description_text: 'D',
      location_text: 'Haifa',
    });
    const j2 = await h.call('POST', '/jobs', {
      external_id: 'j9',
      title: 'T2',
      description_text: 'D',
      location_text: 'Haifa',
    });
    expect([j1.json.created, j1.json.updated, j2.json.created, j2.json.updated]).toEqual([true, false, false, true]);
    expect(j2.json.job_id).toBe(j1.json.job_id);
    expect((await h.call('POST', '/users', { external_id: '' })).json.error).toBe('invalid_user');
  });

  it('rejects a job with JobIssues and stores nothing', async () => {
    const h = await make();
    const r = await h.call('POST', '/jobs', { external_id: 'j-bad', title: 'T', description_text: ' ' });
    expect([r.status, r.json.error]).toEqual([422, 'job_rejected']);
    expect(r.json.rejected.map((i: { code: string }) => i.code)).toEqual(['description_missing', 'location_missing']);
    expect(r.json.rejected[1]).toMatchObject({ field: 'location_text' });
    expect(r.json.rejected[1].message_he).toMatch(HEBREW);
    expect(typeof r.json.rejected[1].message_en).toBe('string');
    expect((await h.startRun({ job_external_id: 'j-bad' })).json.error).toBe('job_not_found');
  });
});

describe('run start', () => {
  it('trims and collapses, keeps order, appends the title as the last must', async () => {
    const h = await make();
    const r = await h.startRun({
      job_external_id: 'job-1',
      requirements: [
        { text: '  Node.js \t  services ', kind: 'must' },
        { text: 'Go', kind: 'nice' },
        { text: 'Kubernetes', kind: 'nice' },
      ],
    });
    expect(r.status).toBe(202);
    expect(r.json.status).toBe('running');
    expect(r.json.requirements).toEqual([
      { index: 0, text: 'Node.js services', kind: 'must', origin: 'partner' },
      { index: 1, text: 'Go', kind: 'nice', origin: 'partner' },
      { index: 2, text: 'Kubernetes', kind: 'nice', origin: 'partner' },
      { index: 3, text: 'Backend Developer', kind: 'must', origin: 'job_title' },
    ]);
    expect(r.json.warnings.map((w: { index: number; code: string }) => [w.index, w.code])).toEqual([
      [1, 'short_term_may_be_dropped'],
    ]);
  });

  it('does not append the title when submitted', async () => {
    const h = await make();
    const r = await h.startRun({
      job_external_id: 'job-1',
      requirements: [
        { text: 'backend  developer', kind: 'must' },
        { text: 'A1', kind: 'must' },
        { text: 'B2B sales', kind: 'must' },
      ],
    });
    expect(r.status).toBe(202);
    expect(r.json.requirements).toHaveLength(3);
  });

  it('puts too_many_musts on the must that exceeds the cap (title counts)', async () => {
    const h = await make();
    const r = await h.startRun({
      job_external_id: 'job-1',
      requirements: [
        { text: 'Node', kind: 'must' },
        { text: 'SQL', kind: 'nice' },
        { text: 'AWS', kind: 'must' },
        { text: 'Redis', kind: 'must' },
      ],
    });
    expect([r.status, r.json.error]).toEqual([422, 'requirements_rejected']);
    expect(r.json.rejected.map((i: { index: number; code: string }) => [i.index, i.code])).toEqual([
      [3, 'too_many_musts'],
    ]);
    expect(Array.isArray(r.json.warnings)).toBe(true);
  });

  it('rejects every rule with the submitted index', async () => {
    const h = await make();
    const r = await h.startRun({
      job_external_id: 'job-1',
      requirements: [
        { text: 'Python', kind: 'nice' },
        { text: '   ', kind: 'nice' },
        { text: 'x', kind: 'maybe' },
        { text: 'PYTHON', kind: 'must' },
        { text: 'a'.repeat(301), kind: 'nice' },
        { text: 'Tel Aviv', kind: 'nice' },
        { text: 'a'.repeat(300), kind: 'nice' },
      ],
    });
    expect(r.json.rejected.map((i: { index: number; code: string }) => [i.index, i.code])).toEqual([
      [1, 'empty_text'],
      [2, 'invalid_kind'],
      [3, 'duplicate'],
      [4, 'too_long'],
      [5, 'location_as_requirement'],
    ]);
    for (const issue of r.json.rejected) {
      expect(issue.message_he).toMatch(HEBREW);
      expect(issue).toHaveProperty('suggestion_en');
      expect(issue).toHaveProperty('suggestion_he');
    }
  });

  it('gives index -1 when requirements is not an array, and warns on bands and unverifiable musts', async () => {
    const h = await make();
    const r = await h.startRun({ job_external_id: 'job-1', requirements: { text: 'x', kind: 'must' } });
    expect(r.json.rejected).toMatchObject([{ index: -1, code: 'invalid_kind' }]);
    const w = await h.startRun({
      job_external_id: 'job-1',
      requirements: [
        { text: '3-5 years of Java', kind: 'nice' },
        { text: 'Driving licence', kind: 'must' },
      ],
    });
    expect(w.status).toBe(202);
    expect(w.json.warnings.map((i: { code: string }) => i.code)).toEqual(['years_band_ceiling', 'unverifiable_must']);
  });

  it('derives requirements when none are sent; enforces target_count, users, jobs, fixtures', async () => {
    const h = await make();
    const d = await h.startRun({ job_external_id: 'job-1' });
    expect(d.status).toBe(202);
    expect(d.json.requirements.at(-1)).toMatchObject({ text: 'Backend Developer', kind: 'must' });
    expect((await h.startRun({ job_external_id: 'job-1', target_count: 21 })).json).toMatchObject({
      error: 'sandbox_limit',
      max_target_count: 20,
    });
    expect((await h.startRun({ job_external_id: 'job-1', target_count: 0 })).status).toBe(422);
    expect((await h.startRun({ job_external_id: 'job-1', acting_user_external_id: 'ghost' })).json.error).toBe(
      'user_not_found',
    );
    expect((await h.startRun({ job_external_id: 'job-404' })).json.error).toBe('job_not_found');
    const unknown = await h.startRun({ job_external_id: 'cert-nope' });
    expect(unknown.json.error).toBe('unknown_fixture');
    expect(unknown.json.fixtures).toContain('cert-slow');
  });
});

describe('run read, reveal and decisions on a real run', () => {
  it('lists masked candidates, reveals synthetically, and keeps ids above 2^53 exact', async () => {
    const h = await make({ timeScale: 600 });
    const start = await h.startRun({ job_external_id: 'job-1', target_count: 3 });
    let run = (await h.call('GET', `/runs/${start.json.run_id}`)).json;
    for (let i = 0; i < 100 && run.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await h.call('GET', `/runs/${start.json.run_id}`)).json;
    }
    expect(run.status).not.toBe('running');
    expect(run.candidates.length).toBeGreaterThan(0);
    expect(run.candidates.length).toBeLessThanOrEqual(3);
    const c = run.candidates[0];
    expect(c.name).toMatch(/^Candidate [0-9A-Fa-f]{4}$/);
    expect(['bigint', 'number']).toContain(typeof c.id);
    const big = run.candidates.find((x: { id: unknown }) => typeof x.id === 'bigint');
    const target = big ?? c;
    const rev = await h.call('POST', `/runs/${start.json.run_id}/candidates/${target.id}/reveal`, {
      acting_user_external_id: 'rec-1',
    });
    expect(rev.status).toBe(200);
    expect(rev.json).toMatchObject({
      credits_charged: 0,
      sandbox: true,
      email: `candidate-${target.id}@sandbox.svc.invalid`,
    });
    const after = (await h.call('GET', `/runs/${start.json.run_id}`)).json;
    expect(after.candidates.find((x: { id: unknown }) => x.id === target.id).contact_state).toBe('revealed');
    const dec = await h.call('POST', `/runs/${start.json.run_id}/decisions`, {
      acting_user_external_id: 'rec-1',
      decisions: [{ candidate_id: target.id, decision: 'shortlisted', occurred_at: '2025-01-01T00:00:00Z' }],
      notices_shown: ['run_progress'],
    });
    expect(dec.json).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('hides another organization’s run behind 404 run_not_found', async () => {
    const h = await make();
    const run = await h.startRun({ job_external_id: 'cert-empty', target_count: 1 });
    const other = h.app.operator.connectOrganization(h.partnerId, 'org-other');
    for (const [m, p, b] of [
      ['GET', `/runs/${run.json.run_id}`, undefined],
      ['POST', `/runs/${run.json.run_id}/decisions`, { acting_user_external_id: 'rec-1', decisions: [] }],
      ['POST', `/runs/${run.json.run_id}/candidates/990000000001/reveal`, { acting_user_external_id: 'rec-1' }],
    ] as const) {
      const r = await h.callAs(other.orgToken, m, p, b);
      expect([r.status, r.json.error]).toEqual([404, 'run_not_found']);
    }
  });
});

describe('decisions', () => {
  it('dedupes on (candidate, decision, occurred_at), stores nothing on 422, lists allowed reasons', async () => {
    const h = await make({ createdStatus: 202 });
    const run = (await h.startRun({ job_external_id: 'cert-notices-all', target_count: 6 })).json.run_id;
    const d = (decisions: unknown[], shown: string[] = []) =>
      h.call('POST', `/runs/${run}/decisions`, { acting_user_external_id: 'rec-1', decisions, notices_shown: shown });
    const a = {
      candidate_id: 990000000001,
      decision: 'rejected',
      reject_reason: 'known',
      note: 'seen',
      occurred_at: '2025-01-01T10:00:00Z',
    };
    const b = {
      candidate_id: 990000000002,
      decision: 'shortlisted',
      reject_reason: null,
      occurred_at: '2025-01-01T10:00:00Z',
    };
    const first = await d([a, b], ['run_funnel', 'zz_new']);
    expect(first.status).toBe(202);
    expect(first.json).toEqual({ accepted: 2, duplicates: 0 });
    expect((await d([a, { ...b, occurred_at: '2025-01-01T10:05:00Z' }])).json).toEqual({ accepted: 1, duplicates: 1 });
    const bad = await d([
      { ...a, occurred_at: '2025-02-01T00:00:00Z' },
      { ...b, reject_reason: 'cv_irrelevant' },
    ]);
    expect([bad.status, bad.json.error]).toEqual([422, 'invalid_decision']);
    expect((await d([{ ...a, occurred_at: '2025-02-01T00:00:00Z' }])).json).toEqual({ accepted: 1, duplicates: 0 });
    const unknown = await d([{ ...a, reject_reason: 'too_expensive' }]);
    expect(unknown.json.error).toBe('unknown_reject_reason');
    expect([...unknown.json.allowed].sort()).toEqual([
      'candidate_withdrew',
      'cv_irrelevant',
      'declined',
      'insufficient_experience',
      'known',
      'location',
      'overqualified',
    ]);
    expect((await d([{ ...a, reject_reason: null }])).status).toBe(202);
    expect((await d([{ ...a, occurred_at: 'yesterday' }])).status).toBe(422);
    expect((await d([{ ...a, candidate_id: '990000000001' }])).status).toBe(422);
    const stored = h.app.context.store.runs.get(run)!;
    expect([...stored.noticesShown].sort()).toEqual(['run_funnel', 'zz_new']);
    expect(
      (await h.call('POST', `/runs/${run}/decisions`, { acting_user_external_id: 'ghost', decisions: [] })).json.error,
    ).toBe('user_not_found');
  });
});

describe('sandbox headers', () => {
  it('simulates the four errors after authentication and refuses other values', async () => {
    const h = await make();
    const sim = (v: string) => h.call('GET', '/runs/x', undefined, { 'x-svc-sandbox-simulate': v });
    const rl = await sim('rate_limited');
    expect([rl.status, rl.headers['retry-after'], rl.json.retry_after_seconds]).toEqual([429, '30', 30]);
    expect((await sim('rate_limit_unavailable')).status).toBe(503);
    expect((await sim('internal_error')).json.error).toBe('internal_error');
    expect((await sim('insufficient_credits')).json).toMatchObject({
      error: 'insufficient_credits',
      balance: 0,
      reason: 'simulated',
    });
    const bad = await sim('teapot');
    expect(bad.status).toBe(422);
    expect(bad.json.allowed).toEqual([
      'rate_limited',
      'rate_limit_unavailable',
      'internal_error',
      'insufficient_credits',
    ]);
    const unauth = await h.app.request({
      method: 'GET',
      path: '/v1/runs/x',
      headers: { 'x-svc-sandbox-simulate': 'internal_error' },
    });
    expect(unauth.status).toBe(401);
  });

  it('overrides the reveal price in one read, validating 0..1000', async () => {
    const h = await make();
    const run = (await h.startRun({ job_external_id: 'cert-webhook', target_count: 3 })).json.run_id;
    const r = await h.call('GET', `/runs/${run}`, undefined, { 'x-svc-sandbox-reveal-price': '777' });
    expect(r.json.candidates.map((c: { reveal_price_credits: number }) => c.reveal_price_credits)).toEqual([
      777, 777, 777,
    ]);
    const plain = await h.call('GET', `/runs/${run}`);
    expect(plain.json.candidates[0].reveal_price_credits).not.toBe(777);
    for (const v of ['1001', '-1', 'abc', '1.5']) {
      expect((await h.call('GET', `/runs/${run}`, undefined, { 'x-svc-sandbox-reveal-price': v })).status).toBe(422);
    }
    const rev = await h.call('POST', `/runs/${run}/candidates/990000000001/reveal`, {
      acting_user_external_id: 'rec-1',
    });
    expect(rev.json.credits_charged).toBe(0);
  });

  it('counts real runs against the rolling quota, not fixtures or 422s', async () => {
    const h = await make();
    for (let i = 0; i < 3; i++) await h.startRun({ job_external_id: 'cert-empty', target_count: 1 });
    await h.startRun({ job_external_id: 'job-1', requirements: 'nope' });
    for (let i = 0; i < 20; i++)
      expect((await h.startRun({ job_external_id: 'job-1', target_count: 1 })).status).toBe(202);
    const over = await h.startRun({ job_external_id: 'job-1', target_count: 1 });
    expect([over.status, over.json.error, over.json.limit]).toEqual([429, 'sandbox_run_quota', 20]);
    expect(Number(over.headers['retry-after'])).toBe(over.json.retry_after_seconds);
    expect(over.json.retry_after_seconds).toBeGreaterThan(0);
    expect((await h.startRun({ job_external_id: 'cert-empty', target_count: 1 })).status).toBe(202);
  });

  it('rate-limits per partner with Retry-After', async () => {
    const h = await make();
    h.app.operator.setRateLimit(h.partnerId, { perMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await h.call('GET', '/runs/x'));
    expect(statuses.map((r) => r.status)).toEqual([404, 404, 404, 429]);
    expect(statuses[3]?.json.error).toBe('rate_limited');
    expect(statuses[3]?.headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('production mode', () => {
  it('charges the latest quoted price once, 402 when short, no sandbox artefacts', async () => {
    const h = await make({ mode: 'production', timeScale: 600 });
    const start = await h.startRun({ job_external_id: 'job-1', target_count: 2 });
    expect(start.headers['x-svc-environment']).toBeUndefined();
    let run = (await h.call('GET', `/runs/${start.json.run_id}`)).json;
    for (let i = 0; i < 100 && run.candidates.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = (await h.call('GET', `/runs/${start.json.run_id}`, undefined, { 'x-svc-sandbox-reveal-price': '1' })).json;
    }
    const c = run.candidates[0];
    expect(c.reveal_price_credits).not.toBe(1);
    h.app.operator.setWalletBalance(h.orgId, c.reveal_price_credits - 1);
    const short = await h.call('POST', `/runs/${start.json.run_id}/candidates/${c.id}/reveal`, {
      acting_user_external_id: 'rec-1',
    });
    expect(short.json).toMatchObject({
      error: 'insufficient_credits',
      balance: c.reveal_price_credits - 1,
      required: c.reveal_price_credits,
    });
    h.app.operator.setWalletBalance(h.orgId, 100);
    const paid = await h.call('POST', `/runs/${start.json.run_id}/candidates/${c.id}/reveal`, {
      acting_user_external_id: 'rec-1',
    });
    expect(paid.json).toMatchObject({
      credits_charged: c.reveal_price_credits,
      wallet_balance_after: 100 - c.reveal_price_credits,
    });
    expect(paid.json.sandbox).toBeUndefined();
    const again = await h.call('POST', `/runs/${start.json.run_id}/candidates/${c.id}/reveal`, {
      acting_user_external_id: 'rec-1',
    });
    expect(again.json).toMatchObject({ credits_charged: 0, wallet_balance_after: 100 - c.reveal_price_credits });
    expect((await h.call('POST', '/sandbox/webhooks/test', { event: 'run_failed' })).json.error).toBe('not_found');
    expect((await h.call('GET', '/runs/x', undefined, { 'x-svc-sandbox-simulate': 'internal_error' })).status).toBe(
      404,
    );
    expect((await h.startRun({ job_external_id: 'cert-notices-all' })).json.error).toBe('job_not_found');
    expect((await h.startRun({ job_external_id: 'job-1', target_count: 50 })).status).toBe(202);
  });
});
