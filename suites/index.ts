// Every check of svc-certify, in suite order. A suite is a file exporting an array of checks, or a
// folder of files by topic whose index.ts exports it; adding one means adding it to SUITE_ORDER (if
// new) and to ALL_CHECKS here. The order of ALL_CHECKS is the order of the plan and of the output.

import type { CheckDefinition } from '../src/api-setup/check.js';
import { ACTIVATION_CHECKS } from './activation.js';
import { AUTH_CHECKS } from './auth.js';
import { CONVENTIONS_CHECKS } from './conventions.js';
import { DECISIONS_CHECKS } from './decisions/index.js';
import { FIXTURE_CHECKS } from './fixtures/index.js';
import { JOBS_CHECKS } from './jobs.js';
import { REVEAL_CHECKS } from './reveal/index.js';
import { REVEAL_PRODUCTION_CHECKS } from './reveal-production/index.js';
import { RUNS_READ_CHECKS } from './runs-read/index.js';
import { RUNS_START_CHECKS } from './runs-start/index.js';
import { USERS_CHECKS } from './users.js';
import { WEBHOOK_CHECKS } from './webhooks/index.js';
import { SANDBOX_CHECKS } from './sandbox.js';
import { PRODUCTION_CHECKS } from './production.js';
import { LIMITS_CHECKS } from './limits.js';
import { EXPLORE_CHECKS } from './explore/index.js';

export const SUITE_ORDER: readonly string[] = [
  'conventions',
  'auth',
  'activation',
  'users',
  'jobs',
  'runs-start',
  'runs-read',
  'fixtures',
  'reveal',
  'decisions',
  'sandbox',
  'production',
  'limits',
  'webhooks',
  'explore',
];

export const ALL_CHECKS: readonly CheckDefinition[] = [
  ...CONVENTIONS_CHECKS,
  ...AUTH_CHECKS,
  ...ACTIVATION_CHECKS,
  ...USERS_CHECKS,
  ...JOBS_CHECKS,
  ...RUNS_START_CHECKS,
  ...RUNS_READ_CHECKS,
  ...FIXTURE_CHECKS,
  ...REVEAL_CHECKS,
  ...REVEAL_PRODUCTION_CHECKS,
  ...DECISIONS_CHECKS,
  ...SANDBOX_CHECKS,
  ...PRODUCTION_CHECKS,
  ...LIMITS_CHECKS,
  ...WEBHOOK_CHECKS,
  ...EXPLORE_CHECKS,
];

export { UNCOVERED_REASONS, uncoveredReason } from '../src/spec/uncovered-reasons.js';
