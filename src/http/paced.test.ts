import { describe, expect, it } from 'vitest';
import type { Attempt, Send } from './exchange.js';
import { paced } from './paced.js';
import { createPacer } from './pacer.js';
import { createRequestControl } from './request-control.js';

const REQ = { method: 'GET', url: 'http://127.0.0.1:9/v1/x', headers: {} };
const attempt = (extra: Partial<Attempt> = {}): Attempt => ({
  control: createRequestControl(),
  timeoutMs: 1_000,
  ...extra,
});

describe('paced', () => {
  it('holds the slot until the answer is read, so the next request waits for it', async () => {
    // A budget of one per (long) window: the second request can go only when the first released.
    const pacer = createPacer({ ratePerMinute: 1, windowMs: 60_000, margin: 1 });
    const events: string[] = [];
    let finishFirst!: () => void;
    const send: Send = (req) =>
      new Promise((resolve) => {
        events.push(`sent ${req.url}`);
        if (req.url.endsWith('/first')) finishFirst = () => resolve({ startedAt: new Date(0), durationMs: 0 });
        else resolve({ startedAt: new Date(0), durationMs: 0 });
      });
    const layer = paced(pacer)(send);
    const first = layer({ ...REQ, url: 'http://127.0.0.1:9/v1/first' }, attempt());
    const second = attempt();
    const waiting = layer({ ...REQ, url: 'http://127.0.0.1:9/v1/second' }, second);
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['sent http://127.0.0.1:9/v1/first']);
    finishFirst();
    await first;
    // Released, the slot still counts for a window: the second request is still waiting; stop it.
    second.control.stop('aborted', 'the check was aborted');
    const out = await waiting;
    expect(events).toEqual(['sent http://127.0.0.1:9/v1/first']);
    expect(out.error).toEqual({ code: 'aborted', message: 'the check was aborted' });
    expect(out.incoming).toBeUndefined();
  });

  it('sends a burst request through burst(), not hold()', async () => {
    const calls: string[] = [];
    const pacer = {
      hold: async () => (calls.push('hold'), () => calls.push('release')),
      burst: async () => (calls.push('burst'), () => calls.push('release')),
      slowDown: () => ({ before: 1, after: 1 }),
    };
    const send: Send = async () => (calls.push('send'), { startedAt: new Date(0), durationMs: 0 });
    await paced(pacer)(send)(REQ, attempt({ unpaced: true }));
    await paced(pacer)(send)(REQ, attempt());
    expect(calls).toEqual(['burst', 'send', 'release', 'hold', 'send', 'release']);
  });
});
