// Credentials of the right shape that no service issued: a partner key, an org token, an
// activation code (checks that a target refuses what it never issued).

import { randomBytes } from 'node:crypto';

/** A partner key of the right shape that no service issued. */
export function unknownPartnerKey(): string {
  return `spk_live_${randomBytes(24).toString('hex')}`;
}

/** An org token of the right shape that no service issued. */
export function unknownOrgToken(): string {
  return `sot_${randomBytes(24).toString('hex')}`;
}

const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A well-formed activation code nobody issued (1 in 31^8 chance of a clash). */
export function unknownActivationCode(): string {
  const pick = (): string => {
    let s = '';
    for (const b of randomBytes(4)) s += CODE_ALPHABET[b % CODE_ALPHABET.length];
    return s;
  };
  return `SVC-${pick()}-${pick()}`;
}
