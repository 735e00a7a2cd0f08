import type { ObservedWebhookAttempt, RedeliveryCandidate } from '../hooks.js';
import type { FaultSet } from '../faults/index.js';
import type { Points } from '../faults/points.js';

export interface WebhookEnvelope {
  event_id: string;
  event: string;
  run_id: string;
  organization_external_id: string;
  job_external_id: string;
  occurred_at: string;
  [field: string]: unknown;
}

export interface WebhookAttempt {
  eventId: string;
  attempt: number;
  url: string;
  status: number | null;
  error?: string;
  at: number;
}

export interface WebhookQueue {
  /** dedupe (default true): run_completed/run_failed at most once per run_id; candidate_revealed once per (run_id, candidate_id). The test endpoint passes dedupe: false. wrongSignature: signed with a deliberately wrong secret, sent once, never retried. */
  enqueue(item: {
    partnerId: string;
    organizationId: string;
    envelope: WebhookEnvelope;
    wrongSignature?: boolean;
    dedupe?: boolean;
  }): void;
  /** Re-examine paused items (after an enable or a URL change). */
  wake(): void;
  attempts(): ReadonlyArray<WebhookAttempt>;
  close(): Promise<void>;
}

export interface WebhookQueueOptions {
  timeScale: number;
  faults: FaultSet;
  /** The points where the active faults change how events are delivered. */
  points: Pick<Points, 'deliveryPolicy' | 'webhookEnvelope' | 'delivery'>;
  /** Conformant variants (src/sandbox/variants); default none. */
  variants?: ReadonlySet<string>;
  sandboxHeader: boolean;
  allowLoopback: boolean;
  /** undefined: no webhook configured → wait. */
  target(partnerId: string): { url: string; secret: string } | undefined;
  /** Partner or organization disabled → wait. */
  paused(partnerId: string, organizationId: string): boolean;
  log?: (line: string) => void;
  /** Called after every delivery attempt (an embedder's recorder). */
  onAttempt?: (attempt: ObservedWebhookAttempt) => void;
  /** An embedder's choice to send a delivered event once more (SandboxHooks.redeliverAfterMs). */
  redeliverAfterMs?: (delivered: RedeliveryCandidate) => number | undefined;
  /** Acknowledgement time-out in real milliseconds; default the spec's 10 s divided by timeScale. Tests raise it so a busy machine does not fail a delivery. */
  ackTimeoutMs?: number;
}
