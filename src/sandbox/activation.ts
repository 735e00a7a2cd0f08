// Redeeming an activation code: shared by the HTTP route and the operator's provisioning.
import { ApiError, type AppContext } from './context.js';
import { hashSecret, newOrgToken, newUuid, normalizeCode } from './ids.js';
import type { Organization, Partner } from './store.js';

export const CODE_VALIDITY_MS = 14 * 86_400_000;

export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}

/** ISO 8601 with a +03:00 offset: a valid timestamp that is not UTC (fault conventions.timestamp-not-utc). */
function isoPlus3(ms: number): string {
  return new Date(ms + 3 * 3_600_000).toISOString().replace('Z', '+03:00');
}

export function redeemCode(
  app: AppContext,
  partner: Partner,
  input: string,
  externalId: string,
): { org: Organization; token: string } {
  const { store, config } = app;
  const faults = config.faults;
  // The fault activation.surrounding-spaces-refused: a lookup that normalizes the code's inside only.
  const key = faults.has('activation.no-normalization')
    ? input.replace(/-/g, '')
    : faults.has('activation.surrounding-spaces-refused') && input !== input.trim()
      ? input
      : normalizeCode(input);
  const code = store.codes.get(key);
  if (!code || code.partnerId !== partner.id) {
    throw faults.has('activation.unknown-code-422')
      ? new ApiError(422, 'invalid_request', { field: 'code' })
      : new ApiError(404, 'code_not_found');
  }
  const now = app.now();
  if (code.redeemedAt !== undefined && !faults.has('activation.code-reusable')) {
    const redeemedAt = faults.has('conventions.timestamp-not-utc')
      ? isoPlus3(code.redeemedAt)
      : isoUtc(code.redeemedAt);
    throw new ApiError(
      409,
      'code_already_redeemed',
      faults.has('activation.redeemed-at-missing') ? {} : { redeemed_at: redeemedAt },
    );
  }
  if (now >= code.expiresAt && !faults.has('activation.expired-code-accepted')) throw new ApiError(410, 'code_expired');
  const externalIds = store.externalIdsOf(partner.id);
  if (externalIds.has(externalId) && !faults.has('activation.external-id-not-unique')) {
    if (faults.has('activation.external-id-taken-burns-code')) code.redeemedAt = now;
    throw new ApiError(409, 'external_id_taken');
  }
  const token = faults.has('activation.token-uppercase-hex')
    ? `sot_${newOrgToken().slice(4).toUpperCase()}`
    : newOrgToken();
  const org: Organization = {
    id: newUuid(),
    partnerId: partner.id,
    externalId,
    name: code.organizationName,
    tokenHash: hashSecret(token),
    enabled: true,
    walletBalance: config.initialWalletBalance,
    revealed: new Set(),
    revealVersion: 0,
    realRunStarts: [],
  };
  code.redeemedAt = now;
  store.organizations.set(org.id, org);
  if (!faults.has('activation.token-not-stored')) store.orgsByTokenHash.set(org.tokenHash, org);
  externalIds.set(externalId, org.id);
  config.log(`organization ${org.id} connected (token ${token.slice(0, 12)}…)`);
  return { org, token };
}
