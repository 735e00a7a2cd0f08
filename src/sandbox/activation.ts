// Redeeming an activation code: shared by the HTTP route and the operator's provisioning.
import { ApiError, refusal, refuse, type RefusalSite } from './context.js';
import { hashSecret, newOrgToken, newUuid, normalizeCode } from './ids.js';
import type { Organization, Partner } from './store.js';

export const CODE_VALIDITY_MS = 14 * 86_400_000;

export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Redeems `input` for `partner`: each refusal of the spec (States and transitions › Activation code) is
 * made at the refusal point, where a fault may reword it or let the redemption through.
 */
export function redeemCode(
  at: RefusalSite,
  partner: Partner,
  input: string,
  externalId: string,
): { org: Organization; token: string } {
  const { store, config } = at.app;
  const faults = config.faults;
  const code = store.codes.get(normalizeCode(input));
  if (!code || code.partnerId !== partner.id)
    throw refusal(at, { cause: 'code-not-found' }, new ApiError(404, 'code_not_found'));
  // Found by the spec's normalization; a fault that normalizes less refuses it here.
  refuse(at, { cause: 'code-found', codeInput: input }, undefined);
  const now = at.app.now();
  if (code.redeemedAt !== undefined)
    refuse(
      at,
      { cause: 'code-already-redeemed' },
      new ApiError(409, 'code_already_redeemed', { redeemed_at: isoUtc(code.redeemedAt) }),
    );
  if (now >= code.expiresAt) refuse(at, { cause: 'code-expired' }, new ApiError(410, 'code_expired'));
  const externalIds = store.externalIdsOf(partner.id);
  if (externalIds.has(externalId)) {
    // Changes the stored code: the refused redemption consumes it.
    if (faults.has('activation.external-id-taken-burns-code')) code.redeemedAt = now;
    refuse(at, { cause: 'external-id-taken' }, new ApiError(409, 'external_id_taken'));
  }
  // Changes the stored token hash: the token is issued (and kept) in upper-case hex.
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
  // Changes the stored tokens: the issued token is never registered.
  if (!faults.has('activation.token-not-stored')) store.orgsByTokenHash.set(org.tokenHash, org);
  externalIds.set(externalId, org.id);
  config.log(`organization ${org.id} connected (token ${token.slice(0, 12)}…)`);
  return { org, token };
}
