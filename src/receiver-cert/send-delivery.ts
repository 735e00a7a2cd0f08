// One delivery over HTTP(S), the way the service sends it: POST, no redirect followed, an answer
// expected within the acknowledgement time-out (10 s, Limits). Never throws: a refused connection,
// a reset or a time-out is an answer of status 0 with the reason, so a hostile receiver gives
// failed checks with evidence.

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { RecordedExchange } from '../runner/results.js';
import type { Delivery } from './deliveries.js';
import { replayCurl } from './replay-curl.js';

export const ACK_TIMEOUT_MS = 10_000;
const BODY_LIMIT = 16 * 1024;
/** After the status line, how long the rest of the answer may take to arrive before it is cut. */
const BODY_GRACE_MS = 2_000;

export interface SendOptions {
  url: string;
  insecure: boolean;
  ackTimeoutMs: number;
  userAgent: string;
  /** The certification's own signal: the delivery is cut at once (an answer of status 0, code INTERRUPTED). */
  signal?: AbortSignal;
}

export interface Answer {
  /** 0 when no answer came (see `error`). */
  status: number;
  /** Time to the status line, ms. */
  ms: number;
  timedOut: boolean;
  error?: { code: string; message: string };
  exchange: RecordedExchange;
}

/** What came back of an answer: its headers, the head of its body, and the size of the whole. */
interface AnswerRead {
  headers: Record<string, string>;
  body: string;
  bytes: number;
  truncated: boolean;
}

/** The delivery as a recorded exchange, with the answer (or the transport error) it drew. */
function deliveryExchange(
  d: Delivery,
  opts: SendOptions,
  sent: { startedAt: string; durationMs: number; headers: Record<string, string>; bodyBytes: number },
  status: number,
  res: AnswerRead | undefined,
  error: { code: string; message: string } | undefined,
): RecordedExchange {
  return {
    label: d.label,
    startedAt: sent.startedAt,
    durationMs: sent.durationMs,
    request: { method: 'POST', url: opts.url, headers: sent.headers, body: d.body, bodyBytes: sent.bodyBytes },
    ...(res
      ? {
          response: {
            status,
            headers: res.headers,
            body: res.body,
            bodyBytes: res.bytes,
            ...(res.truncated ? { bodyTruncated: true } : {}),
          },
        }
      : {}),
    ...(error ? { transportError: error } : {}),
    curl: replayCurl(opts.url, d, opts.insecure),
  };
}

/** Reads an answer's first BODY_LIMIT bytes, counting the rest, cut BODY_GRACE_MS after the status line. */
function readAnswer(res: IncomingMessage, done: (read: AnswerRead) => void): void {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const parts: Buffer[] = [];
  let bytes = 0;
  let kept = 0;
  const end = (): void => {
    clearTimeout(grace);
    done({ headers, body: Buffer.concat(parts).toString('utf8'), bytes, truncated: bytes > kept });
    res.destroy();
  };
  const grace = setTimeout(end, BODY_GRACE_MS);
  res.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (kept < BODY_LIMIT) {
      const piece = chunk.subarray(0, BODY_LIMIT - kept);
      parts.push(piece);
      kept += piece.length;
    }
  });
  res.on('end', end);
  res.on('error', end);
}

export function sendDelivery(d: Delivery, opts: SendOptions): Promise<Answer> {
  const url = new URL(opts.url);
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const payload = Buffer.from(d.body, 'utf8');
  const headers = { ...d.headers, 'user-agent': opts.userAgent, 'content-length': String(payload.length) };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;

  return new Promise<Answer>((resolve) => {
    let settled = false;
    const finish = (
      status: number,
      res: AnswerRead | undefined,
      error?: { code: string; message: string },
      timedOut = false,
      ms = Date.now() - started,
    ): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const sent = { startedAt, durationMs: Date.now() - started, headers, bodyBytes: payload.length };
      const exchange = deliveryExchange(d, opts, sent, status, res, error);
      resolve({ status, ms, timedOut, ...(error ? { error } : {}), exchange });
    };

    const req = send(url, { method: 'POST', headers, rejectUnauthorized: !opts.insecure, agent: false });
    const timer = setTimeout(() => {
      finish(0, undefined, { code: 'ACK_TIMEOUT', message: `no answer within ${opts.ackTimeoutMs / 1000} s` }, true);
      req.destroy();
    }, opts.ackTimeoutMs);

    const onAbort = (): void => {
      finish(0, undefined, { code: 'INTERRUPTED', message: 'the certification was stopped (SIGINT/SIGTERM)' });
      req.destroy();
    };
    if (opts.signal?.aborted) queueMicrotask(onAbort);
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => opts.signal?.removeEventListener('abort', onAbort));
    req.on('error', (e: NodeJS.ErrnoException) => finish(0, undefined, { code: e.code ?? e.name, message: e.message }));
    req.on('response', (res: IncomingMessage) => {
      const ms = Date.now() - started;
      clearTimeout(timer);
      readAnswer(res, (read) => finish(res.statusCode ?? 0, read, undefined, false, ms));
    });
    req.end(payload);
  });
}
