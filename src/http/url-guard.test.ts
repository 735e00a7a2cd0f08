import { describe, expect, it } from 'vitest';
import type { Send } from './exchange.js';
import { createRequestControl } from './request-control.js';
import { requireValidUrl } from './url-guard.js';

describe('requireValidUrl', () => {
  const reached: string[] = [];
  const next: Send = async (req) => {
    reached.push(req.url);
    return { startedAt: new Date(0), durationMs: 3 };
  };
  const send = requireValidUrl(next);
  const attempt = () => ({ control: createRequestControl(), timeoutMs: 100 });

  it('refuses a URL that does not parse without passing it on', async () => {
    reached.length = 0;
    const out = await send({ method: 'GET', url: 'not a url/v1/x', headers: {} }, attempt());
    expect(out.error?.code).toBe('invalid_request');
    expect(out.error?.message).toMatch(/^invalid URL: /);
    expect(out.durationMs).toBe(0);
    expect(reached).toEqual([]);
  });

  it('passes a valid URL on untouched', async () => {
    reached.length = 0;
    const out = await send({ method: 'GET', url: 'http://127.0.0.1:9/v1/x', headers: {} }, attempt());
    expect(out).toEqual({ startedAt: new Date(0), durationMs: 3 });
    expect(reached).toEqual(['http://127.0.0.1:9/v1/x']);
  });
});
