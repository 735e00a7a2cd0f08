// `svc-certify receiver` judged on real loopback receivers: a correct receiver passes every check;
// each conformant alternative passes; each single defect fails exactly the checks meant for it
// (its caughtBy and alsoCaughtBy, nothing else); and every check is named by some defect.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './support/self-signed.js';
import { vendorFile } from './support/vendor-file.js';
import { certifyReceiver } from '../src/receiver-cert/certify-receiver.js';
import { RECEIVER_CHECKS } from '../src/receiver-cert/receiver-checks.js';
import { envelopeIdsOf, type EnvelopeIds } from '../src/receiver-cert/deliveries.js';
import type { CheckResult } from '../src/runner/results.js';
import {
  ACKS,
  RECEIVER_FAULTS,
  RECEIVER_VARIANTS,
  startPartnerReceiver,
  type PartnerReceiverOptions,
} from './support/partner-receiver.js';

const SECRET = 'whsec_test_receiver_matrix_secret_0123456789';
/** Short acknowledgement time-out so that the times-out defect costs under a second. */
const ACK_MS = 800;

async function certify(
  opts: Partial<PartnerReceiverOptions> = {},
  extra: { insecure?: boolean; envelope?: EnvelopeIds } = {},
): Promise<CheckResult[]> {
  const receiver = await startPartnerReceiver({ secret: SECRET, slowMs: ACK_MS + 700, ...opts });
  try {
    return await certifyReceiver({
      url: receiver.url,
      secret: SECRET,
      allowPrivate: true,
      insecure: extra.insecure ?? false,
      ackTimeoutMs: ACK_MS,
      userAgent: 'svc-certify/test',
      ...(extra.envelope ? { envelope: extra.envelope } : {}),
    });
  } finally {
    await receiver.close();
  }
}

const failedIds = (results: CheckResult[]): string[] =>
  results
    .filter((r) => r.status === 'failed' || r.status === 'error')
    .map((r) => r.id)
    .sort();
const warnedIds = (results: CheckResult[]): string[] =>
  results
    .filter((r) => r.status === 'warning')
    .map((r) => r.id)
    .sort();
let caught = 0;

describe('receiver certification', () => {
  it('passes a correct receiver (the URL rule skipped under --allow-private)', async () => {
    const results = await certify();
    expect(failedIds(results)).toEqual([]);
    expect(warnedIds(results)).toEqual([]);
    expect(results.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual(['receiver.url-is-deliverable']);
    expect(results.filter((r) => r.status === 'passed')).toHaveLength(RECEIVER_CHECKS.length);
  });

  it.each(RECEIVER_VARIANTS.map((v) => [v.id, v.summary, v.warns ?? []] as const))(
    'passes the conformant variant %s (%s), warning only where it departs from a sentence without a MUST',
    async (id, _summary, warns) => {
      const results = await certify({ variants: [id] });
      expect(failedIds(results)).toEqual([]);
      expect(warnedIds(results)).toEqual([...warns].sort());
    },
  );

  // Deliveries name an organization the partner never connected unless told otherwise.
  describe('a receiver that refuses organizations and runs it does not know (404)', () => {
    const knows = { organizationExternalId: 'acme-42', runId: '22222222-2222-4222-8222-222222222222' };

    it('warns, never fails, with the default identifiers, and says how to judge it fully', async () => {
      const results = await certify({ knows });
      expect(failedIds(results)).toEqual([]);
      expect(warnedIds(results)).toEqual([...ACKS].sort());
      const warning = results.find((r) => r.id === 'receiver.acknowledges-run-completed')!.observations[0]!;
      expect(warning.severity).toBe('warning');
      expect(warning.message).toContain('reading taken');
      expect(warning.message).toContain('--org-external-id and --run-id');
    });

    it('passes with --org-external-id and --run-id naming what it knows', async () => {
      const envelope = envelopeIdsOf(knows.organizationExternalId, knows.runId) as EnvelopeIds;
      const results = await certify({ knows }, { envelope });
      expect(failedIds(results)).toEqual([]);
      expect(warnedIds(results)).toEqual([]);
    });

    it('an unknown event name still fails: with known identifiers, and without them when a known event is acknowledged', async () => {
      const envelope = envelopeIdsOf(knows.organizationExternalId, knows.runId) as EnvelopeIds;
      expect(failedIds(await certify({ knows, faults: ['rejects-unknown-event'] }, { envelope }))).toEqual([
        'receiver.acknowledges-unknown-event',
      ]);
      // Only the organization known: the run is still a stranger, so a 4xx keeps warning.
      const orgOnly = envelopeIdsOf(knows.organizationExternalId, undefined) as EnvelopeIds;
      expect(failedIds(await certify({ knows }, { envelope: orgOnly }))).toEqual([]);
    });

    it('a receiver that also checks the job of the run passes with --job-external-id, and fails without it', async () => {
      const withJob = { ...knows, jobExternalId: 'job-7' };
      const envelope = envelopeIdsOf(knows.organizationExternalId, knows.runId, 'job-7') as EnvelopeIds;
      const results = await certify({ knows: withJob }, { envelope });
      expect(failedIds(results)).toEqual([]);
      expect(warnedIds(results)).toEqual([]);
      // The run is the partner's, the job is not: the 404 is the receiver's own doing.
      const noJob = envelopeIdsOf(knows.organizationExternalId, knows.runId) as EnvelopeIds;
      // Every check whose delivery must be acknowledged fails on the 404; the refusals still pass.
      expect(failedIds(await certify({ knows: withJob }, { envelope: noJob }))).toEqual([
        'receiver.acknowledges-candidate-revealed-int64-id',
        'receiver.acknowledges-repeated-event-id',
        'receiver.acknowledges-run-completed',
        'receiver.acknowledges-run-failed',
        'receiver.acknowledges-unknown-event',
        'receiver.ignores-unknown-fields',
        'receiver.verifies-signature-over-raw-bytes',
      ]);
      expect(envelopeIdsOf('acme', undefined, 'job-7')).toMatchObject({
        error: expect.stringContaining('give that run with --run-id'),
      });
    });

    it('--run-id must be a uuid and --org-external-id not empty', () => {
      expect(envelopeIdsOf('acme', 'run-1')).toMatchObject({ error: expect.stringContaining('not a uuid') });
      expect(envelopeIdsOf('  ', undefined)).toMatchObject({
        error: expect.stringContaining('--org-external-id is empty'),
      });
      expect(envelopeIdsOf(undefined, undefined)).toEqual({ organizationExternalId: 'svc-certify-receiver-org' });
    });
  });

  it("the test receiver's own HMAC agrees with the known answers (RFC 4231 case 2: text key and data)", async () => {
    const { cases } = JSON.parse(readFileSync(vendorFile('vectors/hmac-sha256.json'), 'utf8')) as {
      cases: Array<{ name: string; key_hex: string; data_hex: string; hmac_sha256_hex: string }>;
    };
    const v = cases.find((c) => c.name.endsWith('case 2'))!;
    const receiver = await startPartnerReceiver({ secret: Buffer.from(v.key_hex, 'hex').toString('utf8') });
    try {
      const send = (hex: string): Promise<Response> =>
        fetch(receiver.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-svc-signature': `sha256=${hex}` },
          body: Buffer.from(v.data_hex, 'hex'),
        });
      // Past verification the body is not JSON (400); a wrong digest stops at verification (401).
      expect((await send(v.hmac_sha256_hex)).status).toBe(400);
      expect((await send(v.hmac_sha256_hex.replace(/^./, (c) => (c === '0' ? '1' : '0')))).status).toBe(401);
    } finally {
      await receiver.close();
    }
  });

  it('every check is named by a fault', () => {
    const named = new Set(RECEIVER_FAULTS.flatMap((f) => [f.caughtBy, ...(f.alsoCaughtBy ?? [])]));
    expect(RECEIVER_CHECKS.map((c) => c.id).filter((id) => !named.has(id))).toEqual([]);
  });

  it.concurrent.each(RECEIVER_FAULTS.map((f) => [f.id, f] as const))(
    'fault %s fails exactly the checks meant for it',
    async (_id, fault) => {
      const results = await certify({ faults: [fault.id] });
      expect(failedIds(results)).toEqual([fault.caughtBy, ...(fault.alsoCaughtBy ?? [])].sort());
      expect(warnedIds(results)).toEqual([...(fault.warns ?? [])].sort());
      caught += 1;
      // A failure carries the delivery, the answer and a curl that replays it with $SVC_WEBHOOK_SECRET.
      const failed = results.find((r) => r.id === fault.caughtBy)!;
      const ex = failed.exchanges[failed.observations[0]!.exchange!]!;
      expect(ex.request.body).toBeTruthy();
      expect(failed.observations[0]!.spec).toMatch(/^Events: "/);
      expect(ex.curl).toContain('curl');
      expect(JSON.stringify(results)).not.toContain(SECRET);
    },
  );

  it('replays a delivery with the curl of its report, the signature recomputed from $SVC_WEBHOOK_SECRET', async () => {
    const receiver = await startPartnerReceiver({ secret: SECRET });
    try {
      const results = await certifyReceiver({
        url: receiver.url,
        secret: SECRET,
        allowPrivate: true,
        insecure: false,
        userAgent: 'svc-certify/test',
        ids: ['receiver.acknowledges-run-completed', 'receiver.refuses-body-changed-after-signing-401'],
      });
      const valid = results.find((r) => r.id === 'receiver.acknowledges-run-completed')!.exchanges[0]!;
      const changed = results.find((r) => r.id === 'receiver.refuses-body-changed-after-signing-401')!.exchanges[0]!;
      expect(valid.curl).toContain('$SVC_WEBHOOK_SECRET');
      expect(valid.curl).not.toContain(SECRET);
      // Asynchronous: the receiver answers from this very process.
      const replay = async (script: string): Promise<string> =>
        (await promisify(execFile)('bash', ['-c', script], { env: { ...process.env, SVC_WEBHOOK_SECRET: SECRET } }))
          .stdout;
      // The same event again: accepted as a repeat, so the recomputed signature matched the bytes.
      expect(await replay(valid.curl ?? '')).toMatch(/^HTTP\/1\.1 200[\s\S]*"duplicate":true/);
      expect(await replay(changed.curl ?? '')).toMatch(/^HTTP\/1\.1 401/);
    } finally {
      await receiver.close();
    }
  });

  it('accepts a self-signed staging certificate only with --insecure', async () => {
    const tls = selfSignedCertificate();
    expect(failedIds(await certify({ tls }, { insecure: true }))).toEqual([]);
    // Without --insecure nothing is sent: a certificate this machine cannot verify is a usage error
    // naming both ways out, not thirteen failures repeating one TLS error.
    await expect(certify({ tls })).rejects.toThrow(/does not verify .*--insecure.*NODE_EXTRA_CA_CERTS/);
  });

  afterAll(() => {
    console.log(
      `receiver fault matrix: ${caught}/${RECEIVER_FAULTS.length} faults caught by exactly the checks meant for them; ${RECEIVER_VARIANTS.length} conformant variants pass`,
    );
  });
});

describe('hostile endpoints', () => {
  /** Every receiver check against whatever listens on the loopback port (a short acknowledgement time-out). */
  const certifyEndpoint = (port: number): Promise<CheckResult[]> =>
    certifyReceiver({
      url: `http://127.0.0.1:${port}/hook`,
      secret: SECRET,
      allowPrivate: true,
      insecure: false,
      ackTimeoutMs: 400,
      userAgent: 'svc-certify/test',
    });

  it('an endpoint that is down is a usage error (exit 2) before anything is judged', async () => {
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as import('node:net').AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(certifyEndpoint(port)).rejects.toMatchObject({
      name: 'ReceiverUnreachableError',
      message: expect.stringMatching(/receiver unreachable: http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED/),
    });
  });

  it.each([
    ['resets every connection', (socket: import('node:net').Socket) => socket.destroy()],
    ['answers garbage bytes', (socket: import('node:net').Socket) => socket.end('NOT HTTP AT ALL\r\n\r\n')],
    ['never answers', () => undefined],
  ])('an endpoint that %s gives failed checks with evidence, never a crash', async (_what, onConnection) => {
    const { createServer } = await import('node:net');
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      onConnection(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as import('node:net').AddressInfo).port;
    try {
      const results = await certifyEndpoint(port);
      const ack = results.find((r) => r.id === 'receiver.acknowledges-run-completed')!;
      expect(ack.status).toBe('failed');
      expect(ack.exchanges[0]!.transportError?.code).toBeTruthy();
      expect(results.some((r) => r.status === 'error')).toBe(false);
      // Nothing answered: no timing check passes on it, and no redirect can be seen (never a pass).
      expect(results.find((r) => r.id === 'receiver.answers-within-10-seconds')!.status).toBe('failed');
      expect(results.find((r) => r.id === 'receiver.never-redirects-a-delivery')).toMatchObject({
        status: 'skipped',
        skipKind: 'inconclusive',
      });
      expect(results.filter((r) => r.status === 'passed').map((r) => r.id)).toEqual([]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
