// The one way the certifier talks to a target. Every call is paced, timed, recorded (redacted) into
// the check that made it, and never throws for anything the target does: a hang, a reset or
// garbage bytes come back as status 0 with a transport error, so a check can fail with evidence.
//
// This file only assembles the parts: the request is built (outgoing.ts), sent down a pipeline of
// layers (exchange.ts: url-guard, cancellation, paced, time-out, the stats count) to the transport
// (undici-send.ts, with the size cap of body-cap.ts), read (answer.ts), its secrets learned
// (redaction.ts, token-discovery.ts), recorded (recording.ts) and counted (stats.ts).

import { Agent } from 'undici';
import type { Redactor } from '../config/redact.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { apiResponse, mayCarryOrgToken, readBody } from './answer.js';
import { cancellable, createStopGroup, stopGroupOf } from './cancellation.js';
import { compose, type Send } from './exchange.js';
import { buildOutgoing } from './outgoing.js';
import { paced } from './paced.js';
import {
  honourRateLimits,
  RETRY_ATTEMPTS,
  TargetKeptItsLimit,
  type LimitedExchanged,
  type LimitKeptReport,
} from './limit-kept.js';
import { createPacer } from './pacer.js';
import { recordExchange } from './recording.js';
import { createClientRedaction } from './redaction.js';
import { createRequestControl } from './request-control.js';
import { createStatsCounter } from './stats.js';
import type { HttpEngineStats } from './stats.js';
import { timeOut } from './time-out.js';
import type { ApiClient, ApiResponse, RequestSpec } from './types.js';
import { undiciSend } from './undici-send.js';
import { requireValidUrl } from './url-guard.js';

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

/** The run's word on a limit the target kept: how often, and the pacing it slowed to. */
function limitNotice(times: number, first: LimitKeptReport, last: LimitKeptReport): { id: string; message: string } {
  return {
    id: 'rate-limit.kept-by-target',
    message:
      `the target answered 429 rate_limited ${times} time${times === 1 ? '' : 's'} to requests that are not about limits: it keeps a lower limit for this partner than --rate-limit; ` +
      `the certifier waited each Retry-After and slowed its pacing from ${first.budget.before} to ${last.budget.after} requests a window (give the agreed limit with --rate-limit)`,
  };
}

export interface HttpEngine {
  /** A client whose exchanges go to `record` (one per check; setup steps use their own). */
  client(
    record: (exchange: RecordedExchange) => void,
    opts?: { signal?: AbortSignal; labelPrefix?: string },
  ): ApiClient;
  stats(): HttpEngineStats;
  /** When each request went out (epoch ms), in order. */
  sendTimes(): readonly number[];
  /** Bounds the client reached that the results must name (org tokens of answers not redacted). */
  notices(): Array<{ id: string; message: string }>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The wire to the target: the paced traffic's connections, and the limits checks' own for their bursts,
 * with one send that picks between them.
 */
function createTransport(opts: HttpEngineOptions, timeoutMs: number): { transport: Send; close(): Promise<void> } {
  const timeouts = {
    keepAliveTimeout: 4_000,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  const agent = new Agent({ connections: opts.connections ?? 16, ...timeouts });
  // The limits checks' deliberate bursts (unpaced) keep more requests in flight than the paced traffic
  // ever needs: enough to exceed the target's limit within one window however far away it is. They get
  // their own connections, as many as they keep in flight, so a burst is never throttled to what 16
  // connections carry in a round trip (a target 250 ms away: 64 a second, under the 120 a minute ÷ 60).
  const burstAgent = new Agent(timeouts);
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const pacedSend = undiciSend(agent, maxBodyBytes);
  const burstSend = undiciSend(burstAgent, maxBodyBytes);
  return {
    transport: (req, attempt) => (attempt.unpaced ? burstSend : pacedSend)(req, attempt),
    async close() {
      await Promise.all([agent.close(), burstAgent.close()]);
    },
  };
}

/** How often the target kept a lower limit than --rate-limit, and the pacing it left: the run's notice. */
function keptLimitTracker(): {
  onLimited: (report: LimitKeptReport) => void;
  notices: () => Array<{ id: string; message: string }>;
} {
  let times = 0;
  let first: LimitKeptReport | undefined;
  let last: LimitKeptReport | undefined;
  return {
    onLimited(report) {
      times += 1;
      first ??= report;
      last = report;
    },
    notices: () => (first && last ? [limitNotice(times, first, last)] : []),
  };
}

/**
 * The shared pacer, and the layer that honours a 429's Retry-After by slowing it, counting each time
 * the target kept a lower limit than --rate-limit.
 */
function createPacing(opts: HttpEngineOptions) {
  const pacer = createPacer({ ratePerMinute: opts.ratePerMinute, windowMs: 60_000 / opts.timeScale });
  const kept = keptLimitTracker();
  const limits = honourRateLimits(pacer, { timeScale: opts.timeScale, onLimited: kept.onLimited });
  return { pacer, limits, kept };
}

export function createHttpEngine(opts: HttpEngineOptions): HttpEngine {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { redactor } = opts;
  const { pacer, limits, kept } = createPacing(opts);
  const { transport, close: closeTransport } = createTransport(opts, timeoutMs);
  const engineStops = createStopGroup();
  const stats = createStatsCounter();
  const redaction = createClientRedaction(redactor, opts.partnerKey);
  const { baseUrl, partnerKey, userAgent } = opts;
  const credentials = { baseUrl, partnerKey, userAgent, orgToken: () => redaction.orgToken(opts.orgToken()) };

  function client(
    record: (exchange: RecordedExchange) => void,
    clientOpts: { signal?: AbortSignal; labelPrefix?: string } = {},
  ): ApiClient {
    // Outermost first: a check's abort wins over the engine's close, both over a time-out.
    const send = compose(
      [
        requireValidUrl,
        cancellable([stopGroupOf(clientOpts.signal), engineStops]),
        limits,
        paced(pacer),
        timeOut,
        stats.counting,
      ],
      transport,
    );

    async function request(spec: RequestSpec): Promise<ApiResponse> {
      const req = buildOutgoing(spec, credentials);
      const exchanged = await send(req, {
        control: createRequestControl(),
        timeoutMs: spec.timeoutMs ?? timeoutMs,
        unpaced: spec.unpaced,
        priority: spec.priority,
        ...(spec.spareStop !== undefined ? { spareStop: spec.spareStop } : {}),
      });
      const body = readBody(exchanged.incoming);
      // A large answer is not parsed for this unless it may name a token.
      if (mayCarryOrgToken(body)) redaction.answer(body.json);
      stats.answered(spec, exchanged);
      const exchange = recordExchange(
        { labels: [clientOpts.labelPrefix, spec.label], req, exchanged, text: body.text },
        redactor,
      );
      redaction.track(exchange);
      record(exchange);
      const limited = (exchanged as LimitedExchanged).keptLimit;
      if (limited) {
        const s = Math.round(limited.retryAfterMs / 100) / 10;
        throw new TargetKeptItsLimit(
          `the target kept its rate limit: it answered 429 rate_limited ${limited.attempts} time${limited.attempts === 1 ? '' : 's'} (Retry-After ${s} s${limited.attempts < RETRY_ATTEMPTS ? ', longer than the certification waits' : ''}) to a request that is not about limits; --rate-limit ${opts.ratePerMinute} is above the limit the target keeps for this partner: give the agreed limit`,
        );
      }
      return apiResponse(exchanged, body, exchange);
    }

    return {
      request,
      get: (path, rest) => request({ ...rest, method: 'GET', path }),
      post: (path, body, rest) => request({ ...rest, method: 'POST', path, body }),
    };
  }

  return {
    client,
    stats: stats.snapshot,
    sendTimes: stats.sendTimes,
    notices: () => [redaction.ignoredNotice(), ...kept.notices()].filter((notice) => notice !== undefined),
    async close() {
      if (engineStops.stopped) return;
      redaction.close();
      engineStops.stopAll('closed');
      await closeTransport();
    },
  };
}
