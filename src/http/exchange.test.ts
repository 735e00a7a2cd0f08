import { describe, expect, it } from 'vitest';
import { compose } from './exchange.js';
import type { Layer, Send } from './exchange.js';
import { createRequestControl } from './request-control.js';

const REQ = { method: 'GET', url: 'http://127.0.0.1:1/v1/x', headers: {} };

describe('compose', () => {
  it('wraps the transport in the layers, the first listed outermost', async () => {
    const seen: string[] = [];
    const tag =
      (name: string): Layer =>
      (next) =>
      async (req, attempt) => {
        seen.push(`${name} in`);
        const out = await next(req, attempt);
        seen.push(`${name} out`);
        return out;
      };
    const transport: Send = async () => {
      seen.push('transport');
      return { startedAt: new Date(0), durationMs: 1 };
    };
    const out = await compose([tag('a'), tag('b')], transport)(REQ, { control: createRequestControl(), timeoutMs: 10 });
    expect(seen).toEqual(['a in', 'b in', 'transport', 'b out', 'a out']);
    expect(out.durationMs).toBe(1);
  });
});
