import { describe, expect, test } from 'vitest';
import { computeSignature, verifySignature } from './signature.js';
import { hmacVectors } from '../../test/support/hmac-vectors.js';

const vectors = hmacVectors();

// Computed once, independently, with:
//   printf '%s' '{"event_id":"evt_0001","event":"run_completed"}' | openssl dgst -sha256 -hmac 'whsec_certify_fixed_test_secret'
const OWN_SECRET = 'whsec_certify_fixed_test_secret';
const OWN_BODY = Buffer.from('{"event_id":"evt_0001","event":"run_completed"}');
const OWN_SIGNATURE = 'sha256=d46e09774c76c90c04027e78864762b1e10026f50888c13e5742a1ac6543635d';

describe('computeSignature', () => {
  test.each(vectors.map((v) => [v.name, v] as const))('%s (RFC 4231)', (_name, v) => {
    const key = Buffer.from(v.key_hex, 'hex');
    const data = Buffer.from(v.data_hex, 'hex');
    expect(computeSignature(key, data)).toBe(`sha256=${v.hmac_sha256_hex}`);
    expect(verifySignature(key, data, `sha256=${v.hmac_sha256_hex}`)).toEqual({ valid: true });
  });

  test('a string secret, as configured, against openssl', () => {
    expect(computeSignature(OWN_SECRET, OWN_BODY)).toBe(OWN_SIGNATURE);
    expect(verifySignature(OWN_SECRET, OWN_BODY, OWN_SIGNATURE)).toEqual({ valid: true });
  });
});

describe('verifySignature refuses', () => {
  const refused = (header: string | undefined, body: Uint8Array = OWN_BODY) => {
    const verdict = verifySignature(OWN_SECRET, body, header);
    expect(verdict.valid).toBe(false);
    expect(verdict.reason).toBeTruthy();
    return verdict.reason ?? '';
  };

  test('a flipped bit in the signature', () => {
    const last = OWN_SIGNATURE.at(-1) === 'd' ? 'c' : 'd';
    expect(refused(OWN_SIGNATURE.slice(0, -1) + last)).toMatch(/does not match/);
  });

  test('a flipped bit in the body', () => {
    const body = Buffer.from(OWN_BODY);
    body.writeUInt8(body.readUInt8(0) ^ 0x01, 0);
    expect(refused(OWN_SIGNATURE, body)).toMatch(/does not match/);
  });

  test('a truncated hex', () => {
    expect(refused(OWN_SIGNATURE.slice(0, -2))).toMatch(/62 hex digits/);
  });

  test('an uppercase hex', () => {
    expect(refused(`sha256=${OWN_SIGNATURE.slice(7).toUpperCase()}`)).toMatch(/lowercase/);
  });

  test('a missing sha256= prefix', () => {
    expect(refused(OWN_SIGNATURE.slice(7))).toMatch(/sha256=/);
    expect(refused(`SHA256=${OWN_SIGNATURE.slice(7)}`)).toMatch(/sha256=/);
  });

  test('a missing or empty header', () => {
    expect(refused(undefined)).toMatch(/missing/);
    expect(refused('')).toMatch(/missing/);
  });

  test('non-hex and two joined headers', () => {
    expect(refused(`sha256=${'z'.repeat(64)}`)).toMatch(/not hexadecimal/);
    expect(refused(`${OWN_SIGNATURE}, ${OWN_SIGNATURE}`)).toMatch(/not hexadecimal/);
  });

  test('the right signature under another secret', () => {
    expect(verifySignature('another-secret', OWN_BODY, OWN_SIGNATURE).valid).toBe(false);
  });

  test('reasons never contain the secret or the expected signature', () => {
    const reason = refused(`sha256=${'0'.repeat(64)}`);
    expect(reason).not.toContain(OWN_SECRET.slice(0, 8));
    expect(reason).not.toContain(OWN_SIGNATURE.slice(7, 19));
  });
});
