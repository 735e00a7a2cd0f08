import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Attempt, Exchanged, Send } from './exchange.js';
import { createRequestControl } from './request-control.js';
import { timeOut } from './time-out.js';

const REQ = { method: 'GET', url: 'http://127.0.0.1:9/v1/x', headers: {} };

afterEach(() => {
  vi.useRealTimers();
});

describe('timeOut', () => {
  it('stops the request once its time is up, naming the limit', async () => {
    vi.useFakeTimers();
    const hang: Send = ({}, { control }: Attempt) =>
      new Promise<Exchanged>((resolve) =>
        control.signal.addEventListener(
          'abort',
          () => resolve({ error: control.errorOf(control.signal.reason), startedAt: new Date(0), durationMs: 0 }),
          {
            once: true,
          },
        ),
      );
    const pending = timeOut(hang)(REQ, { control: createRequestControl(), timeoutMs: 250 });
    await vi.advanceTimersByTimeAsync(249);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).error).toEqual({ code: 'timeout', message: 'no complete response within 250 ms' });
  });

  it('disarms its timer when the answer came in time', async () => {
    vi.useFakeTimers();
    const control = createRequestControl();
    await timeOut(async () => ({ startedAt: new Date(0), durationMs: 0 }))(REQ, { control, timeoutMs: 250 });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(control.signal.aborted).toBe(false);
  });
});
