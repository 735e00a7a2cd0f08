// What the OpenAPI description says of each endpoint beyond the endpoint table (src/api/endpoints.ts,
// which gives the method, path, schemas and whether the org token is sent): its operationId, tag,
// summary, description and examples. Error responses come from error-codes.ts, schemas from schemas/.

import type { EndpointName } from '../api/endpoints.js';
import { issueList, REQUIREMENT_WARNINGS } from './issue-codes.js';

export type OperationKey =
  'redeem' | 'users' | 'jobs' | 'startRun' | 'readRun' | 'reveal' | 'decisions' | 'testWebhook';

export interface Operation {
  /** The operationId. */
  key: OperationKey;
  /** Its row of the endpoint table. */
  endpoint: EndpointName;
  summary: string;
  /** The spec's section, and what a client must know (retry safety, status codes left open). */
  description: string;
  tag: 'Organizations' | 'Recruiters' | 'Jobs' | 'Runs' | 'Sandbox';
  /** Examples of the request body, whose schema the endpoint table names. */
  requestExamples?: Record<string, { summary: string; value: unknown }>;
  /** '2XX' where the spec leaves the success status open ("Success status code: not shown"). */
  success: { status: '200' | '202' | '2XX'; description: string; example: unknown };
  /** Sandbox-only header parameters beyond x-svc-sandbox-simulate (which every operation takes). */
  revealPriceHeader?: boolean;
}

/** The sandbox's fixture jobs (Sandbox behaviour): a run start naming one answers at once. */
export const FIXTURE_NAMES = [
  'cert-notices-all',
  'cert-notice-unknown',
  'cert-empty',
  'cert-failed',
  'cert-slow',
  'cert-extra-fields',
  'cert-webhook',
] as const;

const RUN_ID = '3f1c2a7e-5b8d-4e3a-9c21-7d5e0b6a4f10';
const CANDIDATE_ID = 990000000001;
const ORG_ID = '8a4e6c1d-2b3f-4a5e-8d7c-1e2f3a4b5c6d';
const USER_ID = 'c0a8012e-7d4b-4f6a-b3e2-9f1d5c7a8b90';
const JOB_ID = '5e7d9c1b-3a2f-4e6d-8b0a-2c4e6f8a0b1c';

export const OPERATIONS: readonly Operation[] = [
  {
    key: 'redeem',
    endpoint: 'redeem',
    tag: 'Organizations',
    summary: 'Redeem an activation code',
    description:
      'Connects a customer organization (spec: Endpoints › POST /activations/redeem). Sent with `x-partner-key` only. The code `SVC-XXXX-XXXX` is taken as typed: case, spaces and dashes are normalized. Single use; valid 14 days by default. The org token is returned this one time only. Not safe to retry: after a lost response a new activation code must be obtained from the service operator.',
    requestExamples: {
      canonical: { summary: 'the code as issued', value: { code: 'SVC-ABCD-EFGH', external_id: 'customer-42' } },
      typed: {
        summary: 'lower case with spaces, accepted (normalized on input)',
        value: { code: 'svc abcd efgh', external_id: 'customer-43' },
      },
    },
    success: {
      status: '200',
      description: 'The organization is connected; `org_token` (`sot_` + 48 lowercase hex) is returned once only.',
      example: {
        organization_id: ORG_ID,
        org_token: `sot_${'0123456789abcdef'.repeat(3)}`,
        organization_name: 'Example Staffing Ltd',
      },
    },
  },
  {
    key: 'users',
    endpoint: 'users',
    tag: 'Recruiters',
    summary: 'Register or update a recruiter',
    description:
      'Upsert on `external_id` within the organization (spec: Endpoints › POST /users); retry-safe; a repeat returns the same `user_id` with `created: false`. A registered user is an API-only identity: no login, nothing is mailed. Allowed values of `role`: not shown. Success status code: not shown (any 2xx).',
    requestExamples: {
      recruiter: {
        summary: 'a recruiter',
        value: {
          external_id: 'recruiter-7',
          email: 'dana@partner.example',
          full_name: 'Dana Levi',
          role: 'recruiter',
        },
      },
    },
    success: {
      status: '2XX',
      description: 'Registered (`created: true`) or already known (`created: false`). The exact 2xx status: not shown.',
      example: { user_id: USER_ID, created: true },
    },
  },
  {
    key: 'jobs',
    endpoint: 'jobs',
    tag: 'Jobs',
    summary: 'Create or update a job',
    description:
      'Upsert on `external_id` within the organization (spec: Endpoints › POST /jobs); retry-safe. A repeat replaces `title`, `description_text`, `location_text` and returns the same `job_id` with `created: false, updated: true`; runs already started keep their description. Success status code: not shown (any 2xx).',
    requestExamples: {
      job: {
        summary: 'a job, description as plain text',
        value: {
          external_id: 'job-1001',
          title: 'Backend developer',
          description_text: 'Node.js services, PostgreSQL, on-call rotation.',
          location_text: 'Tel Aviv',
        },
      },
    },
    success: {
      status: '2XX',
      description: 'Created, or updated on a repeat call. The exact 2xx status: not shown.',
      example: { job_id: JOB_ID, created: false, updated: true },
    },
  },
  {
    key: 'startRun',
    endpoint: 'runs-start',
    tag: 'Runs',
    summary: 'Start a run',
    description:
      'Starts a run for a job with an acting recruiter, a target count (1 to 100 in production, 1 to 20 in the sandbox) and optional requirements (spec: Endpoints › POST /runs (start a run)). Not idempotent: every accepted call starts a new run; never retried automatically after a timeout or 5xx. A 422 or 404 creates nothing. In the sandbox a `job_external_id` starting with `cert-` names a fixture (Sandbox behaviour: ' +
      FIXTURE_NAMES.map((f) => `\`${f}\``).join(', ') +
      '), answered at once with `sandbox: {fixture: <name>}`; fixture runs do not count toward the daily run quota.',
    requestExamples: {
      ownJob: {
        summary: "a run of the partner's own job",
        value: {
          job_external_id: 'job-1001',
          acting_user_external_id: 'recruiter-7',
          target_count: 10,
          requirements: [
            { text: 'PostgreSQL', kind: 'must' },
            { text: 'Kubernetes', kind: 'nice' },
          ],
        },
      },
      fixture: {
        summary: 'sandbox: a fixture run',
        value: { job_external_id: 'cert-notices-all', acting_user_external_id: 'recruiter-7', target_count: 6 },
      },
    },
    success: {
      status: '202',
      description: `The run started (\`status: running\`); \`warnings[]\` may be empty. Warning codes: ${issueList(REQUIREMENT_WARNINGS)}.`,
      example: {
        run_id: RUN_ID,
        status: 'running',
        warnings: [
          {
            index: 1,
            code: 'short_term_may_be_dropped',
            message_he: 'מונח קצר מדי',
            message_en: 'A term shorter than 3 characters may be dropped',
            suggestion_he: null,
            suggestion_en: 'Write the term out in full',
          },
        ],
        requirements: [
          { index: 0, text: 'PostgreSQL', kind: 'must', origin: 'partner' },
          { index: 1, text: 'Go', kind: 'nice', origin: 'partner' },
        ],
      },
    },
  },
  {
    key: 'readRun',
    endpoint: 'runs-read',
    tag: 'Runs',
    summary: 'Read a run',
    description:
      'Status, progress, notices and confirmed candidates (spec: Endpoints › GET /runs/{run_id}). Read-only and retry-safe. Poll every 5 seconds while a recruiter watches a `running` run; none after `completed` or `failed`; stop after 30 minutes of `running`. Unknown `status` is treated as `running`, unknown notice `slot` as `above_list`, unknown `severity` as `warning`. Notice codes that can occur in v1: `function_error`, `run_progress`, `location_relaxed`, `must_unmet_hidden`, `paid_fallback`, `already_shown`, `requirement_blockers`, `requirement_attribution`, `run_funnel`; any notice, unknown codes included, is rendered from `title` and `body`, styled by `severity`, placed by `slot`, and reported in `notices_shown`.',
    revealPriceHeader: true,
    success: {
      status: '200',
      description: 'The run.',
      example: {
        run_id: RUN_ID,
        status: 'completed',
        progress: { confirmed: 1, target: 1, screened: 40 },
        notices: [
          {
            code: 'run_funnel',
            severity: 'info',
            slot: 'above_list',
            title: 'Search summary',
            body: '40 profiles screened, 1 confirmed.',
          },
          {
            code: 'requirement_blockers',
            severity: 'warning',
            slot: 'on_requirement',
            title: 'Rare requirement',
            body: 'Few profiles state this requirement.',
            ref: { requirement_index: 0 },
          },
        ],
        candidates: [
          {
            id: CANDIDATE_ID,
            name: 'Candidate 3f2a',
            title: 'Backend developer',
            company: null,
            location: 'Tel Aviv',
            verdict: 'strong',
            requirements: [
              {
                index: 0,
                text: 'PostgreSQL',
                kind: 'must',
                met: true,
                evidence: 'Five years of PostgreSQL administration.',
              },
              { index: 1, text: 'Kubernetes', kind: 'nice', met: null, evidence: null },
            ],
            contact_state: 'locked',
            reveal_price_credits: 12,
          },
        ],
        sandbox: { fixture: 'cert-notices-all' },
      },
    },
  },
  {
    key: 'reveal',
    endpoint: 'reveal',
    tag: 'Runs',
    summary: "Reveal a candidate's contact",
    description:
      "Reveals the contact of a candidate currently listed on the run; costs credits in production (the price is `reveal_price_credits` of the latest run read, never cached), nothing in the sandbox (spec: Endpoints › POST /runs/{run_id}/candidates/{candidate_id}/reveal). A candidate already revealed for the organization is not charged again (`credits_charged: 0`); retry-safe. `email` or `phone` may be null. Production may answer `202` while a reveal is pending; that response's shape: not shown.",
    requestExamples: { reveal: { summary: 'the acting recruiter', value: { acting_user_external_id: 'recruiter-7' } } },
    success: {
      status: '200',
      description: 'The contact; `credits_charged` is authoritative. `sandbox: true` in the sandbox only.',
      example: {
        email: `candidate-${CANDIDATE_ID}@example.invalid`,
        phone: null,
        credits_charged: 0,
        wallet_balance_after: 500,
        sandbox: true,
      },
    },
  },
  {
    key: 'decisions',
    endpoint: 'decisions',
    tag: 'Runs',
    summary: 'Report decisions and shown notices',
    description:
      'Reports every recruiter decision and every notice code rendered for the run, unknown codes included (spec: Endpoints › POST /runs/{run_id}/decisions); a condition of the partnership. Each (run_id, candidate_id, decision, occurred_at) is stored once, a repeat counts in `duplicates`; retry-safe when the same `occurred_at` is reused. Any 422 stores nothing: fix and resend the whole batch. The error for a candidate not in the run: not shown. Success status code: not shown (any 2xx).',
    requestExamples: {
      batch: {
        summary: 'a rejection without a reason and a shortlist, with the notices shown',
        value: {
          acting_user_external_id: 'recruiter-7',
          decisions: [
            {
              candidate_id: CANDIDATE_ID,
              decision: 'shortlisted',
              note: 'Strong PostgreSQL background',
              occurred_at: '2026-01-15T09:41:07Z',
            },
            {
              candidate_id: CANDIDATE_ID + 1,
              decision: 'rejected',
              reject_reason: null,
              occurred_at: '2026-01-15T09:42:30Z',
            },
          ],
          notices_shown: ['run_funnel', 'requirement_blockers', 'zz_certification_probe'],
        },
      },
    },
    success: {
      status: '2XX',
      description: 'Stored. The exact 2xx status: not shown.',
      example: { accepted: 2, duplicates: 0 },
    },
  },
  {
    key: 'testWebhook',
    endpoint: 'webhook-test',
    tag: 'Sandbox',
    summary: 'Queue a test webhook (sandbox only)',
    description:
      'Sandbox only; answers `404 not_found` in production (spec: Endpoints › POST /sandbox/webhooks/test). Queues a chosen event to the registered URL through the normal webhook queue (usually within a minute), with `job_external_id` `cert-webhook`, a fresh `run_id` that does not exist when read, and `candidate_id` 990000000001 on `candidate_revealed`. With `valid_signature: false` the event is signed with a deliberately wrong secret, sent once, never retried: the receiver must answer it non-2xx.',
    requestExamples: {
      completed: { summary: 'a correctly signed run_completed', value: { event: 'run_completed' } },
      badSignature: {
        summary: 'a bad signature the receiver must refuse',
        value: { event: 'candidate_revealed', valid_signature: false },
      },
    },
    success: {
      status: '202',
      description: "Queued; the delivery's `event_id` equals this one.",
      example: {
        event_id: '9b2d4f6a-8c0e-4a1b-9d3f-5e7a9c1b3d5f',
        event: 'run_completed',
        run_id: '1d3f5a7c-9e1b-4d2f-8a4c-6e8a0c2e4a6c',
        valid_signature: true,
      },
    },
  },
];
