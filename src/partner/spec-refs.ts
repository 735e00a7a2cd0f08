// Section references exactly as the spec's headings read ("Heading › Subheading"), typed by the
// headings of the spec (`SpecSection`): a mistyped one does not compile.

import type { SpecSection } from '../runner/spec-section-names.js';

export const P = {
  general: 'What the service does',
  identifiers: 'Resources and their fields › Identifier conventions',
  job: 'Resources and their fields › Job',
  run: 'Resources and their fields › Run (response of reading a run)',
  notice: 'Resources and their fields › Notice',
  decisionItem: 'Resources and their fields › Decision (request item)',
  runStatus: 'States and transitions › Run status',
  commonHeaders: 'Endpoints › Common headers',
  redeem: 'Endpoints › POST /activations/redeem',
  jobs: 'Endpoints › POST /jobs',
  reveal: 'Endpoints › POST /runs/{run_id}/candidates/{candidate_id}/reveal',
  runsStart: 'Endpoints › POST /runs (start a run)',
  runsRead: 'Endpoints › GET /runs/{run_id}',
  decisions: 'Endpoints › POST /runs/{run_id}/decisions',
  webhookTest: 'Endpoints › POST /sandbox/webhooks/test (sandbox only; answers `404 not_found` in production)',
  authentication: 'Authentication',
  events: 'Events',
  errors: 'Errors',
  crossCutting: 'Errors › Cross-cutting errors (any endpoint)',
  errorsByEndpoint: 'Errors › Errors by endpoint',
  sandboxErrors: 'Errors › Sandbox-only errors',
  retries: 'Errors › Idempotency and retries',
  limits: 'Limits',
  versioning: 'Versioning',
} as const satisfies Record<string, SpecSection>;
