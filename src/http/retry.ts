// The spec's retry policy (Errors › Idempotency and retries), for the checks that are about retrying.
// Nothing else retries: a certifier that silently retries would hide the very failures it judges.

import type { ApiClient, ApiResponse, RequestSpec } from './types.js';

export const MAX_ATTEMPTS = 3;
export const FIRST_BACKOFF_MS = 1_000;
/** "Never retry 401, 403, 404, 409, 410, 422." */
export const NEVER_RETRIED = new Set([401, 403, 404, 409, 410, 422]);

/**
 * Retried: no answer (time-out, reset, …), 408, 429 and 5xx. Any other 4xx is the request's own
 * fault, and a success or a redirect is an answer.
 */
export function isRetryable(res: ApiResponse): boolean {
  if (NEVER_RETRIED.has(res.status)) return false;
  return res.status === 0 || res.status === 408 || res.status === 429 || res.status >= 500;
}

/** Retry-After in spec ms (integer seconds, or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(res: ApiResponse, now: number = Date.now()): number | undefined {
  const value = res.headers['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Sends `spec` up to 3 times: waits 1 s then 2 s between attempts (÷ timeScale), or longer when a
 * 429 says so in Retry-After. Returns every response, in order.
 */
export async function requestWithSpecRetry(
  client: ApiClient,
  spec: RequestSpec,
  opts: { timeScale: number; sleep?: (ms: number) => Promise<void>; signal?: AbortSignal },
): Promise<{ responses: ApiResponse[] }> {
  const sleep = opts.sleep ?? ((ms: number) => sleepFor(ms, opts.signal));
  const responses: ApiResponse[] = [];
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const res = await client.request(spec);
    responses.push(res);
    if (attempt === MAX_ATTEMPTS || !isRetryable(res) || opts.signal?.aborted) break;
    let waitMs = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
    if (res.status === 429) waitMs = Math.max(waitMs, retryAfterMs(res) ?? 0);
    await sleep(waitMs / opts.timeScale);
    if (opts.signal?.aborted) break;
  }
  return { responses };
}
