import { redeemCode } from '../activation.js';
import { ApiError, header, jsonBody, type Reply, type RequestContext } from '../context.js';

export function redeemRoute(rc: RequestContext): Reply {
  if (rc.app.config.faults.has('auth.redeem-demands-org-token') && !header(rc.headers, 'x-svc-org'))
    throw new ApiError(401, 'invalid_org_token');
  const body = jsonBody(rc);
  const { code, external_id: externalId } = body;
  if (typeof code !== 'string' || code.trim() === '') throw new ApiError(422, 'invalid_request', { field: 'code' });
  if (typeof externalId !== 'string' || externalId.trim() === '')
    throw new ApiError(422, 'invalid_request', { field: 'external_id' });
  const { org, token } = redeemCode(rc.app, rc.partner, code, externalId);
  return { status: 200, body: { organization_id: org.id, org_token: token, organization_name: org.name } };
}
