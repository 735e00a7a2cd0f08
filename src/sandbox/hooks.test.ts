// The embedder hooks over real sockets: every exchange and delivery attempt is observed, a simulated
// answer executes nothing, a dropped answer leaves the request's effect standing, a replaced one is sent.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxObservation } from './hooks.js';
import { startSandbox, type RunningSandbox, type SandboxHooks } from './index.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function sandbox(hooks: SandboxHooks): Promise<RunningSandbox> {
  const s = await startSandbox({ hooks, allowLoopbackWebhooks: true, timeScale: 100 });
  open.push(s);
  return s;
}

const headers = (key: string, token?: string) => ({
  'x-partner-key': key,
  'content-type': 'application/json',
  ...(token ? { 'x-svc-org': token } : {}),
});

describe('sandbox hooks', () => {
  it('observe sees each exchange; simulate answers 429 with the chosen Retry-After and stores nothing', async () => {
    const seen: SandboxObservation[] = [];
    const s = await sandbox({
      observe: (o) => seen.push(o),
      simulate: (req) =>
        req.route === 'users' && req.id === 2 ? { simulate: 'rate_limited', retryAfterSeconds: 3 } : undefined,
    });
    const p = s.provision();
    const org = s.operator.connectOrganization(s.operator.partnerIdForKey(p.partner_key)!, 'c1');
    const body = JSON.stringify({ external_id: 'u1', email: 'u@example.com', full_name: 'U', role: 'recruiter' });
    const first = await fetch(`${s.baseUrl}/users`, {
      method: 'POST',
      headers: headers(p.partner_key, org.orgToken),
      body,
    });
    expect(first.status).toBe(200);
    const limited = await fetch(`${s.baseUrl}/users`, {
      method: 'POST',
      headers: headers(p.partner_key, org.orgToken),
      body,
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    const exchanges = seen.filter((o) => o.kind === 'exchange');
    expect(exchanges.map((o) => [o.request.id, o.status, o.simulated])).toEqual([
      [1, 200, false],
      [2, 429, true],
    ]);
  });

  it('deliver: drop cuts the connection after the redemption took effect; replace sends the new answer', async () => {
    const seen: SandboxObservation[] = [];
    const s = await sandbox({
      observe: (o) => seen.push(o),
      deliver: (req, res) =>
        req.id === 1 ? 'drop' : req.method === 'GET' ? { replace: { ...res, status: 299 } } : 'send',
    });
    const p = s.provision();
    const redeem = () =>
      fetch(`${s.baseUrl}/activations/redeem`, {
        method: 'POST',
        headers: headers(p.partner_key),
        body: JSON.stringify({ code: p.activation_codes[0], external_id: 'c1' }),
      });
    await expect(redeem()).rejects.toThrow();
    // The lost answer's redemption stands: the code is spent.
    const again = await redeem();
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe('code_already_redeemed');
    const exchange = seen.find((o) => o.kind === 'exchange');
    expect(exchange?.kind === 'exchange' && exchange.dropped && exchange.status === 200).toBe(true);
    const read = await fetch(`${s.baseUrl}/runs/nope`, { headers: headers(p.partner_key) });
    expect(read.status).toBe(299);
  });

  it('observe sees each webhook delivery attempt with its answer', async () => {
    const seen: SandboxObservation[] = [];
    const server = createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((done) => server.close(() => done())) });
    const s = await sandbox({ observe: (o) => seen.push(o) });
    const p = s.provision({ webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/h` });
    const org = s.operator.connectOrganization(s.operator.partnerIdForKey(p.partner_key)!, 'c1');
    const res = await fetch(`${s.baseUrl}/sandbox/webhooks/test`, {
      method: 'POST',
      headers: headers(p.partner_key, org.orgToken),
      body: JSON.stringify({ event: 'run_completed', valid_signature: false }),
    });
    expect(res.status).toBe(202);
    const until = Date.now() + 5000;
    while (!seen.some((o) => o.kind === 'webhook-attempt') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 10));
    const attempt = seen.find((o) => o.kind === 'webhook-attempt');
    expect(
      attempt?.kind === 'webhook-attempt' &&
        attempt.wrongSignature &&
        attempt.status === 401 &&
        attempt.event === 'run_completed',
    ).toBe(true);
  });
});
