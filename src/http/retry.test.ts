import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../config/redact.js';
import { createHttpEngine } from './client.js';
import type { HttpEngine } from './client.js';
import { requestWithSpecRetry, retryAfterMs } from './retry.js';
import type { ApiResponse } from './types.js';

const KEY = 'spk_live_' + '0'.repeat(48);
let engine: HttpEngine | undefined;
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await engine?.close();
  await close?.();
});

/** A server answering with the given statuses in turn (the last one repeats). */
async function scripted(answers: Array<{ status: number; headers?: Record<string, string> }>) {
  let hits = 0;
  const server = createServer((_req, res) => {
    const answer = answers[Math.min(hits++, answers.length - 1)];
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end('{"error":"x","message":"y"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  close = () => new Promise((r) => server.close(() => r()));
  engine = createHttpEngine({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    partnerKey: KEY,
    orgToken: () => undefined,
    redactor: createRedactor([]),
    ratePerMinute: 6000,
    timeScale: 1,
  });
  return { api: engine.client(() => {}), hits: () => hits };
}

function run(api: ReturnType<HttpEngine['client']>, timeScale = 1) {
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  return requestWithSpecRetry(api, { method: 'GET', path: '/runs/r1' }, { timeScale, sleep }).then((r) => ({ ...r, waits }));
}

describe('requestWithSpecRetry', () => {
  it('tries a 503 three times with 1 s then 2 s of backoff (÷ time scale)', async () => {
    const { api, hits } = await scripted([{ status: 503 }]);
    const { responses, waits } = await run(api, 10);
    expect(responses.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(waits).toEqual([100, 200]);
    expect(hits()).toBe(3);
  });

  it('stops at the first success', async () => {
    const { api } = await scripted([{ status: 503 }, { status: 200 }]);
    const { responses, waits } = await run(api);
    expect(responses.map((r) => r.status)).toEqual([503, 200]);
    expect(waits).toEqual([1000]);
  });

  it('honours Retry-After on 429 when it asks for longer than the backoff', async () => {
    const { api } = await scripted([{ status: 429, headers: { 'retry-after': '5' } }, { status: 429, headers: { 'retry-after': '0' } }, { status: 200 }]);
    const { responses, waits } = await run(api, 2);
    expect(responses.map((r) => r.status)).toEqual([429, 429, 200]);
    expect(waits).toEqual([2500, 1000]);
  });

  it.each([401, 403, 404, 409, 410, 422, 400])('never retries a %i', async (status) => {
    const { api, hits } = await scripted([{ status }]);
    const { responses, waits } = await run(api);
    expect(responses).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(hits()).toBe(1);
  });

  it('retries when no answer came at all', async () => {
    const { api } = await scripted([{ status: 200 }]);
    await engine?.close();
    const { responses } = await run(api);
    expect(responses.map((r) => r.transportError?.code)).toEqual(['closed', 'closed', 'closed']);
  });

  it('waits for real when no sleep is given', async () => {
    const { api } = await scripted([{ status: 500 }]);
    const t0 = performance.now();
    const { responses } = await requestWithSpecRetry(api, { method: 'GET', path: '/x' }, { timeScale: 20 });
    expect(responses).toHaveLength(3);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
  });
});

describe('retryAfterMs', () => {
  const res = (value?: string) => ({ headers: value === undefined ? {} : { 'retry-after': value } }) as unknown as ApiResponse;
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs(res('30'))).toBe(30_000);
    expect(retryAfterMs(res(new Date(10_000).toUTCString()), 4_000)).toBe(6_000);
    expect(retryAfterMs(res('soon'))).toBeUndefined();
    expect(retryAfterMs(res())).toBeUndefined();
  });
});
