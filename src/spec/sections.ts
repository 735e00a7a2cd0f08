// The one table of spec section references by short name, used by every command (the checks of `run`
// and its shared setup, the rules of `partner`, the checks of `receiver` and `scan`). Each value must
// be a heading of the spec (`SpecSection`, generated from spec/partner-api-v1.md at build time), so a
// mistyped one does not compile.

import type { SpecSection } from './section-names.js';

export const S = {
  general: 'What the service does',
  identifiers: 'Resources and their fields › Identifier conventions',
  connection: 'Resources and their fields › Organization connection (result of redeeming a code)',
  activationCode: 'Resources and their fields › Activation code',
  user: 'Resources and their fields › User (recruiter)',
  job: 'Resources and their fields › Job',
  requirementInput: 'Resources and their fields › RequirementInput (request)',
  requirement: 'Resources and their fields › Requirement (in the 202 response of a run start)',
  requirementIssue: 'Resources and their fields › RequirementIssue (in `rejected[]` and `warnings[]`)',
  jobIssue: 'Resources and their fields › JobIssue (in `rejected[]` of a job rejection)',
  run: 'Resources and their fields › Run (response of reading a run)',
  notice: 'Resources and their fields › Notice',
  candidate: 'Resources and their fields › Candidate',
  candidateRequirement: 'Resources and their fields › CandidateRequirement',
  revealResult: 'Resources and their fields › Reveal result',
  decisionItem: 'Resources and their fields › Decision (request item)',
  runStatus: 'States and transitions › Run status',
  contactState: 'States and transitions › Candidate contact state',
  codeStates: 'States and transitions › Activation code',
  commonHeaders: 'Endpoints › Common headers',
  redeem: 'Endpoints › POST /activations/redeem',
  users: 'Endpoints › POST /users',
  jobs: 'Endpoints › POST /jobs',
  runsStart: 'Endpoints › POST /runs (start a run)',
  runsRead: 'Endpoints › GET /runs/{run_id}',
  reveal: 'Endpoints › POST /runs/{run_id}/candidates/{candidate_id}/reveal',
  decisions: 'Endpoints › POST /runs/{run_id}/decisions',
  webhookTest: 'Endpoints › POST /sandbox/webhooks/test (sandbox only; answers `404 not_found` in production)',
  sandbox: 'Endpoints › Sandbox behaviour',
  authentication: 'Authentication',
  events: 'Events',
  errors: 'Errors',
  crossCutting: 'Errors › Cross-cutting errors (any endpoint)',
  byEndpoint: 'Errors › Errors by endpoint',
  sandboxErrors: 'Errors › Sandbox-only errors',
  retries: 'Errors › Idempotency and retries',
  limits: 'Limits',
  versioning: 'Versioning',
} as const satisfies Record<string, SpecSection>;
