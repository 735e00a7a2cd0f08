import { answer, ApiError, jsonBody, refuse, requireOrg, type Reply, type RequestContext } from '../context.js';
import { emitTest } from '../events.js';
import { isOneOf } from '../must.js';

const EVENTS = ['run_completed', 'run_failed', 'candidate_revealed'] as const;

/** POST /sandbox/webhooks/test: one test event to the partner's webhook, signed or (on request) not. */
export function webhookTestRoute(rc: RequestContext): Reply {
  const org = requireOrg(rc);
  const body = jsonBody(rc);
  const event = body.event;
  if (typeof event !== 'string' || !isOneOf(EVENTS, event)) {
    throw new ApiError(422, 'invalid_request', { field: 'event', allowed_events: [...EVENTS] });
  }
  const valid = body.valid_signature ?? true;
  if (typeof valid !== 'boolean') throw new ApiError(422, 'invalid_request', { field: 'valid_signature' });
  if (rc.partner.webhookUrl === undefined)
    refuse(rc, { cause: 'webhook-not-configured' }, new ApiError(409, 'webhook_not_configured'));
  const env = emitTest(rc.app, rc.partner.id, org.id, event, valid);
  if (!env) throw new ApiError(404, 'not_found');
  return answer(rc, {
    status: 202,
    body: { event_id: env.event_id, event, run_id: env.run_id, valid_signature: valid },
  });
}
