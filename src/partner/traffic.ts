// The partner's traffic as plain data: what the judge reads. Built by the recorder from the sandbox's
// observations; the judge and its rules never see the sandbox itself.

import type { EndpointName } from '../api/endpoints.js';
import type { InjectionPoint } from './injection-points.js';

/** The endpoint of the table (src/api/endpoints.ts) a request was for, or 'other'. */
export type Endpoint = EndpointName | 'other';

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
  /**
   * The request's headers, names lower-cased, as held (recorder.ts): a value past HEADER_VALUE_CAP is its
   * head, size and hash; past MAX_KEPT_HEADERS headers, the rest are only counted in `headersDropped`.
   */
  headers: Record<string, string>;
  headersDropped?: number;
  /**
   * The body as kept in memory (recorder.ts): in full up to BODY_CAP_BYTES, its first BODY_CAP_BYTES
   * beyond, and '' once evicted (at most MAX_KEPT_BODIES are held). `body` says which.
   */
  bodyText: string;
  /** The body parsed as JSON when it is, was kept in full, and is still held; undefined otherwise. */
  json?: unknown;
  /** What was recorded of the body whatever is still held; absent in hand-built traffic (tests). */
  body?: BodyRecord;
  /** 0 when the answer was lost (connection cut). */
  status: number;
  /** The answer was never delivered. */
  lost: boolean;
  responseHeaders: Record<string, string>;
  responseText: string;
  /** The parsed answer where a rule reads it (a success, a decisions or webhook-test answer); see recorder.ts. */
  responseJson?: unknown;
  /** Error code of a non-2xx answer. */
  errorCode?: string;
  injected?: InjectionId;
}

/**
 * What the recorder keeps of a request body beyond its text. A rule that needs an evicted or capped body
 * sees: `bodyText` '' (evicted) or its first BODY_CAP_BYTES (capped), `json` undefined, and this record:
 * the full size, the SHA-256 of the full bytes, and `key`, by which two bodies compare as "the same body".
 */
export interface BodyRecord {
  /** Size of the whole body in bytes. */
  bytes: number;
  /** SHA-256 (hex) of the whole body as received. */
  sha256: string;
  /**
   * Equal for the same body: for a body kept in full that is JSON, the SHA-256 of its canonical form
   * (keys sorted: JSON compared by value); otherwise `raw:` and the SHA-256 of its bytes. Fixed when
   * recorded, so a comparison never depends on whether the body was evicted since.
   */
  key: string;
  /** full: text (and JSON) held; capped: only the first BODY_CAP_BYTES held; evicted: nothing held. */
  kept: 'full' | 'capped' | 'evicted';
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
