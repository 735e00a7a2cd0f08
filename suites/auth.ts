// Authentication: which secret is missing, unknown or disabled decides the answer, before anything
// else about the request is looked at.

import { randomUUID } from 'node:crypto';
import { ENDPOINT_LIST, pathOf, type Endpoint, type EndpointName, type ParamName } from '../src/api/endpoints.js';
import type { ApiResponse, RequestAuth } from '../src/http/types.js';
import type { JsonObject } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { obj, objects } from './support/json-values.js';
import { errorSuffix, show } from './support/messages.js';
import { REAL_RUN_BUDGET_MS, revealPath } from './support/runs.js';
import { unknownActivationCode, unknownOrgToken, unknownPartnerKey } from './support/unknown-credentials.js';

const suite = 'auth';

/** One harmless request per endpoint: authentication is judged before anything in it is looked at. */
interface EndpointProbe {
  label: string;
  method: 'GET' | 'POST';
  path: () => string;
  body?: () => unknown;
  needsOrg: boolean;
  sandboxOnly: boolean;
}

/** What each endpoint's probe fills in: its path's values and a body (keyed by the table: a new endpoint needs one). */
const PROBED: {
  [N in EndpointName]: { params: () => { [K in ParamName<N>]: string | bigint }; body?: () => unknown };
} = {
  redeem: {
    params: () => ({}),
    body: () => ({ code: unknownActivationCode(), external_id: 'svc-certify-auth-probe' }),
  },
  users: { params: () => ({}), body: () => ({}) },
  jobs: { params: () => ({}), body: () => ({}) },
  'runs-start': { params: () => ({}), body: () => ({}) },
  'runs-read': { params: () => ({ run_id: randomUUID() }) },
  reveal: { params: () => ({ run_id: randomUUID(), candidate_id: 990000000001n }), body: () => ({}) },
  decisions: { params: () => ({ run_id: randomUUID() }), body: () => ({}) },
  'webhook-test': { params: () => ({}), body: () => ({ event: 'run_completed' }) },
};

function probeOf<N extends EndpointName>(e: Endpoint<N>): EndpointProbe {
  const { params, body } = PROBED[e.name];
  return {
    label: `${e.method} ${e.path}`,
    method: e.method,
    path: () => pathOf(e.name, params()),
    ...(body ? { body } : {}),
    needsOrg: e.orgToken,
    sandboxOnly: 'sandboxOnly' in e && e.sandboxOnly,
  };
}

const ENDPOINTS: EndpointProbe[] = ENDPOINT_LIST.map(probeOf);

/** Sends one probe per endpoint (the org-token probes only where a token is required) and expects the refusal on each. */
async function expectRefusedEverywhere(
  t: CheckContext,
  opts: {
    orgOnly: boolean;
    auth: (p: EndpointProbe) => RequestAuth;
    code: 'invalid_partner_key' | 'invalid_org_token';
    what: string;
  },
): Promise<void> {
  const probes = ENDPOINTS.filter(
    (p) => (!opts.orgOnly || p.needsOrg) && (!p.sandboxOnly || t.target.environment === 'sandbox'),
  );
  // Concurrently: a target that hangs on one endpoint costs one time-out, not one per endpoint.
  const answers = await Promise.all(
    probes.map((p) =>
      t.api.request({
        method: p.method,
        path: p.path(),
        ...(p.body ? { body: p.body() } : {}),
        auth: opts.auth(p),
        label: `${p.label} ${opts.what}`,
      }),
    ),
  );
  for (const res of answers) t.expect.error(res, 401, opts.code, S.authentication);
}

/** A redeem of a code never issued, under `auth`: what decides its answer is who asks. */
function redeemUnknownCode(t: CheckContext, auth: RequestAuth): Promise<ApiResponse> {
  return t.api.post(
    '/activations/redeem',
    { code: unknownActivationCode(), external_id: t.setup.uniqueId('svc-certify-org') },
    { auth },
  );
}

/**
 * A check that the credential of a disabled party (an operator input: the need) is refused with 403
 * and the error code naming what is disabled.
 */
function refusedWhenDisabled(
  def: Pick<CheckDefinition, 'id' | 'title'>,
  need: 'disabled-org-token' | 'disabled-partner-key',
  code: 'organization_disabled' | 'partner_disabled',
  send: (t: CheckContext) => Promise<ApiResponse>,
): CheckDefinition {
  return {
    ...def,
    suite,
    evidence: 'input',
    spec: [S.authentication, S.crossCutting],
    needs: [need],
    async run(t) {
      t.expect.error(await send(t), 403, code, S.authentication);
    },
  };
}

/**
 * A check that every endpoint refuses the partner key `keyOf` gives (none, or one never issued) with
 * 401 invalid_partner_key. Endpoints of an organization get the primary one's token, so only the key
 * can be what is wrong.
 */
function partnerKeyRefusedEverywhere(
  def: Pick<CheckDefinition, 'id' | 'title'>,
  what: string,
  keyOf: () => string | undefined,
): CheckDefinition {
  return {
    ...def,
    suite,
    evidence: 'provoked',
    spec: [S.authentication, S.crossCutting],
    needs: ['org'],
    async run(t) {
      const org = await t.setup.org();
      const key = keyOf();
      const partner = key === undefined ? undefined : { partnerKey: key };
      await expectRefusedEverywhere(t, {
        orgOnly: false,
        auth: (p) => (p.needsOrg ? { ...partner, orgToken: org.orgToken } : (partner ?? 'none')),
        code: 'invalid_partner_key',
        what,
      });
    },
  };
}

export const AUTH_CHECKS: CheckDefinition[] = [
  partnerKeyRefusedEverywhere(
    {
      id: 'auth.missing-partner-key-refused-401',
      title: 'A request without x-partner-key is refused with 401 invalid_partner_key, on every endpoint',
    },
    'without x-partner-key',
    () => undefined,
  ),
  partnerKeyRefusedEverywhere(
    {
      id: 'auth.unknown-partner-key-refused-401',
      title:
        'A well-formed partner key the service never issued is refused with 401 invalid_partner_key, on every endpoint',
    },
    'with an unknown partner key',
    unknownPartnerKey,
  ),
  {
    id: 'auth.missing-org-token-refused-401',
    title: 'A request without x-svc-org is refused with 401 invalid_org_token, on every endpoint but redeem',
    suite,
    evidence: 'provoked',
    spec: [S.authentication, S.crossCutting, S.commonHeaders],
    async run(t) {
      await expectRefusedEverywhere(t, {
        orgOnly: true,
        auth: () => 'partner',
        code: 'invalid_org_token',
        what: 'without x-svc-org',
      });
    },
  },
  {
    id: 'auth.unknown-org-token-refused-401',
    title:
      'A well-formed org token the service never issued is refused with 401 invalid_org_token, on every endpoint but redeem',
    suite,
    evidence: 'provoked',
    spec: [S.authentication, S.crossCutting],
    async run(t) {
      const token = unknownOrgToken();
      await expectRefusedEverywhere(t, {
        orgOnly: true,
        auth: () => ({ partnerKey: t.inputs.partnerKey, orgToken: token }),
        code: 'invalid_org_token',
        what: 'with an unknown org token',
      });
    },
  },
  {
    id: 'auth.redeem-needs-no-org-token',
    title: 'Redeem is authenticated by the partner key alone: an unknown code gives 404 code_not_found, not 401',
    suite,
    evidence: 'provoked',
    spec: [S.redeem, S.authentication, S.byEndpoint],
    async run(t) {
      const res = await redeemUnknownCode(t, 'partner');
      t.expect.error(res, 404, 'code_not_found', S.redeem);
    },
  },
  refusedWhenDisabled(
    {
      id: 'auth.disabled-org-token-refused-403',
      title: 'The org token of a disabled organization is refused with 403 organization_disabled',
    },
    'disabled-org-token',
    'organization_disabled',
    (t) =>
      t.api.get(`/runs/${randomUUID()}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: t.inputs.disabledOrgToken! },
      }),
  ),
  refusedWhenDisabled(
    {
      id: 'auth.disabled-partner-key-refused-403',
      title: 'The key of a disabled partner is refused with 403 partner_disabled',
    },
    'disabled-partner-key',
    'partner_disabled',
    // Redeem needs the partner key only, so the partner's state alone decides the answer.
    (t) => redeemUnknownCode(t, { partnerKey: t.inputs.disabledPartnerKey! }),
  ),
  {
    id: 'auth.other-partner-key-isolated',
    title:
      "A second partner's key with the first partner's org token does not read the organization's run, nor start a run or reveal in it",
    suite,
    evidence: 'input',
    unlockedBy: '--other-partner-key',
    warns: [
      "another partner's key with the org token is answered 2xx without the organization's data (the spec gives the organization, not the token, to one partner)",
    ],
    spec: [S.authentication, S.byEndpoint],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const otherKey = t.inputs.otherPartnerKey;
      if (!otherKey) {
        t.skip(
          'needs the key of a second, enabled partner: --other-partner-key or SVC_OTHER_PARTNER_KEY',
          'needs-input',
          '--other-partner-key',
        );
        return;
      }
      const org = await t.setup.org();
      const auth: RequestAuth = { partnerKey: otherKey, orgToken: org.orgToken };
      const sandbox = t.target.environment === 'sandbox';
      // Its own fixture run (target 3) in the sandbox, so a target that lets the second partner reveal
      // changes no contact state another check reads; in production the shared real run.
      const runId = sandbox
        ? (await t.setup.fixtureRun(OTHER_PARTNER_FIXTURE, { targetCount: 3 })).runId
        : (await t.setup.realRun()).run.runId;
      const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
        auth,
        label: "read the first partner's run with a second partner's key and the first partner's org token",
      });
      judgeOtherPartner(t, read, "reading the first partner's run", (b) => carriesRun(b, runId));
      // Production stops here: a run start may be a real run and a reveal spends the organization's credits.
      if (!sandbox) return;
      const user = await t.setup.user();
      const start = await t.api.post(
        '/runs',
        { job_external_id: OTHER_PARTNER_FIXTURE, acting_user_external_id: user.externalId, target_count: 1 },
        { auth, label: "start a fixture run in the first partner's organization with a second partner's key" },
      );
      // A started run is no data of the first organization's yet: the acting is the harm, judged as above.
      judgeOtherPartner(
        t,
        start,
        "starting a run in the first partner's organization (acting as its recruiter)",
        () => false,
      );
      const reveal = await t.api.post(
        revealPath(runId, FIXTURE_CANDIDATE),
        { acting_user_external_id: user.externalId },
        { auth, label: "reveal a candidate of the first partner's run with a second partner's key" },
      );
      judgeOtherPartner(t, reveal, "revealing a candidate of the first partner's run", carriesContact);
    },
  },
];

/** cert-notices-all lists candidate 990000000001 in every run of every organization. */
const OTHER_PARTNER_FIXTURE = 'cert-notices-all';
const FIXTURE_CANDIDATE = 990000000001n;
const REFUSALS = [401, 403, 404];

/** A run read of that run: its id, its status or its candidates. */
function carriesRun(body: JsonObject, runId: string): boolean {
  return body.run_id === runId || body.status !== undefined || objects(body.candidates).length > 0;
}

/** A reveal result: the candidate's contact (Reveal result: `email`, `phone`) or the organization's wallet. */
function carriesContact(body: JsonObject): boolean {
  return ['email', 'phone', 'wallet_balance_after'].some((k) => body[k] !== undefined);
}

/**
 * The spec binds the org token to "one customer organization" and the organization to the partner that
 * redeemed its code, but does not say the token is refused with another partner's key: a 2xx is a
 * warning naming that reading, a 2xx carrying the first organization's data a failure, and a refusal
 * may be any of 401 (unknown token for this partner), 403 (forbidden) or 404 (nothing of the kind here).
 */
function judgeOtherPartner(
  t: CheckContext,
  res: ApiResponse,
  what: string,
  carriesData: (body: JsonObject) => boolean,
): void {
  const ok = res.status >= 200 && res.status < 300;
  const body = obj(res.json);
  if (ok && body && carriesData(body)) {
    t.expect.fail(
      {
        message: `${what} with a second partner's key and the first partner's org token answered ${res.status} with the first organization's data (${show(Object.keys(body))}); the token identifies one customer organization of the partner that redeemed it, and another partner must not see its runs or contacts`,
        spec: S.authentication,
        expected: `a refusal (${REFUSALS.join(', ')})`,
        received: `${res.status} with the organization's data`,
      },
      res,
    );
    return;
  }
  if (ok) {
    t.expect.warn(
      false,
      {
        message: `${what} with a second partner's key and the first partner's org token answered ${res.status}`,
        spec: S.authentication,
        reading:
          "the org token identifies an organization, which belongs to the partner that redeemed its code, so another partner's key does not reach it",
        otherReading:
          'the spec says so of the organization, not of the token: the token alone may name the organization whatever partner key comes with it',
        expected: `a refusal (${REFUSALS.join(', ')})`,
        received: String(res.status),
      },
      res,
    );
    return;
  }
  t.expect.that(
    REFUSALS.includes(res.status),
    {
      message: `${what} with a second partner's key and the first partner's org token answered ${res.status}${errorSuffix(res)}; a refusal is 401, 403 or 404 (which one the spec does not show)`,
      spec: S.authentication,
      expected: `one of ${REFUSALS.join(', ')}`,
      received: String(res.status),
    },
    res,
  );
}
