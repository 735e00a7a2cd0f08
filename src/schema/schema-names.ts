// Every schema of schemas/, by its $id. A test keeps this list and the folder in step.

export const SCHEMA_NAMES = [
  // resources and responses
  'organization-connection',
  'user-response',
  'job-response',
  'job-issue',
  'requirement',
  'requirement-issue',
  'run-start-response',
  'run',
  'progress',
  'notice',
  'candidate',
  'candidate-requirement',
  'reveal-result',
  'decisions-response',
  'sandbox-fixture',
  // errors
  'error-envelope',
  'job-rejected',
  'requirements-rejected',
  'code-already-redeemed',
  'insufficient-credits',
  'unknown-reject-reason',
  'sandbox-limit',
  'sandbox-run-quota',
  'unknown-fixture',
  // webhooks
  'webhook-envelope',
  'webhook-run-completed',
  'webhook-run-failed',
  'webhook-candidate-revealed',
  'webhook-test-response',
  // request bodies
  'redeem-request',
  'user-request',
  'job-request',
  'requirement-input',
  'run-start-request',
  'reveal-request',
  'decision',
  'decisions-request',
  'webhook-test-request',
  // svc-certify's own output
  'results',
] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

const known: ReadonlySet<string> = new Set(SCHEMA_NAMES);

/** Lets callers holding a plain string (Expect.schema) refuse an unknown name up front. */
export function isSchemaName(name: string): name is SchemaName {
  return known.has(name);
}
