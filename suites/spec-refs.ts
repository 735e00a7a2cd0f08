// Section references exactly as the spec's headings read ("Heading › Subheading"); a test checks
// every reference of every check against the spec in the repo.

export const S = {
  general: 'What the service does',
  activationCode: 'Resources and their fields › Activation code',
  run: 'Resources and their fields › Run (response of reading a run)',
  notice: 'Resources and their fields › Notice',
  candidate: 'Resources and their fields › Candidate',
  identifiers: 'Resources and their fields › Identifier conventions',
  commonHeaders: 'Endpoints › Common headers',
  redeem: 'Endpoints › POST /activations/redeem',
  users: 'Endpoints › POST /users',
  runsStart: 'Endpoints › POST /runs (start a run)',
  runsRead: 'Endpoints › GET /runs/{run_id}',
  sandbox: 'Endpoints › Sandbox behaviour',
  authentication: 'Authentication',
  errors: 'Errors',
  crossCutting: 'Errors › Cross-cutting errors (any endpoint)',
  byEndpoint: 'Errors › Errors by endpoint',
  versioning: 'Versioning',
} as const;
