// Section references exactly as the spec's headings read ("Heading › Subheading"), typed by the
// headings of the spec (`SpecSection`): a mistyped one does not compile.

import type { SpecSection } from '../runner/spec-section-names.js';

export const P = {
  general: 'What the service does',
  notice: 'Resources and their fields › Notice',
  decisionItem: 'Resources and their fields › Decision (request item)',
  runStatus: 'States and transitions › Run status',
  commonHeaders: 'Endpoints › Common headers',
  redeem: 'Endpoints › POST /activations/redeem',
  runsStart: 'Endpoints › POST /runs (start a run)',
  runsRead: 'Endpoints › GET /runs/{run_id}',
  decisions: 'Endpoints › POST /runs/{run_id}/decisions',
  webhookTest: 'Endpoints › POST /sandbox/webhooks/test (sandbox only; answers `404 not_found` in production)',
  authentication: 'Authentication',
  events: 'Events',
  crossCutting: 'Errors › Cross-cutting errors (any endpoint)',
  retries: 'Errors › Idempotency and retries',
  limits: 'Limits',
  versioning: 'Versioning',
} as const satisfies Record<string, SpecSection>;
