// Every error code of the spec (Errors: cross-cutting, by endpoint, sandbox-only, simulated), once:
// the status it comes with, the operations it applies to, the schema of its body where the spec names
// extra fields, and an example body. build-openapi.ts groups them into each operation's responses.

import { rejectReasons } from '../schema/reject-reasons.js';
import type { ApiSchemaName } from './component-schemas.js';
import { issueList, JOB_ISSUES, REQUIREMENT_REJECTIONS } from './issue-codes.js';
import { FIXTURE_NAMES, type OperationKey } from './operations.js';

export interface ErrorCode {
  code: string;
  status: number;
  /** The operations answering it; 'all' = every operation of the API (cross-cutting). */
  on: readonly OperationKey[] | 'all';
  /** Operations the code never applies to, for a cross-cutting code (no org token on redeem). */
  except?: readonly OperationKey[];
  /** When and why, in the spec's words. */
  meaning: string;
  /** The body's schema when the code carries extra fields a schema of schemas/ describes. */
  schema?: ApiSchemaName;
  /** Extra fields of the example body, beyond error and message. */
  extra?: Record<string, unknown>;
  /** Only the sandbox answers it (Errors › Sandbox-only errors, simulated errors). */
  sandboxOnly?: boolean;
  /** The response carries Retry-After. */
  retryAfter?: boolean;
}

const ALL = 'all' as const;
const SIMULATED = 'sandbox: answered on any authenticated request with `x-svc-sandbox-simulate: ';

const ERROR_CODES: readonly ErrorCode[] = [
  // Errors › Cross-cutting errors (any endpoint)
  { code: 'invalid_partner_key', status: 401, on: ALL, meaning: 'partner key missing or unknown; do not retry' },
  {
    code: 'invalid_org_token',
    status: 401,
    on: ALL,
    except: ['redeem'],
    meaning: 'org token missing or unknown; the customer must reconnect with a new activation code',
  },
  { code: 'partner_disabled', status: 403, on: ALL, meaning: 'partner account disabled; do not retry' },
  {
    code: 'organization_disabled',
    status: 403,
    on: ALL,
    except: ['redeem'],
    meaning: 'customer connection disabled; do not retry, tell the customer the connection is paused',
  },
  {
    code: 'rate_limited',
    status: 429,
    on: ALL,
    retryAfter: true,
    meaning:
      'over the rate limit; wait at least Retry-After seconds. The sandbox simulation (`x-svc-sandbox-simulate: rate_limited`) adds `retry_after_seconds` (30)',
    extra: { retry_after_seconds: 30 },
  },
  {
    code: 'rate_limit_unavailable',
    status: 503,
    on: ALL,
    meaning: 'the quota could not be verified, nothing was executed; retry with backoff',
  },
  {
    code: 'internal_error',
    status: 500,
    on: ALL,
    sandboxOnly: true,
    meaning: `${SIMULATED}internal_error\`. Any 5xx is a service-side failure: retry with backoff only where the endpoint is retry-safe`,
  },
  {
    code: 'insufficient_credits',
    status: 402,
    on: ALL,
    except: ['reveal'],
    sandboxOnly: true,
    schema: 'insufficient-credits',
    meaning: `${SIMULATED}insufficient_credits\` (\`balance\` 0, \`reason\` simulated)`,
    extra: { balance: 0, required: 12, reason: 'simulated' },
  },
  {
    code: 'invalid_request',
    status: 422,
    on: ALL,
    sandboxOnly: true,
    meaning:
      'sandbox: an invalid sandbox header value (`allowed` lists the valid values of `x-svc-sandbox-simulate`) or test-webhook body value',
    extra: { allowed: ['rate_limited', 'rate_limit_unavailable', 'internal_error', 'insufficient_credits'] },
  },
  // Errors › Errors by endpoint
  { code: 'code_not_found', status: 404, on: ['redeem'], meaning: 'no such activation code' },
  {
    code: 'code_already_redeemed',
    status: 409,
    on: ['redeem'],
    schema: 'code-already-redeemed',
    meaning: 'the code was redeemed before; the token is not returned again',
    extra: { redeemed_at: '2026-01-15T09:30:00Z' },
  },
  { code: 'code_expired', status: 410, on: ['redeem'], meaning: 'past the validity period (14 days by default)' },
  {
    code: 'external_id_taken',
    status: 409,
    on: ['redeem'],
    meaning: 'the organization external_id is already used by this partner',
  },
  { code: 'invalid_user', status: 422, on: ['users'], meaning: 'the user was refused; the condition: not shown' },
  {
    code: 'job_rejected',
    status: 422,
    on: ['jobs'],
    schema: 'job-rejected',
    meaning: `the job was refused, nothing stored; \`rejected[]\` holds a JobIssue per field. Codes: ${issueList(JOB_ISSUES)}`,
    extra: {
      rejected: [
        {
          field: 'location_text',
          code: 'location_missing',
          message_he: 'חסר מיקום',
          message_en: 'The location is missing',
        },
      ],
    },
  },
  {
    code: 'requirements_rejected',
    status: 422,
    on: ['startRun'],
    schema: 'requirements-rejected',
    meaning: `requirements refused, nothing started; \`rejected[]\` and \`warnings[]\` of RequirementIssue, each shown verbatim beside the requirement at \`index\`. Rejection codes: ${issueList(REQUIREMENT_REJECTIONS)}`,
    extra: {
      rejected: [
        {
          index: 1,
          code: 'duplicate',
          message_he: 'דרישה כפולה',
          message_en: 'Same text as requirement 0',
          suggestion_he: null,
          suggestion_en: 'Remove the repeated requirement',
        },
      ],
      warnings: [],
    },
  },
  {
    code: 'job_not_found',
    status: 404,
    on: ['startRun'],
    meaning: 'no job with that job_external_id in the organization',
  },
  {
    code: 'user_not_found',
    status: 404,
    on: ['startRun', 'reveal', 'decisions'],
    meaning: 'acting_user_external_id names no registered user',
  },
  {
    code: 'run_not_found',
    status: 404,
    on: ['readRun', 'reveal', 'decisions'],
    meaning: 'no such run, also for a run of another customer organization (never 403)',
  },
  {
    code: 'insufficient_credits',
    status: 402,
    on: ['reveal'],
    schema: 'insufficient-credits',
    meaning:
      'production: not enough credits for the reveal; do not retry. In the sandbox only simulated (`x-svc-sandbox-simulate: insufficient_credits`)',
    extra: { balance: 3, required: 12 },
  },
  {
    code: 'candidate_not_in_run',
    status: 404,
    on: ['reveal'],
    meaning: 'the candidate is not currently listed on the run',
  },
  {
    code: 'unknown_reject_reason',
    status: 422,
    on: ['decisions'],
    schema: 'unknown-reject-reason',
    meaning: 'a reject_reason outside the allowed list; nothing stored',
    extra: {
      allowed: [...rejectReasons()],
    },
  },
  {
    code: 'invalid_decision',
    status: 422,
    on: ['decisions'],
    meaning: 'a reject_reason on a decision other than rejected (other conditions: not shown); nothing stored',
  },
  // Errors › Sandbox-only errors
  {
    code: 'sandbox_limit',
    status: 422,
    on: ['startRun'],
    sandboxOnly: true,
    schema: 'sandbox-limit',
    meaning: 'sandbox: target_count above 20',
    extra: { max_target_count: 20 },
  },
  {
    code: 'sandbox_run_quota',
    status: 429,
    on: ['startRun'],
    sandboxOnly: true,
    retryAfter: true,
    schema: 'sandbox-run-quota',
    meaning: 'sandbox: 20 real runs for the organization in the last 24 hours',
    extra: { retry_after_seconds: 3600, limit: 20 },
  },
  {
    code: 'unknown_fixture',
    status: 422,
    on: ['startRun'],
    sandboxOnly: true,
    schema: 'unknown-fixture',
    meaning: 'sandbox: job_external_id starts with cert- but is no fixture',
    extra: { fixtures: [...FIXTURE_NAMES] },
  },
  {
    code: 'webhook_not_configured',
    status: 409,
    on: ['testWebhook'],
    sandboxOnly: true,
    meaning: 'sandbox: test webhook requested with no webhook registered for the partner',
  },
  {
    code: 'not_found',
    status: 404,
    on: ['testWebhook'],
    meaning: 'production: the sandbox route does not exist there',
  },
];

/** The codes an operation can answer, in table order. */
export function errorCodesOf(op: OperationKey): ErrorCode[] {
  return ERROR_CODES.filter((e) => (e.on === ALL ? !(e.except ?? []).includes(op) : e.on.includes(op)));
}
