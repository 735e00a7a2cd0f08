// The partner's traffic as plain data: what the judge reads. Built by the recorder from the sandbox's
// observations; the judge and its rules never see the sandbox itself.

import type { InjectionPoint } from './injection-points.js';

export type Endpoint = 'redeem' | 'users' | 'jobs' | 'runs-start' | 'runs-read' | 'reveal' | 'decisions' | 'webhook-test' | 'other';

/** Which of the documented injections answered a request (see injections.ts). */
export type InjectionId = InjectionPoint['id'];

export interface PartnerRequest {
  /** 1, 2, … in arrival order. */
  id: number;
  /** Epoch ms when the request arrived. */
  at: number;
  /** Epoch ms when it was answered (or its connection cut). */
  answeredAt: number;
  method: string;
  /** Path without the query string, e.g. /v1/runs/…. */
  path: string;
  /** Raw query string without '?', '' when none. */
  query: string;
  endpoint: Endpoint;
  /** The run id in the path, for run reads, reveals and decisions. */
  runId?: string;
  headers: Record<string, string>;
  bodyText: string;
  /** The body parsed as JSON when it is; undefined otherwise. */
  json?: unknown;
  /** 0 when the answer was lost (connection cut). */
  status: number;
  /** The answer was never delivered. */
  lost: boolean;
  responseHeaders: Record<string, string>;
  responseText: string;
  responseJson?: unknown;
  /** Error code of a non-2xx answer. */
  errorCode?: string;
  injected?: InjectionId;
}

export interface WebhookDelivery {
  eventId: string;
  event: string;
  runId: string;
  attempt: number;
  url: string;
  wrongSignature: boolean;
  status: number | null;
  error?: string;
  location?: string;
  startedAt: number;
  answeredAt: number;
  ackTimeoutMs: number;
}

export interface Traffic {
  requests: readonly PartnerRequest[];
  deliveries: readonly WebhookDelivery[];
}

export interface JudgeContext {
  /** The spec's durations are divided by this. */
  timeScale: number;
  /** A webhook URL is registered for the partner. */
  webhookRegistered: boolean;
  /** Injections are on (off with --no-inject). */
  inject: boolean;
  /** The session is over: a rule still waiting for evidence is settled now. */
  final: boolean;
  /** Epoch ms "now" (the end of the session when final). */
  now: number;
}

/** A duration of the spec, in real ms at this time scale. */
export function specMs(ctx: Pick<JudgeContext, 'timeScale'>, ms: number): number {
  return ms / ctx.timeScale;
}
