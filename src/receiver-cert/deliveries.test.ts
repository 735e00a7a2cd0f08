// The signatures `svc-certify receiver` sends, and the shell pipeline its curl reproductions use,
// against the HMAC-SHA256 known answers of test/vendor/vectors (RFC 4231).

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hmacVectors } from '../../test/support/hmac-vectors.js';
import { parseJsonLossless } from '../json/lossless.js';
import { bodyChangedDelivery, bodies, DEFAULT_IDS, LARGE_CANDIDATE_ID, signedHeaders } from './deliveries.js';
import { hmacShell } from './replay-curl.js';

const vectors = hmacVectors();
/** The vectors whose key and data are text, as a webhook secret and a JSON body are. */
const textVectors = vectors.filter(
  (v) => /^(?:[2-7][0-9a-f])+$/.test(v.key_hex) && /^(?:[2-7][0-9a-f])+$/.test(v.data_hex),
);
const text = (hex: string): string => Buffer.from(hex, 'hex').toString('utf8');

describe('delivery signatures', () => {
  it('has a text vector to test the shell pipeline with', () => {
    expect(textVectors.length).toBeGreaterThan(0);
  });

  it.each(textVectors.map((v) => [v.name, v] as const))('signs as the known answer says: %s', (_name, v) => {
    const headers = signedHeaders(text(v.key_hex), text(v.data_hex), { kind: 'valid' });
    expect(headers['x-svc-signature']).toBe(`sha256=${v.hmac_sha256_hex}`);
    expect(headers['content-type']).toBe('application/json');
    expect(
      signedHeaders(text(v.key_hex), text(v.data_hex), { kind: 'truncated', hexDigits: 32 })['x-svc-signature'],
    ).toBe(`sha256=${v.hmac_sha256_hex.slice(0, 32)}`);
    expect(signedHeaders(text(v.key_hex), text(v.data_hex), { kind: 'none' })['x-svc-signature']).toBeUndefined();
    expect(signedHeaders(text(v.key_hex), text(v.data_hex), { kind: 'wrong-secret' })['x-svc-signature']).not.toBe(
      `sha256=${v.hmac_sha256_hex}`,
    );
  });

  it.each(textVectors.map((v) => [v.name, v] as const))(
    'the curl pipeline recomputes the known answer from $SVC_WEBHOOK_SECRET: %s',
    async (_name, v) => {
      const script = `body='${text(v.data_hex).replace(/'/g, `'\\''`)}'\n${hmacShell('body', '"$SVC_WEBHOOK_SECRET"')}`;
      const { stdout } = await promisify(execFile)('bash', ['-c', script], {
        env: { ...process.env, SVC_WEBHOOK_SECRET: text(v.key_hex) },
      });
      expect(stdout.trim()).toBe(v.hmac_sha256_hex);
    },
  );

  it('writes the candidate_id above 2^53 exactly, and changes the body after signing', () => {
    expect(bodies.candidateRevealed('e1')).toContain(`"candidate_id":${LARGE_CANDIDATE_ID}`);
    expect(BigInt(LARGE_CANDIDATE_ID)).toBe(2n ** 53n + 1n);
    const d = bodyChangedDelivery('s3cret');
    expect(d.signature.kind).toBe('body-changed');
    if (d.signature.kind === 'body-changed') {
      expect(d.body).not.toBe(d.signature.signedBody);
      expect(d.headers['x-svc-signature']).toBe(
        signedHeaders('s3cret', d.signature.signedBody, { kind: 'valid' })['x-svc-signature'],
      );
    }
    // The unusual body means the same as the compact one: the same fields with the same values, the
    // int64 included, only the run id and the instant (fresh per body) aside.
    const ids = { ...DEFAULT_IDS, runId: '6f1c1d0e-9a43-4d2b-8b1e-0c4c1f6f7a10' };
    const sameness = (text: string) => {
      const { occurred_at: at, ...rest } = parseJsonLossless(text) as Record<string, unknown>;
      expect(at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      return rest;
    };
    expect(sameness(bodies.unusualFormatting('e2', ids))).toEqual(sameness(bodies.candidateRevealed('e2', ids)));
    expect(sameness(bodies.unusualFormatting('e2', ids))).toMatchObject({ candidate_id: 2n ** 53n + 1n });
  });
});
