import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Outgoing } from './exchange.js';
import { createRequestControl } from './request-control.js';
import { loopbackServers } from './testing.js';
import { undiciSend } from './undici-send.js';

const servers = loopbackServers();
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  await servers.closeAll();
});

function transport(maxBodyBytes = 1024) {
  const agent = new Agent({ connections: 2 });
  agents.push(agent);
  return undiciSend(agent, maxBodyBytes);
}

const get = (base: string, path = '/x'): Outgoing => ({
  method: 'GET',
  url: `${base}${path}`,
  headers: { accept: 'application/json' },
});
const attempt = () => ({ control: createRequestControl(), timeoutMs: 5_000 });

describe('undici transport', () => {
  it('sends method, path, headers and body, and lower-cases and joins the answer headers', async () => {
    const base = await servers.http((req, res, body) => {
      res.setHeader('X-Repeated', ['a', 'b']);
      res.statusCode = 201;
      // Answered after 30 ms: the duration measures the exchange, not the call.
      setTimeout(
        () => res.end(JSON.stringify({ method: req.method, url: req.url, accept: req.headers.accept, body })),
        30,
      );
    });
    const out = await transport()(
      { method: 'POST', url: `${base}/runs?x=1`, headers: { accept: 'application/json' }, body: '{"a":1}' },
      attempt(),
    );
    expect(out.error).toBeUndefined();
    expect(out.incoming?.status).toBe(201);
    expect(out.incoming?.headers['x-repeated']).toBe('a, b');
    expect(JSON.parse(out.incoming?.bytes.toString() ?? '')).toEqual({
      method: 'POST',
      url: '/v1/runs?x=1',
      accept: 'application/json',
      body: '{"a":1}',
    });
    expect(out.incoming?.received).toBe(out.incoming?.bytes.length);
    expect(out.durationMs).toBeGreaterThanOrEqual(25);
  });

  it('stops reading past the size cap: body_too_large, with the first bytes as evidence', async () => {
    const base = await servers.http((_req, res) => {
      res.on('error', () => {});
      res.writeHead(200, { 'content-length': String(4096) });
      res.end(Buffer.alloc(4096, 'y'));
    });
    const out = await transport(1000)(get(base), attempt());
    expect(out.error).toEqual({ code: 'body_too_large', message: 'response body exceeds 1000 bytes; reading stopped' });
    expect(out.incoming?.status).toBe(200);
    expect(out.incoming?.bytes.toString()).toBe('y'.repeat(1000));
    expect(out.incoming?.received).toBeGreaterThan(1000);
  });

  it('keeps the bytes that came before a reset, with the status', async () => {
    const base = await servers.raw((s) => {
      s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"id":');
      setTimeout(() => s.destroy(), 20);
    });
    const out = await transport()(get(base), attempt());
    expect(out.error?.code).toBe('connection_reset');
    expect(out.incoming?.status).toBe(200);
    expect(out.incoming?.bytes.toString()).toBe('{"id":');
    expect(out.incoming?.received).toBe(6);
  });

  it('turns garbage into invalid_http and a stop into its reason, never an exception', async () => {
    const garbage = await servers.raw((s) => s.end('\x00\x01\xffgarbage\r\n\r\n'));
    const bad = await transport()(get(garbage), attempt());
    expect(bad.error?.code).toBe('invalid_http');
    expect(bad.incoming).toBeUndefined();

    const hanging = await servers.raw(() => {});
    const stopped = attempt();
    setTimeout(() => stopped.control.stop('closed', 'the HTTP engine was closed'), 30);
    expect((await transport()(get(hanging), stopped)).error).toEqual({
      code: 'closed',
      message: 'the HTTP engine was closed',
    });
  });
});
