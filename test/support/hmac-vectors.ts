// The HMAC-SHA256 known answers of test/vendor/vectors (RFC 4231), read by the signature tests of both
// sides: the webhook signature the certifier verifies and the deliveries `svc-certify receiver` signs.

import { readFileSync } from 'node:fs';
import { vendorFile } from './vendor-file.js';

export interface HmacVector {
  name: string;
  key_hex: string;
  data_hex: string;
  hmac_sha256_hex: string;
}

export function hmacVectors(): HmacVector[] {
  return (JSON.parse(readFileSync(vendorFile('vectors/hmac-sha256.json'), 'utf8')) as { cases: HmacVector[] }).cases;
}
