// The events of the spec (Events), one row each: the OpenAPI `webhooks` are built from it.

import type { ApiSchemaName } from './component-schemas.js';

export interface WebhookEvent {
  event: 'run_completed' | 'run_failed' | 'candidate_revealed';
  schema: ApiSchemaName;
  when: string;
  example: Record<string, unknown>;
}

const ENVELOPE = {
  run_id: '3f1c2a7e-5b8d-4e3a-9c21-7d5e0b6a4f10',
  organization_external_id: 'customer-42',
  job_external_id: 'job-1001',
  occurred_at: '2026-01-15T09:45:00Z',
};

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  {
    event: 'run_completed',
    schema: 'webhook-run-completed',
    when: 'a run reaches `completed`; at most one per run; carries `progress` (same shape as in the run read)',
    example: {
      event_id: 'evt_7c1e9a',
      event: 'run_completed',
      ...ENVELOPE,
      progress: { confirmed: 10, target: 10, screened: 212 },
    },
  },
  {
    event: 'run_failed',
    schema: 'webhook-run-failed',
    when: 'a run reaches `failed`; at most one per run',
    example: { event_id: 'evt_7c1e9b', event: 'run_failed', ...ENVELOPE },
  },
  {
    event: 'candidate_revealed',
    schema: 'webhook-candidate-revealed',
    when: "a candidate's contact is revealed in the run; once per (run, candidate), so it legitimately repeats within a run",
    example: { event_id: 'evt_7c1e9c', event: 'candidate_revealed', ...ENVELOPE, candidate_id: 990000000001 },
  },
];
