import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listFaults, startSandbox, type RunningSandbox } from './index.js';
import { parseJson } from './json.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  const s = await startSandbox(opts);
  running.push(s);
  return s;
}

async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
) {
  const res = await fetch(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const text = await res.text();
  let json: any; // any: assertions index freely
  try {
    json = parseJson(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

interface Received {
  headers: IncomingMessage['headers'];
  body: Buffer;
}

async function receiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const r = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
  running.push(r);
  return r;
}

async function waitFor<T>(fn: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function connect(s: RunningSandbox, webhookUrl?: string) {
  const p = s.provision({ webhookUrl });
  const key = { 'x-partner-key': p.partner_key, 'content-type': 'application/json' };
  const org = await call(`${p.base_url}/activations/redeem`, {
    method: 'POST',
    headers: key,
    body: JSON.stringify({ code: p.activation_codes[0], external_id: 'acme' }),
  });
  const auth = { ...key, 'x-svc-org': org.json.org_token as string };
  await call(`${p.base_url}/users`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ external_id: 'rec', email: 'r@example.com', full_name: 'R', role: 'recruiter' }),
  });
  return { p, auth };
}

describe('startSandbox over real sockets', () => {
  it('provisions what a certifier needs, all of it working as described', async () => {
    const s = await sandbox();
    expect(s.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const p = s.provision();
    expect(p.base_url).toBe(s.baseUrl);
    expect(p.partner_key).toMatch(/^spk_live_[0-9a-f]{48}$/);
    expect(p.activation_codes.length).toBe(6);
    expect(new Set(p.activation_codes).size).toBe(6);
    const key = { 'x-partner-key': p.partner_key, 'content-type': 'application/json' };
    const expired = await call(`${p.base_url}/activations/redeem`, {
      method: 'POST',
      headers: key,
      body: JSON.stringify({ code: p.expired_code, external_id: 'e' }),
    });
    expect(expired.status).toBe(410);
    const disabledOrg = await call(`${p.base_url}/runs/x`, { headers: { ...key, 'x-svc-org': p.disabled_org_token } });
    expect([disabledOrg.status, disabledOrg.json.error]).toEqual([403, 'organization_disabled']);
    const disabledPartner = await call(`${p.base_url}/runs/x`, {
      headers: { 'x-partner-key': p.disabled_partner_key, 'x-svc-org': p.disabled_org_token },
    });
    expect([disabledPartner.status, disabledPartner.json.error]).toEqual([403, 'partner_disabled']);
    expect(disabledPartner.headers.get('x-svc-environment')).toBe('sandbox');
  });

  it('answers bad input with a 4xx envelope: 413, malformed JSON, unknown route, wrong method', async () => {
    const s = await sandbox();
    const { p, auth } = await connect(s);
    const big = await call(`${p.base_url}/users`, {
      method: 'POST',
      headers: auth,
      body: Buffer.alloc(1024 * 1024 + 1, 0x61),
    });
    expect(big.status).toBe(413);
    expect(big.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const malformed = await call(`${p.base_url}/runs`, { method: 'POST', headers: auth, body: '{"job_external_id":' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toBeTypeOf('string');
    expect((await call(`${p.base_url}/nope`, { headers: auth })).status).toBe(404);
    expect((await call(`${s.baseUrl.replace('/v1', '')}/`, {})).status).toBe(404);
    expect((await call(`${p.base_url}/runs`, { method: 'DELETE', headers: auth })).status).toBe(405);
    const fine = await call(`${p.base_url}/users`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ external_id: 'after' }),
    });
    expect(fine.status).toBe(200);
  });

  it('serializes candidate ids as exact integer tokens', async () => {
    const s = await sandbox();
    const { p, auth } = await connect(s);
    const start = await call(`${p.base_url}/runs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ job_external_id: 'cert-notices-all', acting_user_external_id: 'rec', target_count: 1 }),
    });
    const read = await call(`${p.base_url}/runs/${start.json.run_id}`, { headers: auth });
    expect(read.text).toContain('"id":990000000001,');
  });

  it('queues the test webhook and cert-webhook run_completed, signed with the webhook secret', async () => {
    const hook = await receiver();
    const s = await sandbox({ allowLoopbackWebhooks: true });
    const { p, auth } = await connect(s, hook.url);
    const test = await call(`${p.base_url}/sandbox/webhooks/test`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ event: 'candidate_revealed' }),
    });
    expect(test.status).toBe(202);
    expect(test.json).toMatchObject({ event: 'candidate_revealed', valid_signature: true });
    expect(test.json.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call(`${p.base_url}/runs/${test.json.run_id}`, { headers: auth })).status).toBe(404);
    const got = await waitFor(() => hook.received.find((r) => r.body.toString().includes(test.json.event_id)));
    const sig = 'sha256=' + createHmac('sha256', p.webhook_secret).update(got.body).digest('hex');
    expect(got.headers['x-svc-signature']).toBe(sig);
    expect(got.headers['x-svc-environment']).toBe('sandbox');
    const env = parseJson(got.body.toString()) as Record<string, unknown>;
    expect(env).toMatchObject({
      event: 'candidate_revealed',
      job_external_id: 'cert-webhook',
      organization_external_id: 'acme',
      candidate_id: 990000000001,
    });

    const run = await call(`${p.base_url}/runs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ job_external_id: 'cert-webhook', acting_user_external_id: 'rec', target_count: 3 }),
    });
    const done = await waitFor(() => hook.received.find((r) => r.body.toString().includes(run.json.run_id)));
    expect(parseJson(done.body.toString())).toMatchObject({
      event: 'run_completed',
      progress: { confirmed: 3, target: 3 },
    });
    const bad = await call(`${p.base_url}/sandbox/webhooks/test`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ event: 'run_exploded' }),
    });
    expect([bad.status, bad.json.error]).toEqual([422, 'invalid_request']);
    const badFlag = await call(`${p.base_url}/sandbox/webhooks/test`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ event: 'run_failed', valid_signature: 'no' }),
    });
    expect(badFlag.status).toBe(422);
  });

  it('409 webhook_not_configured; refuses a private webhook URL unless loopback is allowed', async () => {
    const s = await sandbox();
    const { p, auth } = await connect(s);
    const r = await call(`${p.base_url}/sandbox/webhooks/test`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ event: 'run_failed' }),
    });
    expect([r.status, r.json.error]).toEqual([409, 'webhook_not_configured']);
    const partnerId = s.operator.partnerIdForKey(p.partner_key)!;
    expect(() => s.operator.setWebhookUrl(partnerId, 'http://127.0.0.1:9/hook')).toThrow(/refused/);
    expect(() => s.operator.setWebhookUrl(partnerId, 'https://10.1.2.3/hook')).toThrow(/refused/);
    s.operator.setWebhookUrl(partnerId, 'https://hooks.example.com/svc');
  });

  it('refuses unknown fault ids and lists every fault', async () => {
    await expect(startSandbox({ faults: ['no.such-fault'] })).rejects.toThrow(/unknown fault/);
    const faults = listFaults();
    expect(faults.filter((f) => f.area !== 'webhooks' && f.area !== 'engine').length).toBeGreaterThanOrEqual(18);
    expect(new Set(faults.map((f) => f.id)).size).toBe(faults.length);
  });

  it('production mode answers without x-svc-environment and hides the sandbox route', async () => {
    const s = await sandbox({ mode: 'production' });
    const { p, auth } = await connect(s);
    const r = await call(`${p.base_url}/sandbox/webhooks/test`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ event: 'run_failed' }),
    });
    expect([r.status, r.json.error]).toEqual([404, 'not_found']);
    expect(r.headers.get('x-svc-environment')).toBeNull();
  });
});
