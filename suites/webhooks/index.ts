// Webhooks: what the target posts to the certifier's receiver. Every wait runs beside the rest of
// the certification; deliveries are told apart by event_id or run_id, since other checks' events
// reach the same receiver in any order.
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { badSignatureFailsVerification, badSignatureNotRetried } from './bad-signatures.js';
import { lateAckRedelivered } from './late-acknowledgement.js';
import { redirectNotFollowed, retriedAfterFailure, retrySameEventId } from './retries.js';
import { retryScheduleWhole } from './retry-schedule.js';
import { candidateRevealedOnce } from './reveal-events.js';
import { certWebhookRunCompleted, productionNoEnvironmentHeader, realRunDeliveriesValid } from './run-deliveries.js';
import { testEndpointAccepted, testInvalidBody, testRequiresWebhook } from './test-endpoint.js';
import {
  contentTypeJson,
  envelopeComplete,
  occurredAtUtc,
  sandboxEnvironmentHeader,
  signatureVerifies,
  testDeliverySameEventId,
  testFixturePayload,
} from './test-events.js';
import { eventIdUnique, runEventOncePerRun } from './uniqueness.js';

export const WEBHOOK_CHECKS: readonly CheckDefinition[] = [
  testEndpointAccepted,
  testDeliverySameEventId,
  testFixturePayload,
  envelopeComplete,
  occurredAtUtc,
  contentTypeJson,
  sandboxEnvironmentHeader,
  signatureVerifies,
  certWebhookRunCompleted,
  badSignatureFailsVerification,
  badSignatureNotRetried,
  retriedAfterFailure,
  retrySameEventId,
  retryScheduleWhole,
  redirectNotFollowed,
  lateAckRedelivered,
  eventIdUnique,
  runEventOncePerRun,
  realRunDeliveriesValid,
  candidateRevealedOnce,
  testRequiresWebhook,
  testInvalidBody,
  productionNoEnvironmentHeader,
];
