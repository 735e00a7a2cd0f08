import { describe, expect, it } from 'vitest';
import { cancellable, createStopGroup, stopGroupOf } from './cancellation.js';
import type { Attempt, Exchanged, Send } from './exchange.js';
import { createRequestControl } from './request-control.js';

const REQ = { method: 'GET', url: 'http://127.0.0.1:9/v1/x', headers: {} };

/** A transport that answers only when its request is stopped, with the error the stop means. */
function untilStopped(): { send: Send; started: Promise<void> } {
  let began!: () => void;
  const started = new Promise<void>((resolve) => (began = resolve));
  const send: Send = ({}, { control }: Attempt) =>
    new Promise<Exchanged>((resolve) => {
      began();
      const end = () =>
        resolve({ error: control.errorOf(control.signal.reason), startedAt: new Date(0), durationMs: 0 });
      if (control.signal.aborted) end();
      else control.signal.addEventListener('abort', end, { once: true });
    });
  return { send, started };
}

const attempt = (): Attempt => ({ control: createRequestControl(), timeoutMs: 1_000 });

describe('stop groups', () => {
  it('stop a request in flight when the check aborts, with the reason', async () => {
    const check = new AbortController();
    const { send, started } = untilStopped();
    const pending = cancellable([stopGroupOf(check.signal), createStopGroup()])(send)(REQ, attempt());
    await started;
    check.abort();
    expect((await pending).error).toEqual({ code: 'aborted', message: 'the check was aborted' });
  });

  it('stop a request joining a group already stopped, the group listed first winning', async () => {
    const check = new AbortController();
    check.abort();
    const engine = createStopGroup();
    engine.stopAll('closed');
    expect(
      (await cancellable([stopGroupOf(check.signal), engine])(untilStopped().send)(REQ, attempt())).error?.code,
    ).toBe('aborted');
    expect((await cancellable([stopGroupOf(undefined), engine])(untilStopped().send)(REQ, attempt())).error).toEqual({
      code: 'closed',
      message: 'the HTTP engine was closed',
    });
  });

  it('forget a request once it ended: a later stop does not reach it', async () => {
    const engine = createStopGroup();
    const done = attempt();
    await cancellable([engine])(async () => ({ startedAt: new Date(0), durationMs: 0 }))(REQ, done);
    engine.stopAll('closed');
    expect(done.control.signal.aborted).toBe(false);
    expect(engine.stopped).toBe('closed');
  });
});
