import { ApiError, jsonBody, requireOrg, type Reply, type RequestContext } from '../context.js';
import { emitTest } from '../events.js';

const EVENTS = ['run_completed', 'run_failed', 'candidate_revealed'] as const;
type TestEvent = (typeof EVENTS)[number];

export function webhookTestRoute(rc: RequestContext): Reply {
  const org = requireOrg(rc);
  const body = jsonBody(rc);
  const event = body.event;
  if (typeof event !== 'string' || !(EVENTS as readonly string[]).includes(event)) {
    throw new ApiError(422, 'invalid_request', { field: 'event', allowed_events: [...EVENTS] });
  }
  const valid = body.valid_signature ?? true;
  if (typeof valid !== 'boolean') throw new ApiError(422, 'invalid_request', { field: 'valid_signature' });
  if (rc.partner.webhookUrl === undefined) throw new ApiError(409, 'webhook_not_configured');
  const env = emitTest(rc.app, rc.partner.id, org.id, event as TestEvent, valid);
  if (!env) throw new ApiError(404, 'not_found');
  return { status: 202, body: { event_id: env.event_id, event, run_id: env.run_id, valid_signature: valid } };
}
