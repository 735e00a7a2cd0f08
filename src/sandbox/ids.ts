import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cyclic } from './must.js';

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function newUuid(): string {
  return randomUUID();
}

export function newPartnerKey(): string {
  return 'spk_live_' + randomBytes(24).toString('hex');
}

export function newOrgToken(): string {
  return 'sot_' + randomBytes(24).toString('hex');
}

export function newWebhookSecret(): string {
  return 'whsec_' + randomBytes(24).toString('hex');
}

/** `SVC-XXXX-XXXX`; rejection sampling keeps every letter of the alphabet equally likely. */
export function newActivationCode(): string {
  const chars: string[] = [];
  while (chars.length < 8) {
    for (const b of randomBytes(16)) {
      if (b < 248 && chars.length < 8) chars.push(cyclic(CODE_ALPHABET, b));
    }
  }
  return `SVC-${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** Case, spaces and dashes normalized: ` svc-abcd efgh ` → `SVCABCDEFGH`. */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s\-‐-―]+/g, '');
}

/** The stored form of a secret: only this irreversible hash is ever kept. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64');
}

/** What may be shown of a secret in logs and operator output. */
export function secretPrefix(secret: string): string {
  return secret.slice(0, 12);
}
