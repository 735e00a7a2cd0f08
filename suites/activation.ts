// Activation: redeeming a one-time code connects a customer organization and yields its org token.
// Codes are scarce and single-use, so each check that spends one declares 'activation-code': the
// runner reserves codes in report order (suite, then id), and the ids below sort by importance
// (already-redeemed, connects, external-id-taken, normalizes) so a short supply runs the first ones.

import type { ApiResponse } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/runner/check.js';
import { S } from './spec-refs.js';
import { obj, randomUUID, unknownActivationCode } from './support.js';

const suite = 'activation';
const REDEEM = S.redeem;
const CODE = S.activationCode;
const STATES = 'States and transitions › Activation code';
const CONNECTION = 'Resources and their fields › Organization connection (result of redeeming a code)';
const BY_ENDPOINT = S.byEndpoint;

const NO_CODE_LEFT =
  'needs one more unused activation code beyond the organization\'s: --activation-code (repeatable) or SVC_ACTIVATION_CODES';

/** Redeem carries the partner key only (Endpoints › POST /activations/redeem: no org token). */
function redeem(t: CheckContext, code: string, externalId: string, label: string): Promise<ApiResponse> {
  return t.api.post('/activations/redeem', { code, external_id: externalId }, { auth: 'partner', label });
}

function takeCode(t: CheckContext): string | undefined {
  const code = t.setup.takeActivationCode();
  if (code === undefined) t.skip(NO_CODE_LEFT);
  return code;
}

/** The code as a person might type it: lower case, spaces instead of dashes ("svc abcd efgh"). */
function typedForm(code: string): string {
  const compact = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const m = /^SVC([A-Z0-9]{4})([A-Z0-9]{4})$/.exec(compact);
  if (m) return `svc ${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}`;
  return code.toLowerCase().replace(/-/g, ' ');
}

/** A fresh code must redeem; when it does not, this check cannot observe what it is about. */
function expectRedeemed(t: CheckContext, res: ApiResponse, why: string): boolean {
  return t.expect.that(
    res.status === 200,
    {
      message: `redeeming an unused activation code (${why}) answered ${res.status}${errorSuffix(res)}; a valid code, not expired, not used, with a free external_id, redeems with 200 (${STATES})`,
      spec: STATES,
      expected: '200',
      received: String(res.status),
    },
    res,
  );
}

function errorSuffix(res: ApiResponse): string {
  const e = obj(res.json)?.error;
  return typeof e === 'string' ? ` ${e}` : '';
}

export const ACTIVATION_CHECKS: CheckDefinition[] = [
  {
    id: 'activation.already-redeemed-409',
    title: 'A second redeem of the same code gives 409 code_already_redeemed with a UTC redeemed_at, and no token again',
    suite,
    spec: [STATES, REDEEM, BY_ENDPOINT, CODE],
    needs: ['activation-code'],
    async run(t) {
      const code = takeCode(t);
      if (code === undefined) return;
      const first = await redeem(t, code, t.setup.uniqueId('svc-certify-org'), 'first redeem');
      if (!expectRedeemed(t, first, 'the first redeem of this code')) return;
      // A new external_id, so the only rule the second redeem can break is single use.
      const second = await redeem(t, code, t.setup.uniqueId('svc-certify-org'), 'second redeem, same code');
      if (second.status === 200) {
        t.expect.that(
          false,
          {
            message: `a second redeem of an already redeemed code answered 200${obj(second.json)?.org_token !== undefined ? ' with an org_token' : ''}; a code is single use: it stays redeemed and answers 409 code_already_redeemed, the token is not returned again (${STATES})`,
            spec: STATES,
            expected: '409 code_already_redeemed',
            received: '200',
          },
          second,
        );
        return;
      }
      if (!t.expect.error(second, 409, 'code_already_redeemed', STATES)) return;
      t.expect.schema(second.json, 'code-already-redeemed', BY_ENDPOINT, second);
      const body = obj(second.json);
      t.expect.that(
        body?.org_token === undefined,
        {
          message: `the second redeem's 409 carries an org_token; the token is returned at redemption only, never again (${REDEEM})`,
          spec: REDEEM,
          pointer: '/org_token',
          expected: 'absent',
          received: 'present',
        },
        second,
      );
      const firstToken = obj(first.json)?.org_token;
      if (typeof firstToken === 'string' && firstToken !== '') {
        t.expect.that(
          !second.text.includes(firstToken),
          {
            message: `the second redeem's answer contains the org token issued by the first; it is returned once only (${REDEEM})`,
            spec: REDEEM,
          },
          second,
        );
      }
    },
  },
  {
    id: 'activation.connects-organization',
    title: 'Redeem answers 200 with organization_id, an sot_ token and organization_name; that token authenticates',
    suite,
    spec: [REDEEM, CONNECTION, S.authentication, STATES],
    needs: ['activation-code'],
    async run(t) {
      const code = takeCode(t);
      if (code === undefined) return;
      const res = await redeem(t, code, t.setup.uniqueId('svc-certify-org'), 'redeem');
      if (!t.expect.status(res, 200, REDEEM)) return;
      t.expect.schema(res.json, 'organization-connection', CONNECTION, res);
      const token = obj(res.json)?.org_token;
      if (typeof token !== 'string' || token === '') return;
      // Any org-scoped call works as a probe: an unknown run is 404 for a known token, 401 otherwise.
      const probe = await t.api.get(`/runs/${randomUUID()}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: token },
        label: 'read an unknown run with the new token',
      });
      t.expect.that(
        probe.status !== 401,
        {
          message: `a call with the org token this redeem returned answered 401${errorSuffix(probe)}; the token issued at redemption identifies the organization (${S.authentication})`,
          spec: S.authentication,
          expected: 'not 401',
          received: String(probe.status),
        },
        probe,
      );
      if (probe.status !== 401) t.expect.error(probe, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'activation.external-id-taken-keeps-code',
    title: 'An external_id already used gives 409 external_id_taken and leaves the code valid for a free external_id',
    suite,
    spec: [STATES, REDEEM, BY_ENDPOINT, S.identifiers],
    needs: ['activation-code'],
    async run(t) {
      const code = takeCode(t);
      if (code === undefined) return;
      const org = await t.setup.org();
      let taken = org.organizationExternalId;
      if (taken === '') {
        // --org-token: the primary organization's external_id is unknown; make one with a second code.
        const other = t.setup.takeActivationCode();
        if (other === undefined) {
          t.skip(
            'with --org-token this check needs two more unused activation codes (one to take an external_id): --activation-code (repeatable) or SVC_ACTIVATION_CODES',
          );
          return;
        }
        taken = t.setup.uniqueId('svc-certify-org');
        const res = await redeem(t, other, taken, 'redeem to take an external_id');
        if (!expectRedeemed(t, res, 'to take an external_id')) return;
      }
      const clash = await redeem(t, code, taken, 'redeem with an external_id already used');
      if (!t.expect.error(clash, 409, 'external_id_taken', STATES)) return;
      const again = await redeem(t, code, t.setup.uniqueId('svc-certify-org'), 'same code, free external_id');
      t.expect.that(
        again.status === 200,
        {
          message: `after 409 external_id_taken, the same code with a free external_id answered ${again.status}${errorSuffix(again)}; a refused redeem leaves the code valid, so it redeems with 200 (${STATES})`,
          spec: STATES,
          expected: '200',
          received: String(again.status),
        },
        again,
      );
    },
  },
  {
    id: 'activation.normalizes-code-input',
    title: 'The code typed in lower case with spaces instead of dashes is accepted',
    suite,
    spec: [CODE, REDEEM],
    needs: ['activation-code'],
    async run(t) {
      const code = takeCode(t);
      if (code === undefined) return;
      const typed = typedForm(code);
      const res = await redeem(t, typed, t.setup.uniqueId('svc-certify-org'), 'redeem the code as typed: lower case, spaces');
      t.expect.that(
        res.status === 200,
        {
          message: `redeeming an unused code typed in lower case with spaces ("svc xxxx xxxx") answered ${res.status}${errorSuffix(res)}; case, spaces and dashes are normalized on input, so it redeems with 200 (${CODE})`,
          spec: CODE,
          expected: '200',
          received: String(res.status),
        },
        res,
      );
    },
  },
  {
    id: 'activation.unknown-code-404',
    title: 'A well-formed code nobody issued gives 404 code_not_found',
    suite,
    spec: [REDEEM, BY_ENDPOINT, CODE],
    async run(t) {
      const res = await redeem(t, unknownActivationCode(), t.setup.uniqueId('svc-certify-org'), 'redeem an unknown code');
      t.expect.error(res, 404, 'code_not_found', BY_ENDPOINT);
    },
  },
  {
    id: 'activation.expired-code-410',
    title: 'An expired code gives 410 code_expired',
    suite,
    spec: [STATES, REDEEM, BY_ENDPOINT],
    needs: ['expired-code'],
    async run(t) {
      const code = t.inputs.expiredCode;
      if (code === undefined) {
        t.skip('needs an expired activation code: --expired-code or SVC_EXPIRED_CODE');
        return;
      }
      const res = await redeem(t, code, t.setup.uniqueId('svc-certify-org'), 'redeem an expired code');
      t.expect.error(res, 410, 'code_expired', STATES);
    },
  },
];
