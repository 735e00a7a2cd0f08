// The one way the certifier talks to a target. Every call is paced, timed, recorded (redacted) into
// the check that made it, and never throws for anything the target does: a hang, a reset or
// garbage bytes come back as status 0 with a transport error, so a check can fail with evidence.

import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import type { Redactor } from '../config/redact.js';
import { parseJsonLossless, stringifyJsonLossless, isJsonObject } from '../json/lossless.js';
import type { JsonValue } from '../json/lossless.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { renderCurl } from './curl.js';
import { invalidUtf8Offset } from './utf8.js';
import { createPacer } from './pacer.js';
import { recordMessage, reRedactExchange } from './record.js';
import { toTransportError } from './transport-error.js';
import type { TransportError } from './transport-error.js';
import type { ApiClient, ApiResponse, RequestSpec } from './types.js';

export interface HttpEngineOptions {
  /** Ends in /v1. */
  baseUrl: string;
  partnerKey: string;
  /** The primary org token, resolved lazily by shared setup (may be undefined before redemption). */
  orgToken: () => string | undefined;
  redactor: Redactor;
  /** Default 30_000. */
  timeoutMs?: number;
  /** Default 8 MiB. */
  maxBodyBytes?: number;
  /** --rate-limit (default 120). */
  ratePerMinute: number;
  /** The rate window is 60_000 / timeScale ms (the target divides its minute too). */
  timeScale: number;
  /** 'svc-certify/<version>'. */
  userAgent?: string;
  /** Connections to the target (default 16). */
  connections?: number;
}

export interface HttpEngineStats {
  requests: number;
  /** Responses with status 429 to paced requests that did not ask for one (simulation, deliberate bursts). */
  rateLimited: number;
  /** Count per status ("200", "429", …); transport failures by their code ("timeout", …). */
  byStatus: Record<string, number>;
}

export interface HttpEngine {
  /** A client whose exchanges go to `record` (one per check; setup steps use their own). */
  client(record: (exchange: RecordedExchange) => void, opts?: { signal?: AbortSignal; labelPrefix?: string }): ApiClient;
  stats(): HttpEngineStats;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** What an answer over the body limit keeps as evidence: its first 64 KiB. */
const OVERSIZED_EVIDENCE_BYTES = 64 * 1024;

function firstBytes(chunks: readonly Buffer[], limit: number): Buffer {
  const kept: Buffer[] = [];
  let size = 0;
  for (const c of chunks) {
    if (size >= limit) break;
    const part = c.subarray(0, limit - size);
    kept.push(part);
    size += part.length;
  }
  return Buffer.concat(kept);
}

/** baseUrl + path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** As sent; `bodyText` is its UTF-8 reading for the record. */
  body?: string | Uint8Array;
  bodyText?: string;
}

interface Incoming {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  /** Bytes received, which is more than `bytes` holds when the body was too large. */
  received: number;
}

/** Ends one request in flight, saying why. */
type Stop = (reason: 'aborted' | 'closed') => void;

interface ClientScope {
  signal?: AbortSignal;
  inflight: Set<Stop>;
}

function lowerCaseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** An org token in a response (a redemption) is a secret from the moment it arrives. */
function findOrgTokens(json: JsonValue | undefined, out: string[] = [], depth = 0): string[] {
  if (depth > 4) return out;
  if (Array.isArray(json)) for (const item of json) findOrgTokens(item, out, depth + 1);
  else if (isJsonObject(json)) {
    for (const [key, value] of Object.entries(json)) {
      if (key === 'org_token' && typeof value === 'string' && value.length >= 8) out.push(value);
      else findOrgTokens(value, out, depth + 1);
    }
  }
  return out;
}

export function createHttpEngine(opts: HttpEngineOptions): HttpEngine {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { redactor } = opts;
  const pacer = createPacer({ ratePerMinute: opts.ratePerMinute, windowMs: 60_000 / opts.timeScale });
  // undici 7 follows no redirect unless a redirect interceptor is composed in: a 3xx is returned as is.
  const agent = new Agent({
    connections: opts.connections ?? 16,
    keepAliveTimeout: 4_000,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  let closed = false;
  const inflight = new Set<Stop>();
  const stats: HttpEngineStats = { requests: 0, rateLimited: 0, byStatus: {} };
  const recorded: RecordedExchange[] = [];
  const stopWatching = redactor.onAdd(() => {
    for (const exchange of recorded) reRedactExchange(exchange, redactor);
  });

  redactor.add({ value: opts.partnerKey, envVar: 'SVC_PARTNER_KEY' });

  function outgoing(spec: RequestSpec): Outgoing {
    const headers: Record<string, string> = {
      'user-agent': opts.userAgent ?? 'svc-certify',
      accept: 'application/json',
    };
    const auth = spec.auth ?? 'partner+org';
    let partnerKey: string | undefined;
    let orgToken: string | undefined;
    if (auth === 'partner+org') {
      partnerKey = opts.partnerKey;
      orgToken = opts.orgToken();
      if (orgToken) redactor.add({ value: orgToken, envVar: 'SVC_ORG_TOKEN' });
    } else if (auth === 'partner') {
      partnerKey = opts.partnerKey;
    } else if (auth !== 'none') {
      ({ partnerKey, orgToken } = auth);
    }
    if (partnerKey !== undefined) headers['x-partner-key'] = partnerKey;
    if (orgToken !== undefined) headers['x-svc-org'] = orgToken;
    if (spec.lang) headers['x-svc-lang'] = spec.lang;
    const out: Outgoing = { method: spec.method.toUpperCase(), url: joinUrl(opts.baseUrl, spec.path), headers };
    if (spec.rawBody !== undefined) {
      out.body = spec.rawBody;
      out.bodyText = typeof spec.rawBody === 'string' ? spec.rawBody : Buffer.from(spec.rawBody).toString('utf8');
    } else if (spec.body !== undefined) {
      out.body = out.bodyText = stringifyJsonLossless(spec.body);
      headers['content-type'] = 'application/json';
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name.toLowerCase()] = value;
    return out;
  }

  async function exchange(
    req: Outgoing,
    perRequestTimeout: number,
    scope: ClientScope,
    unpaced = false,
    priority?: 'high',
  ): Promise<{ incoming?: Incoming; error?: TransportError; startedAt: Date; durationMs: number }> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch (err) {
      return { error: { code: 'invalid_request', message: `invalid URL: ${(err as Error).message}` }, startedAt: new Date(), durationMs: 0 };
    }
    const controller = new AbortController();
    let why: 'timeout' | 'aborted' | 'closed' | undefined;
    const stop: Stop = (reason) => {
      why ??= reason;
      controller.abort(new Error(reason === 'closed' ? 'the HTTP engine was closed' : 'the check was aborted'));
    };
    // Registered in sets rather than as listeners: a check may have a hundred requests in flight.
    inflight.add(stop);
    scope.inflight.add(stop);
    let release: (() => void) | undefined;
    let startedAt = new Date();
    let t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    let incoming: Incoming | undefined;
    // Outside the try: what came before a failure is evidence too.
    const chunks: Buffer[] = [];
    try {
      if (scope.signal?.aborted) stop('aborted');
      if (closed) stop('closed');
      release = unpaced ? await pacer.burst(controller.signal) : await pacer.hold(controller.signal, priority);
      // The time-out starts once the request may go: waiting for the budget is not the target's fault.
      startedAt = new Date();
      t0 = performance.now();
      timer = setTimeout(() => {
        why ??= 'timeout';
        controller.abort(new Error(`no complete response within ${perRequestTimeout} ms`));
      }, perRequestTimeout);
      stats.requests++;
      const res = await agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
        signal: controller.signal,
        headersTimeout: perRequestTimeout,
        bodyTimeout: perRequestTimeout,
      });
      incoming = { status: res.statusCode, headers: lowerCaseHeaders(res.headers), bytes: Buffer.alloc(0), received: 0 };
      let kept = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        incoming.received += chunk.length;
        const room = maxBodyBytes - kept;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        kept += Math.min(room, chunk.length);
        if (incoming.received > maxBodyBytes) break; // leaving the loop destroys the body and its socket
      }
      if (incoming.received > maxBodyBytes) {
        // A transport finding, judged as such: its first bytes are the evidence, not a copy of all it sent
        // (one such copy per request in flight is what a target answering huge bodies would cost).
        incoming.bytes = firstBytes(chunks, OVERSIZED_EVIDENCE_BYTES);
        chunks.length = 0;
        return {
          incoming,
          error: { code: 'body_too_large', message: `response body exceeds ${maxBodyBytes} bytes; reading stopped` },
          startedAt,
          durationMs: performance.now() - t0,
        };
      }
      incoming.bytes = Buffer.concat(chunks);
      return { incoming, startedAt, durationMs: performance.now() - t0 };
    } catch (err) {
      const error: TransportError = why
        ? { code: why, message: (controller.signal.reason as Error).message }
        : toTransportError(err);
      if (incoming) incoming.bytes = Buffer.concat(chunks);
      return { incoming, error, startedAt, durationMs: performance.now() - t0 };
    } finally {
      clearTimeout(timer);
      release?.();
      inflight.delete(stop);
      scope.inflight.delete(stop);
    }
  }

  function client(
    record: (exchange: RecordedExchange) => void,
    clientOpts: { signal?: AbortSignal; labelPrefix?: string } = {},
  ): ApiClient {
    let count = 0;
    const scope: ClientScope = { signal: clientOpts.signal, inflight: new Set() };
    clientOpts.signal?.addEventListener(
      'abort',
      () => {
        for (const stop of scope.inflight) stop('aborted');
      },
      { once: true },
    );

    async function request(spec: RequestSpec): Promise<ApiResponse> {
      const req = outgoing(spec);
      const result = await exchange(req, spec.timeoutMs ?? timeoutMs, scope, spec.unpaced, spec.priority);
      const { incoming, error } = result;
      const text = incoming ? incoming.bytes.toString('utf8') : '';
      // toString() turns invalid bytes into U+FFFD silently; the offset keeps the evidence.
      const invalidUtf8At = incoming ? invalidUtf8Offset(incoming.bytes, incoming.received > incoming.bytes.length) : undefined;
      let json: JsonValue | undefined;
      let jsonError: string | undefined;
      if (!incoming) jsonError = 'no response';
      else if (text.trim() === '') jsonError = 'empty body';
      else {
        try {
          json = parseJsonLossless(text);
        } catch (err) {
          jsonError = err instanceof Error ? err.message : String(err);
        }
      }
      for (const token of findOrgTokens(json)) redactor.add({ value: token, envVar: 'SVC_ORG_TOKEN' });

      const statKey = error ? error.code : String(incoming?.status ?? 0);
      stats.byStatus[statKey] = (stats.byStatus[statKey] ?? 0) + 1;
      // Only the 429s the certifier did not ask for: a simulated one or a deliberate burst is a check.
      const askedFor429 = spec.unpaced === true || Object.keys(spec.headers ?? {}).some((h) => h.toLowerCase() === 'x-svc-sandbox-simulate');
      if (incoming?.status === 429 && !askedFor429) stats.rateLimited++;

      const label = [clientOpts.labelPrefix, spec.label].filter((s) => s !== undefined && s !== '').join(': ');
      const exchangeRecord: RecordedExchange = {
        index: count++,
        ...(label ? { label: redactor.text(label) } : {}),
        startedAt: result.startedAt.toISOString(),
        durationMs: Math.round(result.durationMs),
        request: {
          method: req.method,
          url: redactor.text(req.url),
          ...recordMessage(
            req.headers,
            req.bodyText,
            req.body === undefined ? undefined : Buffer.byteLength(req.body),
            redactor,
          ),
        },
        curl: renderCurl({ method: req.method, url: req.url, headers: req.headers, body: req.bodyText }, redactor),
      };
      if (incoming) {
        exchangeRecord.response = {
          status: incoming.status,
          ...recordMessage(incoming.headers, text, incoming.received, redactor),
          // Only the first bytes of an answer over the limit were kept: the record says it is cut.
          ...(error?.code === 'body_too_large' ? { bodyTruncated: true } : {}),
        };
      }
      if (error) exchangeRecord.transportError = { code: error.code, message: redactor.text(error.message) };
      recorded.push(exchangeRecord);
      record(exchangeRecord);

      return {
        // A half-read body is no answer to judge: the invariant is "transportError ⇔ status 0".
        status: error ? 0 : (incoming?.status ?? 0),
        headers: incoming?.headers ?? {},
        text,
        json,
        ...(jsonError !== undefined ? { jsonError } : {}),
        ...(invalidUtf8At !== undefined ? { invalidUtf8At } : {}),
        ...(error ? { transportError: error } : {}),
        exchange: exchangeRecord,
      };
    }

    return {
      request,
      get: (path, rest) => request({ ...rest, method: 'GET', path }),
      post: (path, body, rest) => request({ ...rest, method: 'POST', path, body }),
    };
  }

  return {
    client,
    stats: () => ({ ...stats, byStatus: { ...stats.byStatus } }),
    async close() {
      if (closed) return;
      closed = true;
      stopWatching();
      for (const stop of inflight) stop('closed');
      await agent.close();
    },
  };
}
