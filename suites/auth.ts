// Authentication: which secret is missing, unknown or disabled decides the answer, before anything
// else about the request is looked at.

import type { CheckDefinition } from '../src/runner/check.js';
import { S } from './spec-refs.js';
import { randomUUID, unknownActivationCode, unknownOrgToken, unknownPartnerKey } from './support.js';

const suite = 'auth';
const AUTH = S.authentication;
const CROSS = S.crossCutting;

export const AUTH_CHECKS: CheckDefinition[] = [
  {
    id: 'auth.missing-partner-key-refused-401',
    title: 'A request without x-partner-key is refused with 401 invalid_partner_key',
    suite,
    spec: [AUTH, CROSS],
    needs: ['org'],
    async run(t) {
      const org = await t.setup.org();
      const res = await t.api.get(`/runs/${randomUUID()}`, { auth: { orgToken: org.orgToken } });
      t.expect.error(res, 401, 'invalid_partner_key', AUTH);
    },
  },
  {
    id: 'auth.unknown-partner-key-refused-401',
    title: 'A well-formed partner key the service never issued is refused with 401 invalid_partner_key',
    suite,
    spec: [AUTH, CROSS],
    needs: ['org'],
    async run(t) {
      const org = await t.setup.org();
      const res = await t.api.get(`/runs/${randomUUID()}`, {
        auth: { partnerKey: unknownPartnerKey(), orgToken: org.orgToken },
      });
      t.expect.error(res, 401, 'invalid_partner_key', AUTH);
    },
  },
  {
    id: 'auth.missing-org-token-refused-401',
    title: 'A request without x-svc-org (other than redeem) is refused with 401 invalid_org_token',
    suite,
    spec: [AUTH, CROSS, S.commonHeaders],
    async run(t) {
      const res = await t.api.get(`/runs/${randomUUID()}`, { auth: 'partner' });
      t.expect.error(res, 401, 'invalid_org_token', AUTH);
    },
  },
  {
    id: 'auth.unknown-org-token-refused-401',
    title: 'A well-formed org token the service never issued is refused with 401 invalid_org_token',
    suite,
    spec: [AUTH, CROSS],
    async run(t) {
      const res = await t.api.get(`/runs/${randomUUID()}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: unknownOrgToken() },
      });
      t.expect.error(res, 401, 'invalid_org_token', AUTH);
    },
  },
  {
    id: 'auth.redeem-needs-no-org-token',
    title: 'Redeem is authenticated by the partner key alone: an unknown code gives 404 code_not_found, not 401',
    suite,
    spec: [S.redeem, AUTH, S.byEndpoint],
    async run(t) {
      const res = await t.api.post(
        '/activations/redeem',
        { code: unknownActivationCode(), external_id: t.setup.uniqueId('svc-certify-org') },
        { auth: 'partner' },
      );
      t.expect.error(res, 404, 'code_not_found', S.redeem);
    },
  },
  {
    id: 'auth.disabled-org-token-refused-403',
    title: 'The org token of a disabled organization is refused with 403 organization_disabled',
    suite,
    spec: [AUTH, CROSS],
    needs: ['disabled-org-token'],
    async run(t) {
      const res = await t.api.get(`/runs/${randomUUID()}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: t.inputs.disabledOrgToken! },
      });
      t.expect.error(res, 403, 'organization_disabled', AUTH);
    },
  },
  {
    id: 'auth.disabled-partner-key-refused-403',
    title: 'The key of a disabled partner is refused with 403 partner_disabled',
    suite,
    spec: [AUTH, CROSS],
    needs: ['disabled-partner-key'],
    async run(t) {
      // Redeem needs the partner key only, so the partner's state alone decides the answer.
      const res = await t.api.post(
        '/activations/redeem',
        { code: unknownActivationCode(), external_id: t.setup.uniqueId('svc-certify-org') },
        { auth: { partnerKey: t.inputs.disabledPartnerKey! } },
      );
      t.expect.error(res, 403, 'partner_disabled', AUTH);
    },
  },
];
