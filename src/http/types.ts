import type { JsonValue } from '../json/lossless.js';
import type { RecordedExchange } from './recorded-exchange.js';

/** Which secrets a request carries. Default: partner key and org token of the primary organization. */
export type RequestAuth = 'partner+org' | 'partner' | 'none' | { partnerKey?: string; orgToken?: string };

export interface RequestSpec {
  method: string;
  /** Relative to the base URL (which ends in /v1), e.g. "/runs" or "/runs/abc". */
  path: string;
  /** Serialized with the lossless writer (bigints stay integer tokens). */
  body?: unknown;
  /** Sent byte for byte instead of `body` (malformed JSON, wrong types, huge bodies). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  auth?: RequestAuth;
  /** Sets x-svc-lang. */
  lang?: 'he' | 'en';
  /** Per-request time-out in ms (default from config). */
  timeoutMs?: number;
  /** Short label shown beside the exchange in reports ("setup: redeem"). */
  label?: string;
  /** Part of a deliberate burst over the rate limit (rate-limit checks only): see Pacer.burst. */
  unpaced?: boolean;
  /**
   * 'high': served before normal requests when the budget is short: the critical path (the real run,
   * cert-slow). 'spare': the exploration, sent only on budget no other request waits for (see Pacer).
   */
  priority?: 'high' | 'spare';
  /** With 'spare': once this aborts, it is not sent unless already on its way (status 0, no_spare_budget). */
  spareStop?: AbortSignal;
}

export interface ApiResponse {
  /** 0 when no HTTP response was received (see transportError). */
  status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Body decoded as UTF-8 (cut at the client's body limit). */
  text: string;
  /** Body parsed losslessly, or undefined when it is not JSON (see jsonError). */
  json: JsonValue | undefined;
  jsonError?: string;
  /** Byte offset of the first invalid UTF-8 sequence of the body, when it has one. */
  invalidUtf8At?: number;
  transportError?: { code: string; message: string };
  /** The recorded exchange (redacted), also kept in the check's result. */
  exchange: RecordedExchange;
  /**
   * The body is longer than LAZY_JSON_ABOVE_CHARS: it is kept in a file, and `text`, `json` and
   * `jsonError` read (and parse) it when read (src/http/answer.ts).
   */
  large?: true;
}

export interface ApiClient {
  request(spec: RequestSpec): Promise<ApiResponse>;
  get(path: string, opts?: Omit<RequestSpec, 'method' | 'path'>): Promise<ApiResponse>;
  post(path: string, body: unknown, opts?: Omit<RequestSpec, 'method' | 'path' | 'body'>): Promise<ApiResponse>;
}
