import { describe, expect, it } from 'vitest';
import { createRequestControl } from './request-control.js';
import { createStatsCounter } from './stats.js';

const at = { startedAt: new Date(0), durationMs: 0 };
const answer = (status: number) => ({ incoming: { status, headers: {}, bytes: Buffer.alloc(0), received: 0 }, ...at });

describe('stats counter', () => {
  it('counts each request that reaches the transport, and each answer by status or error code', async () => {
    const stats = createStatsCounter();
    const send = stats.counting(async () => at);
    await send(
      { method: 'GET', url: 'http://127.0.0.1:9/v1/x', headers: {} },
      { control: createRequestControl(), timeoutMs: 1 },
    );
    stats.answered({ method: 'GET', path: '/x' }, answer(200));
    stats.answered({ method: 'GET', path: '/x' }, { ...answer(200), error: { code: 'body_too_large', message: '' } });
    stats.answered({ method: 'GET', path: '/x' }, { error: { code: 'timeout', message: '' }, ...at });
    expect(stats.snapshot()).toEqual({
      requests: 1,
      rateLimited: 0,
      byStatus: { '200': 1, body_too_large: 1, timeout: 1 },
    });
  });

  it('counts as rate-limited only the 429s the certifier did not ask for', () => {
    const stats = createStatsCounter();
    stats.answered({ method: 'GET', path: '/x' }, answer(429));
    stats.answered({ method: 'GET', path: '/x', unpaced: true }, answer(429));
    stats.answered({ method: 'GET', path: '/x', headers: { 'X-Svc-Sandbox-Simulate': 'rate_limited' } }, answer(429));
    expect(stats.snapshot()).toEqual({ requests: 0, rateLimited: 1, byStatus: { '429': 3 } });
  });

  it('hands out copies: a snapshot does not move with later counts', () => {
    const stats = createStatsCounter();
    const before = stats.snapshot();
    stats.answered({ method: 'GET', path: '/x' }, answer(200));
    expect(before).toEqual({ requests: 0, rateLimited: 0, byStatus: {} });
  });
});
