// Each injection fires once, at its documented point only; --no-inject turns every one off.

import { describe, expect, it } from 'vitest';
import { createInjector, injectedRetryAfter } from './injections.js';

const post = (id: number, path: string, body?: unknown) => ({ id, method: 'POST', path, ...(body !== undefined ? { body: Buffer.from(JSON.stringify(body)) } : {}) });
const get = (id: number, path: string) => ({ id, method: 'GET', path });
const answer = (status: number, body: unknown = {}) => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });

describe('partner injections', () => {
  it('run-start-500 hits the first real run start only; fixtures pass untouched', () => {
    const inj = createInjector({ timeScale: 1, enabled: true });
    expect(inj.simulate(post(1, '/v1/runs', { job_external_id: 'cert-slow' }))).toBeUndefined();
    expect(inj.simulate(post(2, '/v1/runs', { job_external_id: 'job-1' }))).toEqual({ simulate: 'internal_error' });
    expect(inj.simulate(post(3, '/v1/runs', { job_external_id: 'job-1' }))).toBeUndefined();
    expect(inj.injectedFor(2)).toBe('run-start-500');
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

  it('--no-inject: nothing fires', () => {
    const inj = createInjector({ timeScale: 1, enabled: false });
    expect(inj.simulate(post(1, '/v1/users', {}))).toBeUndefined();
    expect(inj.simulate(post(2, '/v1/runs', { job_external_id: 'job-1' }))).toBeUndefined();
    expect(inj.simulate(get(3, '/v1/runs/a'))).toBeUndefined();
    expect(inj.simulate(get(4, '/v1/runs/a'))).toBeUndefined();
    expect(inj.deliver(post(5, '/v1/activations/redeem', {}), answer(200))).toBe('send');
    expect(inj.fired()).toEqual([]);
  });
});
