import { redeemCode } from '../activation.js';
import { answer, ApiError, jsonBody, type Reply, type RequestContext } from '../context.js';

/** POST /activations/redeem: a one-time code connects an organization, answered with its token (no org token needed). */
export function redeemRoute(rc: RequestContext): Reply {
  const body = jsonBody(rc);
  const { code, external_id: externalId } = body;
  if (typeof code !== 'string' || code.trim() === '') throw new ApiError(422, 'invalid_request', { field: 'code' });
  if (typeof externalId !== 'string' || externalId.trim() === '')
    throw new ApiError(422, 'invalid_request', { field: 'external_id' });
  const { org, token } = redeemCode(rc, rc.partner, code, externalId);
  return answer(rc, { status: 200, body: { organization_id: org.id, org_token: token, organization_name: org.name } });
}
