// Authentication (Authentication: x-partner-key, x-svc-org; disabled partners and organizations). They act at
// the refusal point, where app.ts authenticates a request.
import { reword } from './reshape.js';
import { ApiError } from '../api-error.js';
import type { FaultDefinition } from './types.js';
import { onRefusal } from './points.js';

export const authFaults = [
  {
    id: 'auth.unknown-key-wrong-code',
    area: 'auth',
    summary: 'an unknown partner key answers 401 `invalid_org_token` instead of `invalid_partner_key`',
    caughtBy: 'auth.unknown-partner-key-refused-401',
    acts: {
      refusal: onRefusal('unknown-partner-key', (e) => (e ? reword(e, { code: 'invalid_org_token' }) : e)),
    },
  },
  {
    id: 'auth.missing-org-token-403',
    area: 'auth',
    summary: 'a missing org token answers 403 instead of 401',
    caughtBy: 'auth.missing-org-token-refused-401',
    acts: {
      refusal: onRefusal('no-org-token', (e) => (e ? reword(e, { status: 403 }) : e)),
    },
  },
  {
    id: 'auth.disabled-organization-served',
    area: 'auth',
    summary: 'a disabled organization is served instead of refused with 403 `organization_disabled`',
    caughtBy: 'auth.disabled-org-token-refused-403',
    acts: {
      refusal: onRefusal('organization-disabled', () => undefined),
    },
  },
  {
    id: 'auth.org-token-any-partner',
    area: 'auth',
    summary:
      "any enabled partner's key is accepted with any org token: a second partner reads and acts in the first partner's organization",
    caughtBy: 'auth.other-partner-key-isolated',
    acts: {
      refusal: onRefusal('other-partners-org', () => undefined),
    },
  },
  {
    id: 'auth.disabled-partner-401',
    area: 'auth',
    summary: 'a disabled partner answers 401 `invalid_partner_key` instead of 403 `partner_disabled`',
    caughtBy: 'auth.disabled-partner-key-refused-403',
    acts: {
      refusal: onRefusal('partner-disabled', (e) => (e ? reword(e, { status: 401, code: 'invalid_partner_key' }) : e)),
    },
  },
  {
    id: 'auth.missing-partner-key-403',
    area: 'auth',
    summary: 'a request without x-partner-key answers 403 instead of 401 `invalid_partner_key`',
    caughtBy: 'auth.missing-partner-key-refused-401',
    acts: {
      refusal: onRefusal('no-partner-key', (e) => (e ? reword(e, { status: 403 }) : e)),
    },
  },
  {
    id: 'auth.unknown-org-token-wrong-code',
    area: 'auth',
    summary: 'an org token the service never issued answers 401 `invalid_partner_key` instead of `invalid_org_token`',
    caughtBy: 'auth.unknown-org-token-refused-401',
    acts: {
      refusal: onRefusal('unknown-org-token', (e) => (e ? reword(e, { code: 'invalid_partner_key' }) : e)),
    },
  },
  {
    id: 'auth.redeem-demands-org-token',
    area: 'auth',
    summary: 'redeem without x-svc-org answers 401 `invalid_org_token`, though the partner key alone authenticates it',
    caughtBy: 'auth.redeem-needs-no-org-token',
    acts: {
      refusal: onRefusal({ cause: 'admitted', route: 'redeem' }, (e, f) =>
        !f.orgTokenGiven ? new ApiError(401, 'invalid_org_token') : e,
      ),
    },
  },
  {
    id: 'auth.jobs-unknown-key-403',
    area: 'auth',
    summary: 'POST /jobs alone answers an unknown partner key with 403 instead of 401',
    caughtBy: 'auth.unknown-partner-key-refused-401',
    acts: {
      refusal: onRefusal({ cause: 'unknown-partner-key', route: 'jobs' }, (e) => (e ? reword(e, { status: 403 }) : e)),
    },
  },
  {
    id: 'auth.decisions-missing-org-token-403',
    area: 'auth',
    summary: 'POST /runs/{run_id}/decisions alone answers a missing org token with 403 instead of 401',
    caughtBy: 'auth.missing-org-token-refused-401',
    acts: {
      refusal: onRefusal({ cause: 'no-org-token', route: 'decisions' }, (e) => (e ? reword(e, { status: 403 }) : e)),
    },
  },
] as const satisfies readonly FaultDefinition[];
