import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { computeSignature } from '../webhook/signature.js';
import type { WebhookReceiver } from '../webhook/receiver.js';
import { formatListen, receiverOptionsFor, startOwnReceiver } from './own-receiver.js';

const SECRET = 'whsec_own_receiver_test';
let open: WebhookReceiver | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function config(flags: Record<string, unknown>) {
  return loadConfig({
    flags: { baseUrl: 'https://api.example.test/v1', partnerKey: `spk_live_${'ab'.repeat(24)}`, ...flags },
    env: {},
    cwd: '/nonexistent-dir',
    knownSuites: [],
  });
}

/** POSTs a validly signed delivery and returns the status and Location of the answer. */
function deliver(url: string, body: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-signature': computeSignature(SECRET, Buffer.from(body)) },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the receiver run starts for a target', () => {
  it('writes an IPv6 listen address in brackets, as the receiver parses it', () => {
    expect(formatListen({ host: '::1', port: 8787 })).toBe('[::1]:8787');
    expect(formatListen({ host: '127.0.0.1', port: 0 })).toBe('127.0.0.1:0');
    expect(receiverOptionsFor(config({ webhookListen: '[::1]:8787' }), SECRET).listen).toBe('[::1]:8787');
  });

  it('listens on [::1] when --webhook-listen says so (it once stopped the run with an internal error)', async () => {
    const own = await startOwnReceiver(config({ webhookListen: '[::1]:0' }), SECRET);
    open = own.receiver;
    expect(own.receiver.url).toMatch(/^http:\/\/\[::1\]:\d+\//);
    const answer = await deliver(own.receiver.url, '{"event":"run_completed"}');
    expect(answer.status).toBe(200);
  });

  it('points a planned 3xx at --webhook-public-url, not at the loopback address', async () => {
    const publicUrl = 'https://hooks.example.test/svc';
    const own = await startOwnReceiver(config({ webhookListen: '127.0.0.1:0', webhookPublicUrl: publicUrl }), SECRET);
    open = own.receiver;
    expect(own.publicUrl).toBe(publicUrl);
    own.receiver.planResponse(() => true, { status: 307 });
    const answer = await deliver(own.receiver.url, '{"event":"run_completed"}');
    expect(answer.status).toBe(307);
    expect(answer.location).toMatch(/^https:\/\/hooks\.example\.test\/svc\/svc-certify-redirect\//);
  });
});
