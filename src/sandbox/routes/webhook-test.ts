import { ApiError, jsonBody, requireOrg, type Reply, type RequestContext } from '../context.js';
import { emitTest } from '../events.js';
import { newUuid } from '../ids.js';
import { isOneOf } from '../must.js';

const EVENTS = ['run_completed', 'run_failed', 'candidate_revealed'] as const;

export function webhookTestRoute(rc: RequestContext): Reply {
  const org = requireOrg(rc);
  const body = jsonBody(rc);
  const event = body.event;
  if (typeof event !== 'string' || !isOneOf(EVENTS, event)) {
    throw new ApiError(422, 'invalid_request', { field: 'event', allowed_events: [...EVENTS] });
  }
  const faults = rc.app.config.faults;
  // The fault webhooks.test-signature-flag-coerced: any value is read for its truth ("yes" is true).
  const raw = body.valid_signature ?? true;
  const valid = faults.has('webhooks.test-signature-flag-coerced') ? Boolean(raw) : raw;
  if (typeof valid !== 'boolean') throw new ApiError(422, 'invalid_request', { field: 'valid_signature' });
  if (rc.partner.webhookUrl === undefined && !faults.has('webhooks.test-accepted-without-webhook'))
    throw new ApiError(409, 'webhook_not_configured');
  const env = emitTest(rc.app, rc.partner.id, org.id, event, valid);
  if (!env) throw new ApiError(404, 'not_found');
  const eventId = faults.has('webhooks.test-event-id-mismatch') ? newUuid() : env.event_id;
  return {
    status: faults.has('webhooks.test-response-not-202') ? 200 : 202,
    body: { event_id: eventId, event, run_id: env.run_id, valid_signature: valid },
  };
}
