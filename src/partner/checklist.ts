// The partner session checklist: the steps a session must contain, each something every integration does
// in production, and which step creates the situation each rule judges. The injections arrange every
// situation inside these steps, so a client that performs them all is judged on every duty; a rule left
// unexercised names the step that was skipped. docs/partner.md and the live console list the same steps.

import type { Traffic } from './traffic.js';

export interface ChecklistStep {
  id: string;
  /** What the partner does, as docs/partner.md and the console list it. */
  title: string;
  /** The traffic shows the step performed. */
  done(traffic: Traffic): boolean;
}

function jobOf(json: unknown): unknown {
  return json !== null && typeof json === 'object'
    ? (json as { job_external_id?: unknown }).job_external_id
    : undefined;
}

const startsOf = (traffic: Traffic) => traffic.requests.filter((r) => r.endpoint === 'runs-start');
const isFixture = (job: unknown): boolean => typeof job === 'string' && job.startsWith('cert-');

/** The fixtures a session starts: the notices, the unknown values, a run that takes minutes, a failed run. */
const CHECKLIST_FIXTURES = ['cert-notices-all', 'cert-notice-unknown', 'cert-slow', 'cert-failed'] as const;

function decisionCount(json: unknown): number {
  const list = json !== null && typeof json === 'object' ? (json as { decisions?: unknown }).decisions : undefined;
  return Array.isArray(list) ? list.length : 0;
}

export const CHECKLIST: readonly ChecklistStep[] = [
  {
    id: 'connect-customer',
    title: 'connect a customer: redeem an activation code (POST /activations/redeem)',
    done: (t) => t.requests.some((r) => r.endpoint === 'redeem' && (r.lost || r.status === 200)),
  },
  {
    id: 'register-recruiter',
    title: 'register the acting recruiter (POST /users)',
    done: (t) => t.requests.some((r) => r.endpoint === 'users'),
  },
  {
    id: 'create-job',
    title: "create one of the customer's jobs (POST /jobs)",
    done: (t) => t.requests.some((r) => r.endpoint === 'jobs'),
  },
  {
    id: 'start-own-run',
    title: 'start a run on that job (POST /runs with your own job_external_id)',
    done: (t) => startsOf(t).some((r) => r.status === 202 && !isFixture(jobOf(r.json))),
  },
  {
    id: 'start-fixtures',
    title: `start the fixtures ${CHECKLIST_FIXTURES.join(', ')} (POST /runs); show an error where a start fails`,
    done: (t) => CHECKLIST_FIXTURES.every((f) => startsOf(t).some((r) => jobOf(r.json) === f)),
  },
  {
    id: 'follow-runs',
    title:
      'follow each run (GET /runs/{run_id}) while a recruiter watches it, or when its webhook arrives, until it ends',
    done: (t) => t.requests.some((r) => r.endpoint === 'runs-read' && r.status === 200),
  },
  {
    id: 'reveal',
    title: 'reveal a candidate the recruiter picks (POST /runs/{run_id}/candidates/{candidate_id}/reveal)',
    done: (t) => t.requests.some((r) => r.endpoint === 'reveal'),
  },
  {
    id: 'report-decisions',
    title:
      "report the recruiter's decisions, on the real run's candidates too, and the notices shown (POST /runs/{run_id}/decisions)",
    done: (t) => t.requests.some((r) => r.endpoint === 'decisions' && decisionCount(r.json) > 0),
  },
  {
    id: 'receive-webhooks',
    title:
      'receive webhooks at your endpoint (--webhook-url): start cert-webhook and ask for a test delivery with a bad signature (POST /sandbox/webhooks/test)',
    done: (t) => t.deliveries.some((d) => !d.wrongSignature) && t.deliveries.some((d) => d.wrongSignature),
  },
  {
    id: 'renew-connection',
    title: 'keep working; when a call answers 401 invalid_org_token, renew the connection with a new activation code',
    done: (t) => {
      const refused = t.requests.find((r) => r.status === 401 && r.errorCode === 'invalid_org_token');
      return refused !== undefined && t.requests.some((r) => r.endpoint === 'redeem' && r.id > refused.id);
    },
  },
];

/**
 * The step whose traffic creates the situation each rule judges. Every rule is listed once, and every id
 * names a step (src/partner/checklist.test.ts holds the table to the rules and the steps).
 */
export const RULE_STEPS: Readonly<Record<string, string>> = {
  'secrets.not-in-url': 'connect-customer',
  'secrets.not-in-body': 'create-job',
  'requests.post-content-type-json': 'register-recruiter',
  'requests.partner-key-on-every-request': 'register-recruiter',
  'requests.org-token-on-every-request-but-redeem': 'register-recruiter',
  'requests.lang-he-or-en': 'register-recruiter',
  'requests.redeem-without-org-token': 'connect-customer',
  'requests.job-description-plain-text': 'create-job',
  'requests.candidate-ids-exact': 'start-own-run',
  'retries.backoff-from-1s': 'follow-runs',
  'retries.at-most-3-attempts': 'follow-runs',
  'retries.retry-after-honoured': 'register-recruiter',
  'retries.none-after-401-403-404-409-410-422': 'renew-connection',
  'retries.run-start-not-retried-after-5xx': 'start-fixtures',
  'retries.redeem-not-retried-after-lost-answer': 'connect-customer',
  'retries.none-after-402-insufficient-credits': 'reveal',
  'polling.running-run-read-at-most-every-5s': 'follow-runs',
  'polling.stops-at-completed-or-failed': 'follow-runs',
  'polling.stops-after-30-min-running': 'follow-runs',
  'decisions.notices-shown-reports-every-code': 'report-decisions',
  'decisions.notices-shown-includes-unknown-codes': 'report-decisions',
  'decisions.reject-reason-only-with-rejected': 'report-decisions',
  'decisions.retry-keeps-occurred-at': 'report-decisions',
  'decisions.whole-batch-resent-after-422': 'report-decisions',
  'decisions.later-action-new-occurred-at': 'report-decisions',
  'decisions.failed-call-resent': 'report-decisions',
  'decisions.occurred-at-is-action-time': 'report-decisions',
  'decisions.note-only-with-decision': 'report-decisions',
  'unknown-values.unknown-run-status-read-as-running': 'follow-runs',
  'unknown-values.error-code-handled-by-status': 'create-job',
  'unknown-values.extra-fields-flow-completed': 'start-fixtures',
  'org-token.not-used-after-invalid-org-token': 'renew-connection',
  'webhooks.valid-deliveries-acknowledged-2xx': 'receive-webhooks',
  'webhooks.valid-deliveries-never-redirected': 'receive-webhooks',
  'webhooks.bad-signature-refused': 'receive-webhooks',
  'webhooks.repeated-event-id-not-acted-on-again': 'receive-webhooks',
};

/** The step of a rule with its number (1-based), or undefined for a rule the table does not list. */
function stepOf(ruleId: string): { step: ChecklistStep; number: number } | undefined {
  const id = RULE_STEPS[ruleId];
  const at = CHECKLIST.findIndex((s) => s.id === id);
  return at < 0 ? undefined : { step: CHECKLIST[at]!, number: at + 1 };
}

/** The steps the traffic shows performed. */
export function stepsDone(traffic: Traffic): Set<string> {
  return new Set(CHECKLIST.filter((s) => s.done(traffic)).map((s) => s.id));
}

/** "checklist step 7 (reveal a candidate …) not performed", for a rule not exercised whose step is not done. */
export function missingStep(ruleId: string, done: ReadonlySet<string>): string | undefined {
  const at = stepOf(ruleId);
  if (!at || done.has(at.step.id)) return undefined;
  return `checklist step ${at.number} (${at.step.title}) not performed`;
}
