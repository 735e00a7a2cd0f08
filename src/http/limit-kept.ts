// A 429 rate_limited to a request that is not about limits is the target keeping its limits (the
// partner's agreed limit may be lower than --rate-limit), never a failure of the target: the client's
// own retry policy applies, as the spec asks of every client ("wait at least that long", "honouring
// Retry-After on 429"). The pacer pauses every paced request for the Retry-After and slows to half its
// budget, each time, and the run says so (a notice); the request is sent again, at most RETRY_ATTEMPTS
// times in all.
// Where the wait exceeds what the run can wait (MAX_WAIT_SPEC_MS), or the attempts run out, the
// request's check ends `skipped` with that reason: a set-up matter, never a failure.
//
// Not handled here: deliberate bursts (unpaced: the limits checks want the 429 and stop at the first)
// and requests that ask for a 429 (x-svc-sandbox-simulate); a 429 sandbox_run_quota is the quota's
// own answer, which the shared setup reads.

import type { Exchanged, Layer, Outgoing } from './exchange.js';
import type { Pacer } from './pacer.js';

/** The spec's retry policy: at most 3 attempts. */
export const RETRY_ATTEMPTS = 3;
/** The longest Retry-After a certification waits out (spec time): about its own critical path. */
const MAX_WAIT_SPEC_MS = 4 * 60_000;

/** Thrown to the check whose request the target kept refusing: runner/run-check.ts ends it `skipped`. */
export class TargetKeptItsLimit extends Error {
  override readonly name = 'TargetKeptItsLimit';
}

/** What the run says once, when the target first kept its limit. */
export interface LimitKeptReport {
  retryAfterMs: number;
  budget: { before: number; after: number };
}

/** A request's exchange, with why the client gave up when the target kept its limit past the run. */
export type LimitedExchanged = Exchanged & { keptLimit?: { retryAfterMs: number; attempts: number } };

export function honourRateLimits(
  pacer: Pacer,
  opts: { timeScale: number; onLimited: (report: LimitKeptReport) => void },
): Layer {
  const windowMs = 60_000 / opts.timeScale;
  const maxWaitMs = MAX_WAIT_SPEC_MS / opts.timeScale;
  return (next) => async (req, attempt) => {
    if (attempt.unpaced || asksForRefusal(req)) return next(req, attempt);
    for (let n = 1; ; n++) {
      const exchanged = await next(req, attempt);
      const retryAfterMs = keptLimit(exchanged, windowMs);
      if (retryAfterMs === undefined) return exchanged;
      opts.onLimited({ retryAfterMs, budget: pacer.slowDown(retryAfterMs) });
      if (n >= RETRY_ATTEMPTS || retryAfterMs > maxWaitMs) {
        const limited: LimitedExchanged = { ...exchanged, keptLimit: { retryAfterMs, attempts: n } };
        return limited;
      }
      // The wait is the pacer's: the next attempt, like every paced request, is held until Retry-After.
      if (attempt.control.signal.aborted) return exchanged;
    }
  };
}

/** A request that asks the sandbox for a refusal, 429 included: its answer is the check's evidence. */
function asksForRefusal(req: Outgoing): boolean {
  return Object.keys(req.headers).some((h) => h.toLowerCase() === 'x-svc-sandbox-simulate');
}

/** The wait a 429 rate_limited asks for (Retry-After, else one window), or undefined for any other answer. */
function keptLimit(exchanged: Exchanged, windowMs: number): number | undefined {
  const refusal = rateLimited(exchanged);
  return refusal && (refusal.retryAfterMs ?? windowMs);
}

/** A 429 rate_limited (not the run quota's 429) and its Retry-After in integer seconds, when given. */
export function rateLimited(exchanged: Exchanged): { retryAfterMs?: number } | undefined {
  const incoming = exchanged.incoming;
  if (!incoming || incoming.status !== 429) return undefined;
  if (errorCodeOf(incoming.bytes) === 'sandbox_run_quota') return undefined;
  const retryAfterMs = retryAfterMsOf(incoming.headers['retry-after']);
  return retryAfterMs !== undefined ? { retryAfterMs } : {};
}

/** A Retry-After in integer seconds (the spec's form), in ms; undefined when absent or in another form. */
export function retryAfterMsOf(header: string | undefined): number | undefined {
  return header !== undefined && /^\s*\d+\s*$/.test(header) ? Number(header) * 1000 : undefined;
}

function errorCodeOf(bytes: Buffer): string | undefined {
  if (bytes.length > 16 * 1024) return undefined;
  try {
    const body: unknown = JSON.parse(bytes.toString('utf8'));
    const code = typeof body === 'object' && body !== null ? Reflect.get(body, 'error') : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
