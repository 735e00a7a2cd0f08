// Authentication (Authentication: x-partner-key, x-svc-org; disabled partners and organizations). They act at
// the refusal point, where app.ts authenticates a request.
import { reword } from './reshape.js';
import { ApiError } from '../api-error.js';
import type { FaultDefinition } from './types.js';

export const authFaults = [
  {
    id: 'auth.unknown-key-wrong-code',
    area: 'auth',
    summary: 'an unknown partner key answers 401 `invalid_org_token` instead of `invalid_partner_key`',
    caughtBy: 'auth.unknown-partner-key-refused-401',
    acts: {
      refusal: (e, f) => (e && f.cause === 'unknown-partner-key' ? reword(e, { code: 'invalid_org_token' }) : e),
    },
  },
  {
    id: 'auth.missing-org-token-403',
    area: 'auth',
    summary: 'a missing org token answers 403 instead of 401',
    caughtBy: 'auth.missing-org-token-refused-401',
    acts: {
      refusal: (e, f) => (e && f.cause === 'no-org-token' ? reword(e, { status: 403 }) : e),
    },
  },
  {
    id: 'auth.disabled-organization-served',
    area: 'auth',
    summary: 'a disabled organization is served instead of refused with 403 `organization_disabled`',
    caughtBy: 'auth.disabled-org-token-refused-403',
    acts: {
      refusal: (e, f) => (f.cause === 'organization-disabled' ? undefined : e),
    },
  },
  {
    id: 'auth.org-token-any-partner',
    area: 'auth',
    summary:
      "any enabled partner's key is accepted with any org token: a second partner reads and acts in the first partner's organization",
    caughtBy: 'auth.other-partner-key-isolated',
    acts: {
      refusal: (e, f) => (f.cause === 'other-partners-org' ? undefined : e),
    },
  },
  {
    id: 'auth.disabled-partner-401',
    area: 'auth',
    summary: 'a disabled partner answers 401 `invalid_partner_key` instead of 403 `partner_disabled`',
    caughtBy: 'auth.disabled-partner-key-refused-403',
    acts: {
      refusal: (e, f) =>
        e && f.cause === 'partner-disabled' ? reword(e, { status: 401, code: 'invalid_partner_key' }) : e,
    },
  },
  {
    id: 'auth.missing-partner-key-403',
    area: 'auth',
    summary: 'a request without x-partner-key answers 403 instead of 401 `invalid_partner_key`',
    caughtBy: 'auth.missing-partner-key-refused-401',
    acts: {
      refusal: (e, f) => (e && f.cause === 'no-partner-key' ? reword(e, { status: 403 }) : e),
    },
  },
  {
    id: 'auth.unknown-org-token-wrong-code',
    area: 'auth',
    summary: 'an org token the service never issued answers 401 `invalid_partner_key` instead of `invalid_org_token`',
    caughtBy: 'auth.unknown-org-token-refused-401',
    acts: {
      refusal: (e, f) => (e && f.cause === 'unknown-org-token' ? reword(e, { code: 'invalid_partner_key' }) : e),
    },
  },
  {
    id: 'auth.redeem-demands-org-token',
    area: 'auth',
    summary: 'redeem without x-svc-org answers 401 `invalid_org_token`, though the partner key alone authenticates it',
    caughtBy: 'auth.redeem-needs-no-org-token',
    acts: {
      refusal: (e, f) =>
        f.cause === 'admitted' && f.route === 'redeem' && !f.orgTokenGiven ? new ApiError(401, 'invalid_org_token') : e,
    },
  },
  {
    id: 'auth.jobs-unknown-key-403',
    area: 'auth',
    summary: 'POST /jobs alone answers an unknown partner key with 403 instead of 401',
    caughtBy: 'auth.unknown-partner-key-refused-401',
    acts: {
      refusal: (e, f) =>
        e && f.cause === 'unknown-partner-key' && f.route === 'jobs' ? reword(e, { status: 403 }) : e,
    },
  },
  {
    id: 'auth.decisions-missing-org-token-403',
    area: 'auth',
    summary: 'POST /runs/{run_id}/decisions alone answers a missing org token with 403 instead of 401',
    caughtBy: 'auth.missing-org-token-refused-401',
    acts: {
      refusal: (e, f) => (e && f.cause === 'no-org-token' && f.route === 'decisions' ? reword(e, { status: 403 }) : e),
    },
  },
] as const satisfies readonly FaultDefinition[];
