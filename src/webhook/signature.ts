// The webhook signature: `x-svc-signature: sha256=<lowercase hex HMAC-SHA256(secret, raw body)>`.
// The spec fixes the exact spelling, so anything else (uppercase hex, no prefix) is refused.

import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';
const HEX_LENGTH = 64;

/** The secret is text in the configuration; key bytes are accepted for known-answer vectors. */
export type SigningKey = string | Uint8Array;

function hmac(secret: SigningKey, body: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** `sha256=` + lowercase hex HMAC-SHA256 of `body` keyed with `secret`. */
export function computeSignature(secret: SigningKey, body: Uint8Array): string {
  return PREFIX + hmac(secret, body).toString('hex');
}

export interface SignatureVerdict {
  valid: boolean;
  /** Why it was refused; never contains the secret or the expected value. */
  reason?: string;
}

/** Checks `header` against the body's signature; the digest comparison is constant time. */
export function verifySignature(secret: SigningKey, body: Uint8Array, header: string | undefined): SignatureVerdict {
  if (header === undefined || header === '') return { valid: false, reason: 'x-svc-signature header missing' };
  if (!header.startsWith(PREFIX)) return { valid: false, reason: `x-svc-signature does not start with "${PREFIX}"` };
  const hex = header.slice(PREFIX.length);
  if (/[A-F]/.test(hex) && /^[0-9a-fA-F]*$/.test(hex)) {
    return { valid: false, reason: 'x-svc-signature hex is not lowercase' };
  }
  if (!/^[0-9a-f]*$/.test(hex)) return { valid: false, reason: 'x-svc-signature is not hexadecimal after the prefix' };
  if (hex.length !== HEX_LENGTH) {
    return { valid: false, reason: `x-svc-signature has ${hex.length} hex digits, expected ${HEX_LENGTH}` };
  }
  // Only the format was checked so far, which reveals nothing about the secret; the digests
  // themselves are compared in constant time on equal-length buffers.
  const received = Buffer.from(hex, 'hex');
  if (!timingSafeEqual(received, hmac(secret, body))) {
    return { valid: false, reason: 'x-svc-signature does not match the body' };
  }
  return { valid: true };
}
