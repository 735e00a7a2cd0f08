// Authentication: which secret is missing, unknown or disabled decides the answer, before anything
// else about the request is looked at.

import type { RequestAuth } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/runner/check.js';
import { S } from './spec-refs.js';
import { randomUUID, unknownActivationCode, unknownOrgToken, unknownPartnerKey } from './support.js';

const suite = 'auth';

/** One harmless request per endpoint: authentication is judged before anything in it is looked at. */
interface EndpointProbe {
  label: string;
  method: 'GET' | 'POST';
  path: () => string;
  body?: () => unknown;
  needsOrg: boolean;
  sandboxOnly?: boolean;
}

const ENDPOINTS: EndpointProbe[] = [
  { label: 'POST /activations/redeem', method: 'POST', path: () => '/activations/redeem', body: () => ({ code: unknownActivationCode(), external_id: 'svc-certify-auth-probe' }), needsOrg: false },
  { label: 'POST /users', method: 'POST', path: () => '/users', body: () => ({}), needsOrg: true },
  { label: 'POST /jobs', method: 'POST', path: () => '/jobs', body: () => ({}), needsOrg: true },
  { label: 'POST /runs', method: 'POST', path: () => '/runs', body: () => ({}), needsOrg: true },
  { label: 'GET /runs/{run_id}', method: 'GET', path: () => `/runs/${randomUUID()}`, needsOrg: true },
  { label: 'POST /runs/{run_id}/candidates/{candidate_id}/reveal', method: 'POST', path: () => `/runs/${randomUUID()}/candidates/990000000001/reveal`, body: () => ({}), needsOrg: true },
  { label: 'POST /runs/{run_id}/decisions', method: 'POST', path: () => `/runs/${randomUUID()}/decisions`, body: () => ({}), needsOrg: true },
  { label: 'POST /sandbox/webhooks/test', method: 'POST', path: () => '/sandbox/webhooks/test', body: () => ({ event: 'run_completed' }), needsOrg: true, sandboxOnly: true },
];

/** Sends one probe per endpoint (the org-token probes only where a token is required) and expects the refusal on each. */
async function expectRefusedEverywhere(
  t: CheckContext,
  opts: { orgOnly: boolean; auth: (p: EndpointProbe) => RequestAuth; code: 'invalid_partner_key' | 'invalid_org_token'; what: string },
): Promise<void> {
  const probes = ENDPOINTS.filter((p) => (!opts.orgOnly || p.needsOrg) && (!p.sandboxOnly || t.target.environment === 'sandbox'));
  // Concurrently: a target that hangs on one endpoint costs one time-out, not one per endpoint.
  const answers = await Promise.all(
    probes.map((p) => t.api.request({ method: p.method, path: p.path(), ...(p.body ? { body: p.body() } : {}), auth: opts.auth(p), label: `${p.label} ${opts.what}` })),
  );
  for (const res of answers) t.expect.error(res, 401, opts.code, S.authentication);
}

export const AUTH_CHECKS: CheckDefinition[] = [
  {
    id: 'auth.missing-partner-key-refused-401',
    title: 'A request without x-partner-key is refused with 401 invalid_partner_key, on every endpoint',
    suite,
    spec: [S.authentication, S.crossCutting],
    needs: ['org'],
    async run(t) {
      const org = await t.setup.org();
      await expectRefusedEverywhere(t, { orgOnly: false, auth: (p) => (p.needsOrg ? { orgToken: org.orgToken } : 'none'), code: 'invalid_partner_key', what: 'without x-partner-key' });
    },
  },
  {
    id: 'auth.unknown-partner-key-refused-401',
    title: 'A well-formed partner key the service never issued is refused with 401 invalid_partner_key, on every endpoint',
    suite,
    spec: [S.authentication, S.crossCutting],
    needs: ['org'],
    async run(t) {
      const org = await t.setup.org();
      const key = unknownPartnerKey();
      await expectRefusedEverywhere(t, { orgOnly: false, auth: (p) => (p.needsOrg ? { partnerKey: key, orgToken: org.orgToken } : { partnerKey: key }), code: 'invalid_partner_key', what: 'with an unknown partner key' });
    },
  },
  {
    id: 'auth.missing-org-token-refused-401',
    title: 'A request without x-svc-org is refused with 401 invalid_org_token, on every endpoint but redeem',
    suite,
    spec: [S.authentication, S.crossCutting, S.commonHeaders],
    async run(t) {
      await expectRefusedEverywhere(t, { orgOnly: true, auth: () => 'partner', code: 'invalid_org_token', what: 'without x-svc-org' });
    },
  },
  {
    id: 'auth.unknown-org-token-refused-401',
    title: 'A well-formed org token the service never issued is refused with 401 invalid_org_token, on every endpoint but redeem',
    suite,
    spec: [S.authentication, S.crossCutting],
    async run(t) {
      const token = unknownOrgToken();
      await expectRefusedEverywhere(t, { orgOnly: true, auth: () => ({ partnerKey: t.inputs.partnerKey, orgToken: token }), code: 'invalid_org_token', what: 'with an unknown org token' });
    },
  },
  {
    id: 'auth.redeem-needs-no-org-token',
    title: 'Redeem is authenticated by the partner key alone: an unknown code gives 404 code_not_found, not 401',
    suite,
    spec: [S.redeem, S.authentication, S.byEndpoint],
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
    spec: [S.authentication, S.crossCutting],
    needs: ['disabled-org-token'],
    async run(t) {
      const res = await t.api.get(`/runs/${randomUUID()}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: t.inputs.disabledOrgToken! },
      });
      t.expect.error(res, 403, 'organization_disabled', S.authentication);
    },
  },
  {
    id: 'auth.disabled-partner-key-refused-403',
    title: 'The key of a disabled partner is refused with 403 partner_disabled',
    suite,
    spec: [S.authentication, S.crossCutting],
    needs: ['disabled-partner-key'],
    async run(t) {
      // Redeem needs the partner key only, so the partner's state alone decides the answer.
      const res = await t.api.post(
        '/activations/redeem',
        { code: unknownActivationCode(), external_id: t.setup.uniqueId('svc-certify-org') },
        { auth: { partnerKey: t.inputs.disabledPartnerKey! } },
      );
      t.expect.error(res, 403, 'partner_disabled', S.authentication);
    },
  },
];
