// Activation: redeeming a one-time code connects a customer organization and yields its org token.
// Codes are scarce and single use, so the checks share planned redemptions (src/api-setup/code-plan.ts):
// the primary organization's redeem is the connection check; one code redeemed as typed is the
// normalization check, its second redeem the single-use check, and its organization serves the
// isolation checks; one more code is the external_id_taken check. Three codes in all (two with
// --org-token).

import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { obj } from './support/json-values.js';
import { errorSuffix } from './support/messages.js';
import { warnUnlessRfc3339 } from './support/timestamps.js';
import { unknownActivationCode } from './support/unknown-credentials.js';

const suite = 'activation';

/** Redeem carries the partner key only (Endpoints › POST /activations/redeem: no org token). */
function redeem(t: CheckContext, code: string, externalId: string, label: string): Promise<ApiResponse> {
  return t.api.post('/activations/redeem', { code, external_id: externalId }, { auth: 'partner', label });
}

export const ACTIVATION_CHECKS: CheckDefinition[] = [
  {
    id: 'activation.already-redeemed-409',
    title:
      'A second redeem of the same code gives 409 code_already_redeemed with a UTC redeemed_at (RFC 3339 form, else a warning), and no token again',
    suite,
    evidence: 'input',
    warns: ['redeemed_at timestamp is ISO 8601 in UTC but not in RFC 3339 form (20250101T100000Z)'],
    spec: [S.codeStates, S.redeem, S.byEndpoint, S.activationCode],
    needs: ['typed-redemption'],
    async run(t) {
      // The typed redemption redeemed this code once (as typed, or as issued when the typed form was refused).
      const first = await t.setup.typedRedemption();
      const redeemed = first.org.redemption;
      // A new external_id, so the only rule the second redeem can break is single use.
      const second = await redeem(t, first.code, t.setup.uniqueId('svc-certify-org'), 'second redeem, same code');
      if (second.status === 200) {
        t.expect.fail(
          {
            message: `a second redeem of an already redeemed code answered 200${obj(second.json)?.org_token !== undefined ? ' with an org_token' : ''}; a code is single use: it stays redeemed and answers 409 code_already_redeemed, the token is not returned again`,
            spec: S.codeStates,
            expected: '409 code_already_redeemed',
            received: '200',
          },
          second,
        );
        return;
      }
      if (!t.expect.error(second, 409, 'code_already_redeemed', S.codeStates)) return;
      t.expect.schema(second.json, 'code-already-redeemed', S.byEndpoint, second);
      const body = obj(second.json);
      warnUnlessRfc3339(t, body?.redeemed_at, 'redeemed_at of the 409 code_already_redeemed', S.general, second);
      t.expect.that(
        body?.org_token === undefined,
        {
          message: `the second redeem's 409 carries an org_token; the token is returned at redemption only, never again`,
          spec: S.redeem,
          pointer: '/org_token',
          expected: 'absent',
          received: 'present',
        },
        second,
      );
      const firstToken = obj(redeemed?.json)?.org_token;
      if (typeof firstToken === 'string' && firstToken !== '') {
        t.expect.that(
          !second.text.includes(firstToken),
          {
            message: `the second redeem's answer contains the org token issued by the first; it is returned once only`,
            spec: S.redeem,
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
    evidence: 'provoked',
    spec: [S.redeem, S.connection, S.authentication, S.codeStates],
    needs: ['redemption'],
    async run(t) {
      // The primary organization's redeem; with --org-token, the typed redemption's.
      const primary = await t.setup.org();
      const res = primary.redemption ?? (await t.setup.typedRedemption()).org.redemption;
      if (res === undefined) return t.skip(t.setup.codeShortage('typed'));
      if (!t.expect.status(res, 200, S.redeem)) return;
      t.expect.schema(res.json, 'organization-connection', S.connection, res);
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
          message: `a call with the org token this redeem returned answered 401${errorSuffix(probe)}; the token issued at redemption identifies the organization`,
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
    evidence: 'input',
    spec: [S.codeStates, S.redeem, S.byEndpoint, S.identifiers],
    needs: ['taken-redemption'],
    async run(t) {
      const code = t.setup.plannedCode('taken');
      if (code === undefined) return t.skip(t.setup.codeShortage('taken'));
      // The primary organization's external_id; with --org-token (unknown then), the typed redemption's.
      const primary = await t.setup.org();
      const taken =
        primary.organizationExternalId !== ''
          ? primary.organizationExternalId
          : (await t.setup.typedRedemption()).org.organizationExternalId;
      const clash = await redeem(t, code, taken, 'redeem with an external_id already used');
      if (!t.expect.error(clash, 409, 'external_id_taken', S.codeStates)) return;
      const again = await redeem(t, code, t.setup.uniqueId('svc-certify-org'), 'same code, free external_id');
      t.expect.that(
        again.status === 200,
        {
          message: `after 409 external_id_taken, the same code with a free external_id answered ${again.status}${errorSuffix(again)}; a refused redeem leaves the code valid, so it redeems with 200`,
          spec: S.codeStates,
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
    evidence: 'input',
    spec: [S.activationCode, S.redeem],
    needs: ['typed-redemption'],
    async run(t) {
      const { typed } = await t.setup.typedRedemption();
      t.expect.that(
        typed.status === 200,
        {
          message: `redeeming an unused code typed in lower case with spaces ("svc xxxx xxxx") answered ${typed.status}${errorSuffix(typed)}; case, spaces and dashes are normalized on input, so it redeems with 200`,
          spec: S.activationCode,
          expected: '200',
          received: String(typed.status),
        },
        typed,
      );
    },
  },
  {
    id: 'activation.code-surrounding-spaces-accepted',
    title: 'A valid code sent with spaces before and after it (as pasted) redeems: trimming is optional for the client',
    suite,
    evidence: 'input',
    spec: [S.redeem, S.activationCode],
    needs: ['typed-redemption'],
    async run(t) {
      // The typed redemption is sent first with surrounding spaces, then without them when refused.
      const { padded, typed } = await t.setup.typedRedemption();
      if (padded.status !== 200 && typed.status !== 200) {
        t.skip(
          `the code typed in lower case with spaces was refused with and without surrounding spaces (${padded.status}, ${typed.status}): activation.normalizes-code-input reports it, and surrounding spaces alone could not be judged`,
          'inconclusive',
        );
        return;
      }
      t.expect.that(
        padded.status === 200,
        {
          message: `redeeming an unused code sent with spaces before and after it answered ${padded.status}${errorSuffix(padded)}, while the same form without them redeemed; \`code\` is "the code as typed, trimming optional", and spaces are normalized on input (see ${S.activationCode})`,
          spec: S.redeem,
          expected: '200',
          received: String(padded.status),
        },
        padded,
      );
    },
  },
  {
    id: 'activation.unknown-code-404',
    title: 'A well-formed code nobody issued gives 404 code_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.redeem, S.byEndpoint, S.activationCode],
    async run(t) {
      const res = await redeem(
        t,
        unknownActivationCode(),
        t.setup.uniqueId('svc-certify-org'),
        'redeem an unknown code',
      );
      t.expect.error(res, 404, 'code_not_found', S.byEndpoint);
    },
  },
  {
    id: 'activation.expired-code-410',
    title: 'An expired code gives 410 code_expired',
    suite,
    evidence: 'input',
    spec: [S.codeStates, S.redeem, S.byEndpoint],
    needs: ['expired-code'],
    async run(t) {
      const code = t.inputs.expiredCode;
      if (code === undefined) {
        t.skip('needs an expired activation code: --expired-code or SVC_EXPIRED_CODE', 'needs-input', '--expired-code');
        return;
      }
      const res = await redeem(t, code, t.setup.uniqueId('svc-certify-org'), 'redeem an expired code');
      t.expect.error(res, 410, 'code_expired', S.codeStates);
    },
  },
];
