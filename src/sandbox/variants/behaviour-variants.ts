import type { VariantDefinition } from './types.js';

// Choices of behaviour the spec leaves open: success statuses, what is stored, lists, timing.
export const behaviourVariants: VariantDefinition[] = [
  {
    id: 'status.upserts-201-on-create',
    area: 'status',
    summary: 'POST /users and POST /jobs answer 201 when they create, 200 on a repeat',
    allowedBy: 'POST /users and POST /jobs: "Success status code: not shown"',
  },
  {
    id: 'status.decisions-202',
    area: 'status',
    summary: 'POST /runs/{run_id}/decisions answers 202',
    allowedBy: 'POST /runs/{run_id}/decisions: "Success status code: not shown"',
  },
  {
    id: 'users.strict-role-list',
    area: 'users',
    summary: 'a `role` outside the service\'s own list (hiring_manager, talent_partner) is refused with 422 invalid_user; no role is accepted',
    allowedBy: 'User: "Allowed values of `role`: not shown"; 422 invalid_user: "the condition: not shown"',
  },
  {
    id: 'decisions.whole-second-occurred-at',
    area: 'decisions',
    summary: '`occurred_at` is stored at whole-second precision (a common database default), so two values within one second are one entry',
    allowedBy: 'Decision: `occurred_at` string date-time; the spec states no precision',
  },
  {
    id: 'additive.notice-code',
    area: 'additive',
    summary: 'every run read adds a notice with the unknown code `zz_variant_notice` (severity info, slot above_list)',
    allowedBy: 'Notice: "new codes appear without warning"; Versioning 2: new notice codes',
  },
  {
    id: 'additive.event-name',
    area: 'additive',
    summary: 'every run_completed is followed by a webhook with the unknown event `zz_variant_event` for the same run',
    allowedBy: 'Versioning 2: new event names; envelope `event`: "receivers ignore but acknowledge unknown events"',
  },
  {
    id: 'webhooks.first-delivery-after-45s',
    area: 'webhooks',
    summary: 'every webhook is first attempted 45 s (spec time) after it is queued',
    allowedBy: 'POST /sandbox/webhooks/test: delivery goes through the normal queue "(usually within a minute)"',
  },
];
