// Each injection fires once, at its documented point only; --no-inject turns every one off.

import { describe, expect, it, vi } from 'vitest';
import { createInjector, injectedRetryAfter } from './injections.js';

const post = (id: number, path: string, body?: unknown) => ({
  id,
  method: 'POST',
  path,
  ...(body !== undefined ? { body: Buffer.from(JSON.stringify(body)) } : {}),
});
const get = (id: number, path: string) => ({ id, method: 'GET', path });
const answer = (status: number, body: unknown = {}) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(body)),
});

describe('partner injections', () => {
  it('run-start-500 hits the first start of cert-failed only, a start whose loss costs no step; real runs and other fixtures pass untouched', () => {
    const inj = createInjector({ timeScale: 1, enabled: true });
    expect(inj.simulate(post(1, '/v1/runs', { job_external_id: 'cert-slow' }))).toBeUndefined();
    expect(inj.simulate(post(2, '/v1/runs', { job_external_id: 'job-1' }))).toBeUndefined();
    expect(inj.simulate(post(3, '/v1/runs', { job_external_id: 'cert-failed' }))).toEqual({
      simulate: 'internal_error',
    });
    expect(inj.simulate(post(4, '/v1/runs', { job_external_id: 'cert-failed' }))).toBeUndefined();
    expect(inj.injectedFor(3)).toBe('run-start-500');
  });

  it("rate-limited-429: the first POST /users, Retry-After the spec's 30 s divided by the scale, rounded up", () => {
    const inj = createInjector({ timeScale: 7, enabled: true });
    expect(inj.simulate(post(1, '/v1/users', {}))).toEqual({ simulate: 'rate_limited', retryAfterSeconds: 5 });
    expect(inj.simulate(post(2, '/v1/users', {}))).toBeUndefined();
    expect([injectedRetryAfter(1), injectedRetryAfter(60), injectedRetryAfter(1000)]).toEqual([30, 1, 1]);
  });

  it('run-read-503: the first repeat read of a run', () => {
    const inj = createInjector({ timeScale: 1, enabled: true });
    expect(inj.simulate(get(1, '/v1/runs/a'))).toBeUndefined();
    expect(inj.simulate(get(2, '/v1/runs/b'))).toBeUndefined();
    expect(inj.simulate(get(3, '/v1/runs/a'))).toEqual({ simulate: 'rate_limit_unavailable' });
    expect(inj.simulate(get(4, '/v1/runs/a'))).toBeUndefined();
  });

  it('redeem-answer-lost: the first successful redeem only; run-held-running: the first accepted real run reads running', () => {
    const inj = createInjector({ timeScale: 1, enabled: true });
    expect(inj.deliver(post(1, '/v1/activations/redeem', { code: 'x' }), answer(404))).toBe('send');
    expect(inj.deliver(post(2, '/v1/activations/redeem', { code: 'y' }), answer(200))).toBe('drop');
    expect(inj.deliver(post(3, '/v1/activations/redeem', { code: 'z' }), answer(200))).toBe('send');
    expect(inj.deliver(post(4, '/v1/runs', { job_external_id: 'job-1' }), answer(202, { run_id: 'r1' }))).toBe('send');
    const held = inj.deliver(get(5, '/v1/runs/r1'), answer(200, { run_id: 'r1', status: 'completed', candidates: [] }));
    expect(typeof held === 'object' && JSON.parse(held.replace.body.toString('utf8')).status).toBe('running');
    expect(inj.fired()).toEqual(['redeem-answer-lost', 'run-held-running']);
  });

  it('decisions-503 then decisions-answer-lost (another run): only calls carrying a decision', () => {
    const inj = createInjector({ timeScale: 1, enabled: true });
    const decisions = (id: number, run: string, n: number) =>
      post(id, `/v1/runs/${run}/decisions`, {
        decisions: Array.from({ length: n }, () => ({ candidate_id: 1 })),
        notices_shown: [],
      });
    expect(inj.simulate(decisions(1, 'a', 0))).toBeUndefined();
    expect(inj.simulate(decisions(2, 'a', 2))).toEqual({ simulate: 'rate_limit_unavailable' });
    expect(inj.simulate(decisions(3, 'a', 2))).toBeUndefined();
    // The retry on the same run is answered; the first call for another run loses its answer, once.
    expect(inj.deliver(decisions(3, 'a', 2), answer(200))).toBe('send');
    expect(inj.deliver(decisions(4, 'b', 0), answer(200))).toBe('send');
    expect(inj.deliver(decisions(5, 'b', 1), answer(200))).toBe('drop');
    expect(inj.deliver(decisions(6, 'c', 1), answer(200))).toBe('send');
    expect([inj.injectedFor(2), inj.injectedFor(5)]).toEqual(['decisions-503', 'decisions-answer-lost']);
  });

  it('run-status-unknown: the first poll of a running run (read running before); job-503-unknown-code: the first stored job', () => {
    const inj = createInjector({ timeScale: 1, enabled: true });
    expect(inj.deliver(get(1, '/v1/runs/a'), answer(200, { run_id: 'a', status: 'completed' }))).toBe('send');
    // The first look at a running run is no poll yet: a client that stops after it may just have left.
    expect(inj.deliver(get(10, '/v1/runs/b'), answer(200, { run_id: 'b', status: 'running' }))).toBe('send');
    const unknown = inj.deliver(
      get(2, '/v1/runs/b'),
      answer(200, { run_id: 'b', status: 'running', candidates: [{ id: 990000000001 }] }),
    );
    expect(typeof unknown === 'object' && JSON.parse(unknown.replace.body.toString('utf8'))).toEqual({
      run_id: 'b',
      status: 'zz_certification_status',
      candidates: [{ id: 990000000001 }],
    });
    expect(inj.deliver(get(3, '/v1/runs/b'), answer(200, { run_id: 'b', status: 'running' }))).toBe('send');
    expect(inj.deliver(post(4, '/v1/jobs', {}), answer(422))).toBe('send');
    const job = inj.deliver(post(5, '/v1/jobs', {}), answer(200, { job_id: 'j' }));
    expect(
      typeof job === 'object' && [job.replace.status, JSON.parse(job.replace.body.toString('utf8')).error],
    ).toEqual([503, 'zz_new_error']);
    expect(inj.deliver(post(6, '/v1/jobs', {}), answer(200, { job_id: 'j' }))).toBe('send');
    expect(inj.fired()).toEqual(['run-status-unknown', 'job-503-unknown-code']);
  });

  it('--skip-injection: the injections named are off, the others still fire', () => {
    const inj = createInjector({
      timeScale: 1,
      enabled: true,
      skip: ['decisions-503', 'run-held-running', 'job-503-unknown-code'],
    });
    expect(inj.simulate(post(1, '/v1/runs/a/decisions', { decisions: [{ candidate_id: 1 }] }))).toBeUndefined();
    // With decisions-503 off, the first call carrying a decision loses its answer.
    expect(inj.deliver(post(1, '/v1/runs/a/decisions', { decisions: [{ candidate_id: 1 }] }), answer(200))).toBe(
      'drop',
    );
    expect(inj.deliver(post(2, '/v1/runs', { job_external_id: 'job-1' }), answer(202, { run_id: 'r1' }))).toBe('send');
    expect(inj.deliver(get(3, '/v1/runs/r1'), answer(200, { run_id: 'r1', status: 'completed' }))).toBe('send');
    expect(inj.deliver(post(4, '/v1/jobs', {}), answer(200))).toBe('send');
    expect(inj.simulate(post(5, '/v1/users', {}))).toMatchObject({ simulate: 'rate_limited' });
    expect(inj.fired()).toEqual(['rate-limited-429', 'decisions-answer-lost']);
  });

  it('--no-inject: nothing fires', () => {
    const inj = createInjector({ timeScale: 1, enabled: false });
    expect(inj.simulate(post(1, '/v1/users', {}))).toBeUndefined();
    expect(inj.simulate(post(2, '/v1/runs', { job_external_id: 'job-1' }))).toBeUndefined();
    expect(inj.simulate(get(3, '/v1/runs/a'))).toBeUndefined();
    expect(inj.simulate(get(4, '/v1/runs/a'))).toBeUndefined();
    expect(inj.deliver(post(5, '/v1/activations/redeem', {}), answer(200))).toBe('send');
    expect(inj.simulate(post(6, '/v1/runs/a/decisions', { decisions: [{ candidate_id: 1 }] }))).toBeUndefined();
    expect(inj.deliver(get(7, '/v1/runs/b'), answer(200, { status: 'running' }))).toBe('send');
    expect(inj.deliver(post(8, '/v1/jobs', {}), answer(200))).toBe('send');
    expect(inj.fired()).toEqual([]);
  });
});

describe('injections a conformant client never causes itself', () => {
  const reveal = (id: number) => ({ ...post(id, '/v1/runs/r/candidates/990000000001/reveal', {}), headers: {} });
  const withOrg = (id: number, token: string, path = '/v1/users') => ({
    ...post(id, path, { external_id: 'u' }),
    headers: { 'x-svc-org': token },
  });

  it('reveal-402: the first reveal is answered 402 insufficient_credits without executing, saying it is injected on purpose', () => {
    const inj = createInjector({ timeScale: 1, enabled: true });
    expect(inj.simulate(reveal(1))).toBeDefined();
    const sent = inj.deliver(reveal(1), answer(503));
    expect(typeof sent === 'object' && sent.replace.status).toBe(402);
    const body = typeof sent === 'object' ? JSON.parse(sent.replace.body.toString('utf8')) : {};
    expect(body.error).toBe('insufficient_credits');
    expect(body.message).toContain('injected on purpose');
    expect(body.message).toContain('never answers 402');
    expect(inj.injectedFor(1)).toBe('reveal-402');
    // Once only: the next reveal executes.
    expect(inj.simulate(reveal(2))).toBeUndefined();
    expect(inj.deliver(reveal(2), answer(200))).toBe('send');
  });

  it('org-token-revoked: the second organization is revoked after its first accepted call; the first is untouched', () => {
    const inj = createInjector({ timeScale: 1, enabled: true, skip: ['rate-limited-429'] });
    const [a, b] = ['sot_first', 'sot_second'];
    // Organization a: accepted calls, never refused.
    expect(inj.simulate(withOrg(1, a))).toBeUndefined();
    expect(inj.deliver(withOrg(1, a), answer(200))).toBe('send');
    // Organization b: its first call is accepted…
    expect(inj.simulate(withOrg(2, b))).toBeUndefined();
    expect(inj.deliver(withOrg(2, b), answer(200))).toBe('send');
    // …its next one is refused 401 invalid_org_token, executing nothing, and so is every later one.
    for (const id of [3, 4]) {
      expect(inj.simulate(withOrg(id, b, '/v1/jobs'))).toBeDefined();
      const sent = inj.deliver(withOrg(id, b, '/v1/jobs'), answer(503));
      expect(
        typeof sent === 'object' && [sent.replace.status, JSON.parse(sent.replace.body.toString('utf8')).error],
      ).toEqual([401, 'invalid_org_token']);
      expect(inj.injectedFor(id)).toBe('org-token-revoked');
    }
    expect(inj.simulate(withOrg(5, a))).toBeUndefined();
    // A renewed connection (a new token) works.
    expect(inj.simulate(withOrg(6, 'sot_renewed'))).toBeUndefined();
    expect(inj.fired()).toEqual(['org-token-revoked']);
  });

  it('run-held-running: the terminal webhook of the held run is held back while its reads say running', () => {
    // The injector reads the clock: a fixed one makes the hold exact, whatever the machine's load.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_000_000);
      const inj = createInjector({ timeScale: 10, enabled: true });
      expect(inj.deliver(post(1, '/v1/runs', { job_external_id: 'job-1' }), answer(202, { run_id: 'r1' }))).toBe(
        'send',
      );
      // Read while it runs (a recruiter watching): its webhook waits the whole 35 minutes.
      vi.setSystemTime(1_004_000);
      inj.deliver(get(2, '/v1/runs/r1'), answer(200, { run_id: 'r1', status: 'running' }));
      // 35 spec minutes at time scale 10: 210 s real from the start, less the 4 s already passed.
      expect(inj.terminalEventDelayMs('r1')).toBe(206_000);
      vi.setSystemTime(1_010_000);
      expect(inj.terminalEventDelayMs('r1')).toBe(200_000);
      expect(inj.terminalEventDelayMs('other')).toBeUndefined();
      // --skip-injection run-held-running: nothing held.
      const off = createInjector({ timeScale: 10, enabled: true, skip: ['run-held-running'] });
      off.deliver(post(1, '/v1/runs', { job_external_id: 'job-1' }), answer(202, { run_id: 'r1' }));
      for (const id of [2, 3]) off.deliver(get(id, '/v1/runs/r1'), answer(200, { run_id: 'r1', status: 'running' }));
      expect(off.terminalEventDelayMs('r1')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('run-held-running lets go of a run nobody read by its end (a webhook-only client) after a short grace', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_000_000);
      const inj = createInjector({ timeScale: 100, enabled: true });
      inj.deliver(post(1, '/v1/runs', { job_external_id: 'job-1' }), answer(202, { run_id: 'r1' }));
      // Its natural end, never read: a grace of 5 minutes spec time, at least 5 s real.
      vi.setSystemTime(1_002_000);
      expect(inj.terminalEventDelayMs('r1')).toBe(5_000);
      vi.setSystemTime(1_007_000);
      expect(inj.terminalEventDelayMs('r1')).toBeUndefined();
      // Let go: a read after it tells the truth.
      expect(inj.deliver(get(2, '/v1/runs/r1'), answer(200, { run_id: 'r1', status: 'completed' }))).toBe('send');
      // A lagging poller that reads within the grace keeps it held.
      const late = createInjector({ timeScale: 100, enabled: true });
      vi.setSystemTime(2_000_000);
      late.deliver(post(1, '/v1/runs', { job_external_id: 'job-1' }), answer(202, { run_id: 'r2' }));
      vi.setSystemTime(2_002_000);
      expect(late.terminalEventDelayMs('r2')).toBe(5_000);
      vi.setSystemTime(2_003_000);
      const held = late.deliver(get(2, '/v1/runs/r2'), answer(200, { run_id: 'r2', status: 'completed' }));
      expect(typeof held === 'object' && JSON.parse(held.replace.body.toString('utf8')).status).toBe('running');
      vi.setSystemTime(2_007_000);
      expect(late.terminalEventDelayMs('r2')).toBe(2_000_000 + 21_000 - 2_007_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('run-status-unknown reaches a client that reads only after a webhook: the first read soon after a delivery for the run', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_000_000);
      // (the real run here is not the held one: its reads tell the truth)
      const inj = createInjector({ timeScale: 1, enabled: true, skip: ['run-held-running'] });
      inj.deliver(post(1, '/v1/runs', { job_external_id: 'cert-notices-all' }), answer(202, { run_id: 'f' }));
      inj.deliver(post(2, '/v1/runs', { job_external_id: 'job-1' }), answer(202, { run_id: 'w' }));
      // A delivery right after the start (a fixture that ends at once) races the client's own first read: no prompt.
      inj.delivered('f', 1_000_100);
      vi.setSystemTime(1_000_200);
      expect(inj.deliver(get(3, '/v1/runs/f'), answer(200, { run_id: 'f', status: 'completed' }))).toBe('send');
      // The real run's run_completed, minutes after its start; a read 10 s later is no longer prompted by it.
      inj.delivered('w', 1_180_000);
      vi.setSystemTime(1_190_000);
      expect(inj.deliver(get(4, '/v1/runs/w'), answer(200, { run_id: 'w', status: 'completed' }))).toBe('send');
      // A read 1 s after a delivery: the unknown status, even though the run has completed.
      inj.delivered('w', 1_200_000);
      vi.setSystemTime(1_201_000);
      const sent = inj.deliver(get(5, '/v1/runs/w'), answer(200, { run_id: 'w', status: 'completed', candidates: [] }));
      expect(typeof sent === 'object' && JSON.parse(sent.replace.body.toString('utf8')).status).toBe(
        'zz_certification_status',
      );
      expect(inj.injectedFor(5)).toBe('run-status-unknown');
      // Once: the read after it shows the truth.
      expect(inj.deliver(get(6, '/v1/runs/w'), answer(200, { run_id: 'w', status: 'completed' }))).toBe('send');
    } finally {
      vi.useRealTimers();
    }
  });

  it('org-token-revoked with one customer: its token is refused at its next call once every other duty is judged', () => {
    const inj = createInjector({ timeScale: 1, enabled: true, skip: ['rate-limited-429'] });
    const a = 'sot_only';
    expect(inj.deliver(withOrg(1, a), answer(200))).toBe('send');
    expect(inj.awaitsDutiesJudged()).toBe(true);
    // Not yet: its other duties are still open.
    expect(inj.simulate(withOrg(2, a))).toBeUndefined();
    inj.dutiesJudged();
    expect(inj.awaitsDutiesJudged()).toBe(false);
    expect(inj.simulate(withOrg(3, a))).toBeDefined();
    const sent = inj.deliver(withOrg(3, a), answer(503));
    expect(typeof sent === 'object' && sent.replace.status).toBe(401);
    expect(inj.injectedFor(3)).toBe('org-token-revoked');
    // Off with --no-inject: nothing waits.
    expect(createInjector({ timeScale: 1, enabled: false }).awaitsDutiesJudged()).toBe(false);
  });
});
