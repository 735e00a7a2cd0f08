// Generic hooks for an embedder that watches the sandbox from outside (e.g. a recorder of a partner's
// traffic) or answers some requests differently at points it chooses. The sandbox knows nothing about
// who uses them or why: it only says what went over the wire and offers the spec's own simulated answers.

/** A request as the sandbox received it. */
interface HookRequest {
  /** Sequence number of the request within this sandbox (1, 2, …): ties hook calls and observations together. */
  id: number;
  method: string;
  /** Path with query string, as sent. */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer;
  /** Name of the matched route (redeem, users, jobs, runs-start, runs-read, reveal, decisions, webhook-test). */
  route?: string;
}

interface HookResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * An answer chosen by the embedder instead of executing the request: the same answer the
 * `x-svc-sandbox-simulate` header would give (spec: Errors › Sandbox-only errors), so nothing is executed.
 * `retryAfterSeconds` replaces the documented 30 of `rate_limited` (header and body).
 */
interface SimulatedAnswer {
  simulate: 'rate_limited' | 'rate_limit_unavailable' | 'internal_error';
  retryAfterSeconds?: number;
}

/** One request and what became of it on the wire. */
export interface ObservedExchange {
  kind: 'exchange';
  request: HookRequest;
  /** Epoch ms when the request's headers arrived. */
  receivedAt: number;
  /** Epoch ms when the answer was written (or the connection destroyed). */
  answeredAt: number;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Buffer;
  /** The answer was never sent: the connection was destroyed after the sandbox executed the request. */
  dropped: boolean;
  /** The answer was a SimulatedAnswer chosen by `hooks.simulate`. */
  simulated: boolean;
}

/** One webhook delivery attempt of the queue. */
export interface ObservedWebhookAttempt {
  kind: 'webhook-attempt';
  eventId: string;
  event: string;
  runId: string;
  attempt: number;
  url: string;
  /** Signed with a deliberately wrong secret (the bad-signature test delivery). */
  wrongSignature: boolean;
  /** HTTP status of the receiver's answer, or null when none came within the acknowledgement time-out. */
  status: number | null;
  error?: string;
  location?: string;
  startedAt: number;
  answeredAt: number;
  /** The acknowledgement time-out applied, in real ms. */
  ackTimeoutMs: number;
}

export type SandboxObservation = ObservedExchange | ObservedWebhookAttempt;

export interface SandboxHooks {
  /**
   * Consulted for every request that passed authentication and the rate limit, at the point where the
   * sandbox's simulate header applies; a returned answer replaces executing the request.
   */
  simulate?(req: HookRequest): SimulatedAnswer | undefined;
  /**
   * After the sandbox executed a request: 'send' its answer, 'drop' the connection instead (the answer is
   * lost, the request's effects stand), or send a replacement answer.
   */
  deliver?(req: HookRequest, res: HookResponse): 'send' | 'drop' | { replace: HookResponse };
  /** Every exchange over a socket and every webhook delivery attempt, in the order they end. */
  observe?(event: SandboxObservation): void;
  /**
   * When a run reaches completed or failed: how long (real ms) to hold its terminal webhook back before it
   * is queued, or undefined to queue it now. An embedder that answers the run's reads with `running` for a
   * while holds the event as long, so that the reads and the webhook never contradict each other.
   */
  terminalEventDelayMs?(runId: string): number | undefined;
  /**
   * After a valid delivery was acknowledged with 2xx: how long (real ms) until the same event is sent
   * again, the same event_id and bytes (Events, delivery rule 5: "Delivery is at-least-once"), or
   * undefined to be done with it. Asked once per event.
   */
  redeliverAfterMs?(delivered: RedeliveryCandidate): number | undefined;
}

/** An event just delivered, as `redeliverAfterMs` is asked about it. */
export type RedeliveryCandidate = Pick<ObservedWebhookAttempt, 'eventId' | 'event' | 'runId'>;
