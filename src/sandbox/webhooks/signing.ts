import { createHmac } from 'node:crypto';

/** `sha256=` + lowercase hex HMAC-SHA256 of exactly these bytes (spec: Events, Signature). */
export function signBody(secret: string | Uint8Array, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
