import type { VariantDefinition } from './types.js';

// Choices of behaviour the spec leaves open: success statuses, what is stored, lists, timing.
export const behaviourVariants = [
  {
    id: 'webhooks.eight-retries-after-first',
    area: 'webhooks',
    summary:
      'a failing event is retried after each of the 8 listed waits (1 min … 4 h): 9 attempts in all, over about 8 hours',
    allowedBy:
      'Events, delivery rule 1: "up to 8 attempts over about 8 hours (after 1 min, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h)" lists 8 waits, which add up to about 8 hours only when each precedes a retry',
    warns: ['webhooks.retry-schedule-whole'],
  },
  {
    id: 'auth.other-partner-token-403',
    area: 'auth',
    summary:
      "an org token sent with another partner's key is refused with 403 `forbidden` (the default: 401 `invalid_org_token`)",
    allowedBy:
      'Authentication: the token identifies "one customer organization", the key "the partner"; the answer when they belong to different partners is not shown ("Any code not listed is handled by its HTTP status")',
  },
  {
    id: 'auth.other-partner-token-404',
    area: 'auth',
    summary:
      "an org token sent with another partner's key answers 404 as if the organization's resources did not exist (`run_not_found`, `job_not_found`)",
    allowedBy:
      'Authentication: the answer when key and token belong to different partners is not shown; "A run of another customer organization yields 404 run_not_found"',
  },
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
    summary:
      "a `role` outside the service's own list (hiring_manager, talent_partner) is refused with 422 invalid_user; no role is accepted",
    allowedBy: 'User: "Allowed values of `role`: not shown"; 422 invalid_user: "the condition: not shown"',
  },
  {
    id: 'decisions.whole-second-occurred-at',
    area: 'decisions',
    summary:
      '`occurred_at` is stored at whole-second precision (a common database default), so two values within one second are one entry',
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
    summary:
      'every accepted run start with requirements adds a warning with the unknown code `zz_variant_issue` at index 0',
    allowedBy: 'RequirementIssue `code`: "new codes may be added"; Versioning 2: new requirement-issue codes',
  },
  {
    id: 'additive.run-status',
    area: 'additive',
    summary: "a running real run reads `status: searching` (the run start's 202 still says running)",
    allowedBy:
      'Run `status`: "running, completed, failed; any other value is treated as running"; Versioning 3: unknown enumerations fall back',
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
    summary:
      'the sandbox phone is computed from the last four digits of the candidate id without showing them (`+1-555-01NN`, NN from the four digits)',
    allowedBy:
      'Sandbox behaviour: "the phone is fixed and derived from the last four digits of the candidate id"; how it is derived is not shown',
    warns: ['reveal.sandbox-synthetic-contact'],
  },
  {
    id: 'fixtures.notices-all-new-code',
    area: 'fixtures',
    summary:
      '`cert-notices-all` also shows a notice with a code v1 clients do not know yet (`zz_variant_notice`, info, above_list)',
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
    allowedBy:
      '"(usually within a minute)" is no limit: the spec bounds delivery only by 8 attempts over about 8 hours and 7 days\' retention',
    warns: ['webhooks.test-delivery-same-event-id'],
  },
  {
    id: 'reveal.production-charge-below-quote',
    area: 'reveal',
    mode: 'production',
    summary:
      'production: a first reveal charges a quarter less than the latest run read quoted (rounded down), and the wallet falls by what `credits_charged` says',
    allowedBy:
      'Reveal result: `credits_charged` "what the response says is authoritative; not necessarily the quoted price"; Candidate: `reveal_price_credits` "computed from a price table at request time"',
  },
  {
    id: 'runs-read.real-run-outlasts-polling',
    area: 'runs-read',
    summary:
      'real runs work 16 times longer: first candidates after about 3 to 4.5 minutes, completed after 40 to 64 minutes (spec time), past the 30 minutes clients poll',
    allowedBy:
      'Limits: "A cold run typically shows its first confirmed candidates within 10 to 17 seconds and keeps working for several minutes"; "Run polling: every 5 seconds while watched; stop after 30 minutes of running" is "client guidance"; GET /runs/{run_id}: "stop after a run has been running for more than 30 minutes and show the run id with a support hint" — no duration is set for the run itself',
    warns: ['runs-read.real-run-ends-within-30-minutes'],
  },
  {
    id: 'fixtures.notices-all-without-refs',
    area: 'fixtures',
    summary:
      '`cert-notices-all` shows its notices without `ref` (requirement_blockers and requirement_attribution on_requirement, already_shown on_candidate)',
    allowedBy:
      'Notice: `ref` "Required: no"; the cert-notices-all row says only "the nine notice codes that can occur in v1, each in its slot" — refs are stated for cert-notice-unknown only',
  },
  {
    id: 'sandbox.real-names-enabled',
    area: 'sandbox',
    summary:
      'the operator enabled real names for the partner: real-run candidates show their real names (in `name` and inside evidence); e-mails, URLs and phones stay masked. Certify it with --real-names-enabled',
    allowedBy:
      'Sandbox behaviour: "Real names: shown only after a data-processing agreement is signed and the service operator enables it for the partner; contact identifiers stay masked regardless"',
  },
  {
    id: 'sandbox.simulated-answer-over-limit',
    area: 'sandbox',
    summary:
      'a simulated request over the rate limit still gets its simulated answer (it is counted, and plain requests get 429)',
    allowedBy:
      'Sandbox request headers: "The request is authenticated and logged first; simulated requests count toward the rate limit" says they count, not which answer a simulated request over the limit gets',
  },
  {
    id: 'sandbox.simulated-credits-required-null',
    area: 'sandbox',
    summary: 'the simulated `402 insufficient_credits` carries `required: null` (a simulated refusal prices no reveal)',
    allowedBy:
      'Simulated errors: insufficient_credits body fields "error, message, balance (0), required, reason (simulated)" give balance\'s value and none for required; Errors by endpoint names `required` without a type',
    warns: ['sandbox.simulate-insufficient-credits'],
  },
  {
    id: 'reveal.production-price-table-free',
    area: 'reveal',
    mode: 'production',
    summary:
      'production: the price table at request time prices every first reveal at 0 (`credits_charged: 0`, the wallet unchanged), though the run read quoted a price',
    allowedBy:
      'Reveal result: `credits_charged` "what the response says is authoritative; not necessarily the quoted price"; Candidate: `reveal_price_credits` "price at the time of this response; computed from a price table at request time, never fixed"',
    warns: ['reveal.production-charged-once'],
  },
  {
    id: 'webhooks.run-completed-progress-at-emission',
    area: 'webhooks',
    summary:
      "a real run's run_completed carries the progress counted when the event was queued: `screened` one below what reads of the completed run show",
    allowedBy:
      'Events: run_completed carries `progress` "(same shape as in the run read)" — the shape, not the values; delivery rule 6: webhooks are notifications, not state, and the authoritative data comes from the run read',
    warns: ['webhooks.real-run-deliveries-valid'],
  },
  {
    id: 'runs-read.english-notice-quotes-hebrew',
    area: 'runs-read',
    summary:
      'every read of a real run adds a location_relaxed notice (info, above_list) whose English text quotes the nearby places in Hebrew, so it holds more Hebrew letters than Latin ones',
    allowedBy:
      'Notice: "title and body follow the request language" and "The meaning and wording of each notice code: not shown"; an English sentence may quote data (places, requirements) as written, in Hebrew',
  },
  {
    id: 'runs-read.never-repeat-candidate-for-job',
    area: 'runs-read',
    summary:
      'a later run of a job never lists a candidate an earlier run of the same job listed (the default lists them last, flagged already_shown)',
    allowedBy:
      'Run `candidates`: "confirmed candidates in the service\'s display order"; which candidates a run finds is the engine\'s; `already_shown` is one of the codes that "can occur in v1", not one that must',
  },
  {
    id: 'runs-read.pool-slice-per-job',
    area: 'runs-read',
    summary:
      'each job searches its own slice of the candidate pool (one in eight profiles, a slice per job in turn), so runs of two different jobs never list the same candidate',
    allowedBy:
      'Run `candidates`: "confirmed candidates in the service\'s display order"; which candidates a run finds is the engine\'s, and nothing in the spec makes runs of two jobs share one',
  },
  {
    id: 'runs-read.never-repeat-candidate',
    area: 'runs-read',
    summary:
      'no run ever lists a candidate that an earlier run of the organization listed, whatever its job (fixtures keep their stated ids)',
    allowedBy:
      'Run `candidates`: "confirmed candidates in the service\'s display order"; which candidates a run finds is the engine\'s; `already_shown` is one of the codes that "can occur in v1", not one that must',
  },
  {
    id: 'ids.candidate-ids-above-2-53',
    area: 'identifiers',
    summary:
      'every candidate of the real-run pool has an id above 2^53: from 2^53 + 1 up and from 2^63 - 1 (the largest int64) down, alternately (fixtures keep their stated ids)',
    allowedBy:
      'Identifier conventions: `candidate_id` is "integer, int64 (may exceed 2^31)", generated by the service; Limits: "Candidate id size: 64-bit integer"',
  },
  {
    id: 'notices.ref-only-where-stated',
    area: 'notices',
    summary:
      'no notice carries a `ref` except those of `cert-notice-unknown` (whose fixture row states them): real runs and every other fixture show their on_candidate and on_requirement notices without one',
    allowedBy:
      'Notice: `ref` "Required: no"; the cert-notice-unknown row is the only one that states refs ("with ref.candidate_id for on_candidate, ref.requirement_index for on_requirement")',
  },
  {
    id: 'runs-read.real-run-running-35-minutes',
    area: 'runs-read',
    summary:
      'real runs list their candidates at the usual pace and stay `running` until 35 minutes (spec time) after their start, past the 30 minutes clients poll',
    allowedBy:
      'Limits: a cold run "keeps working for several minutes"; "stop after 30 minutes of running" is "client guidance"; GET /runs/{run_id}: "stop after a run has been running for more than 30 minutes and show the run id with a support hint" — no duration is set for the run itself',
    warns: ['runs-read.real-run-ends-within-30-minutes'],
  },
  {
    id: 'sandbox.realistic-profile-text',
    area: 'sandbox',
    summary:
      'candidate titles, companies, locations and evidence read like real profiles: ASP.NET/MVC, VB.NET/C#, socket.io/redis, Node.js/React, Booking.com, Monday.com, 3M, street addresses and postal codes, ISO 27001, Python 3.12, 2019–2023, 24/7 (contact details in the text stay masked)',
    allowedBy:
      'Candidate `title`, `company`, `location`: "string or null"; Sandbox behaviour masks "any e-mail address", "any URL", "any phone number" — a stack, a company name, a street number, a standard, a version or a year range is none of them',
  },
  {
    id: 'runs-read.ranked-by-experience',
    area: 'runs-read',
    summary:
      'a run lists the eligible candidates (every must met or undetermined) with the most years of experience first, whatever nice requirements they meet',
    allowedBy:
      'Run `candidates`: "confirmed candidates in the service\'s display order"; how a run chooses among eligible candidates is not shown',
  },
  {
    id: 'fixtures.highest-id-first',
    area: 'fixtures',
    summary: 'a fixture run lists its candidates highest id first (990000000006 … 990000000001 on cert-notices-all)',
    allowedBy:
      'Run `candidates`: "confirmed candidates in the service\'s display order"; Sandbox behaviour: fixture candidates have "synthetic ids ascending from 990000000001" says how ids are assigned, not the order they are listed in',
  },
  {
    id: 'conventions.agreed-english-default',
    area: 'conventions',
    summary:
      'without x-svc-lang, messages, notices and fixture names are in English: the default agreed with the partner',
    allowedBy: 'Common headers: x-svc-lang "default is the partner default (he unless agreed otherwise)"',
    warns: ['conventions.message-hebrew-by-default'],
  },
  {
    id: 'runs-start.derived-requirements-without-origin',
    area: 'runs-start',
    summary:
      "requirements of a run start that the partner did not send (derived from the job, the appended job title, a fixture's own) carry no `origin`; those it sent carry `origin: partner`",
    allowedBy:
      'Requirement `origin`: "the value `partner` marks a requirement the partner sent. Other values of `origin`: not shown."; the Requirement table states no field required',
  },
  {
    id: 'runs-start.form-issues-first',
    area: 'runs-start',
    summary:
      'a refused run start with a requirement of the wrong form (empty_text, invalid_kind, too_long) lists only those in `rejected[]`; duplicate, location_as_requirement and too_many_musts come once the form is right',
    allowedBy:
      'POST /runs: "422 requirements_rejected (rejected[], warnings[]; nothing started)" says what an issue is, not that every offending requirement gets one in the same answer',
  },
] as const satisfies readonly VariantDefinition[];
