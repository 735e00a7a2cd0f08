// Redeeming activation codes (Endpoints › POST /activations/redeem, States and transitions › Activation code).
// Refusals act at the refusal point of activation.ts; what a redemption stores (the code, the token) is
// switched there.
import { ApiError } from '../api-error.js';
import { normalizeCode } from '../ids.js';
import { reword } from './reshape.js';
import type { FaultDefinition } from './types.js';
import { onRefusal } from './points.js';

export const activationFaults = [
  {
    id: 'activation.no-normalization',
    area: 'activation',
    summary: 'a lower-case code with spaces is not normalized and gives 404 `code_not_found`',
    caughtBy: 'activation.normalizes-code-input',
    acts: {
      refusal: onRefusal('code-found', (e, f) =>
        f.codeInput !== undefined && f.codeInput.replace(/-/g, '') !== normalizeCode(f.codeInput)
          ? new ApiError(404, 'code_not_found')
          : e,
      ),
    },
  },
  {
    id: 'activation.code-reusable',
    area: 'activation',
    summary: 'a redeemed code can be redeemed again and issues a new token',
    caughtBy: 'activation.already-redeemed-409',
    acts: {
      refusal: onRefusal('code-already-redeemed', () => undefined),
    },
  },
  {
    id: 'activation.external-id-taken-burns-code',
    area: 'activation',
    summary: '`409 external_id_taken` consumes the code',
    caughtBy: 'activation.external-id-taken-keeps-code',
  },
  {
    id: 'activation.redeemed-at-missing',
    area: 'activation',
    summary: '`409 code_already_redeemed` lacks `redeemed_at`',
    caughtBy: 'activation.already-redeemed-409',
    acts: {
      refusal: onRefusal('code-already-redeemed', (e) => (e ? reword(e, { extra: {} }) : e)),
    },
  },
  {
    id: 'activation.token-uppercase-hex',
    area: 'activation',
    summary: 'the issued `org_token` is `sot_` + 48 upper-case hex',
    caughtBy: 'activation.connects-organization',
  },
  {
    id: 'activation.token-not-stored',
    area: 'activation',
    summary: 'the `org_token` returned by redeem is never registered, so it answers 401 `invalid_org_token`',
    caughtBy: 'activation.connects-organization',
  },
  {
    id: 'activation.external-id-not-unique',
    area: 'activation',
    summary: 'an `external_id` already used by another organization of the partner is accepted',
    caughtBy: 'activation.external-id-taken-keeps-code',
    acts: {
      refusal: onRefusal('external-id-taken', () => undefined),
    },
  },
  {
    id: 'activation.unknown-code-422',
    area: 'activation',
    summary: 'a well-formed unknown code answers 422 `invalid_request` instead of 404 `code_not_found`',
    caughtBy: 'activation.unknown-code-404',
    acts: {
      refusal: onRefusal('code-not-found', () => new ApiError(422, 'invalid_request', { field: 'code' })),
    },
  },
  {
    id: 'activation.expired-code-accepted',
    area: 'activation',
    summary: 'an expired code is redeemed instead of refused with 410 `code_expired`',
    caughtBy: 'activation.expired-code-410',
    acts: {
      refusal: onRefusal('code-expired', () => undefined),
    },
  },
  {
    id: 'activation.surrounding-spaces-refused',
    area: 'activation',
    summary:
      'a code with spaces before or after it answers 404 `code_not_found` (inner spaces, dashes and case are still normalized)',
    caughtBy: 'activation.code-surrounding-spaces-accepted',
    acts: {
      // A lookup that normalizes the code's inside only.
      refusal: onRefusal('code-found', (e, f) =>
        f.codeInput !== undefined && f.codeInput !== f.codeInput.trim() ? new ApiError(404, 'code_not_found') : e,
      ),
    },
  },
] as const satisfies readonly FaultDefinition[];
