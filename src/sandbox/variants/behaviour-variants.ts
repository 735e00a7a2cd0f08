import type { VariantDefinition } from './types.js';

// Choices of behaviour the spec leaves open: success statuses, what is stored, lists, timing.
export const behaviourVariants = [
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
    id: 'additive.requirement-issue-code',
    area: 'additive',
    summary: 'every accepted run start with requirements adds a warning with the unknown code `zz_variant_issue` at index 0',
    allowedBy: 'RequirementIssue `code`: "new codes may be added"; Versioning 2: new requirement-issue codes',
  },
  {
    id: 'additive.run-status',
    area: 'additive',
    summary: 'a running real run reads `status: searching` (the run start\'s 202 still says running)',
    allowedBy: 'Run `status`: "running, completed, failed; any other value is treated as running"; Versioning 3: unknown enumerations fall back',
  },
  {
    id: 'additive.event-name',
    area: 'additive',
    summary: 'every run_completed is followed by a webhook with the unknown event `zz_variant_event` for the same run',
    allowedBy: 'Versioning 2: new event names; envelope `event`: "receivers ignore but acknowledge unknown events"',
  },
  {
    id: 'fixtures.name-on-start-only',
    area: 'fixtures',
    summary: 'a fixture run names its fixture (`sandbox: {fixture}`) on the run start only, not on its reads',
    allowedBy:
      'POST /runs: the 202 has "in the sandbox for fixture runs sandbox: {fixture: <fixture_name>}"; Sandbox behaviour: "Fixture responses carry sandbox: {fixture: <name>}" reads as the start\'s response or as every response about the run; the Run resource does not list the field',
    warns: [
      'fixtures.cert-empty.read-matches-table',
      'fixtures.cert-empty.read-matches-table-en',
      'fixtures.cert-extra-fields.read-matches-table',
      'fixtures.cert-extra-fields.read-matches-table-en',
      'fixtures.cert-failed.read-matches-table',
      'fixtures.cert-failed.read-matches-table-en',
      'fixtures.cert-notice-unknown.read-matches-table',
      'fixtures.cert-notice-unknown.read-matches-table-en',
      'fixtures.cert-notices-all.read-matches-table',
      'fixtures.cert-notices-all.read-matches-table-en',
      'fixtures.cert-webhook.read-matches-table',
      'fixtures.cert-webhook.read-matches-table-en',
      'fixtures.cert-slow.runs-three-minutes-then-completes',
    ],
  },
  {
    id: 'runs-start.rejected-first-only',
    area: 'runs-start',
    summary: 'a refused run start lists only the first offending requirement in `rejected[]`',
    allowedBy:
      'POST /runs: "422 requirements_rejected (rejected[], warnings[]; nothing started)" and RequirementIssue "index: 0-based position in the submitted array" say what an issue is, not that every offending requirement gets one',
    warns: ['runs-start.issue-index-is-position', 'runs-start.empty-text'],
  },
  {
    id: 'jobs.rejected-first-only',
    area: 'jobs',
    summary: 'a refused job lists only the first missing field in `rejected[]` (the next one comes once that is fixed)',
    allowedBy:
      'POST /jobs: "422 job_rejected with rejected[] of JobIssue (nothing stored)" and JobIssue "field: the request field at fault" say what an issue is, not that every missing field gets one',
    warns: ['jobs.rejection-lists-every-missing-field'],
  },
  {
    id: 'reveal.sandbox-phone-computed',
    area: 'reveal',
    summary: 'the sandbox phone is computed from the last four digits of the candidate id without showing them (`+1-555-01NN`, NN from the four digits)',
    allowedBy: 'Sandbox behaviour: "the phone is fixed and derived from the last four digits of the candidate id"; how it is derived is not shown',
    warns: ['reveal.sandbox-synthetic-contact'],
  },
  {
    id: 'fixtures.notices-all-new-code',
    area: 'fixtures',
    summary: '`cert-notices-all` also shows a notice with a code v1 clients do not know yet (`zz_variant_notice`, info, above_list)',
    allowedBy:
      'Notice `code`: "new codes appear without warning"; Versioning 2: new notice codes are additive within v1, so a newer service\'s fixture of "the nine notice codes that can occur in v1" may show a tenth, new one',
  },
  {
    id: 'webhooks.first-delivery-after-45s',
    area: 'webhooks',
    summary: 'every webhook is first attempted 45 s (spec time) after it is queued',
    allowedBy: 'POST /sandbox/webhooks/test: delivery goes through the normal queue "(usually within a minute)"',
  },
  {
    id: 'webhooks.first-delivery-after-90s',
    area: 'webhooks',
    summary: 'every webhook is first attempted 90 s (spec time) after it is queued',
    allowedBy: '"(usually within a minute)" is no limit: the spec bounds delivery only by 8 attempts over about 8 hours and 7 days\' retention',
    warns: ['webhooks.test-delivery-same-event-id'],
  },
  {
    id: 'reveal.production-charge-below-quote',
    area: 'reveal',
    mode: 'production',
    summary: 'production: a first reveal charges a quarter less than the latest run read quoted (rounded down), and the wallet falls by what `credits_charged` says',
    allowedBy: 'Reveal result: `credits_charged` "what the response says is authoritative; not necessarily the quoted price"; Candidate: `reveal_price_credits` "computed from a price table at request time"',
  },
] as const satisfies readonly VariantDefinition[];
