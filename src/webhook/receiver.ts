// CONTRACT placeholder: the webhook work replaces this file with the real receiver (same exports).
import type { JsonValue } from '../json/lossless.js';

export interface ReceivedDelivery {
  seq: number;
  receivedAt: number;
  method: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Raw bytes exactly as received. */
  body: Buffer;
  json: JsonValue | undefined;
  signature: { header: string | undefined; valid: boolean };
  answeredStatus: number;
}

export interface ResponsePlan {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface WebhookReceiver {
  /** Local URL it listens on, e.g. http://127.0.0.1:41234/hooks/<nonce>. */
  readonly url: string;
  deliveries(): readonly ReceivedDelivery[];
  waitFor(
    predicate: (d: ReceivedDelivery) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ReceivedDelivery | undefined>;
  /** Answer the next delivery matching `predicate` with `plan` (once): a 500, a 3xx, a slow reply. */
  planResponse(predicate: (d: { headers: Record<string, string>; json: JsonValue | undefined }) => boolean, plan: ResponsePlan): void;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** host:port, default 127.0.0.1:0. */
  listen?: string;
  secret: string;
  /** PEM contents. */
  tls?: { cert: string; key: string };
  maxBodyBytes?: number;
}

export async function startWebhookReceiver(_opts: ReceiverOptions): Promise<WebhookReceiver> {
  throw new Error('webhook receiver not implemented yet');
}
