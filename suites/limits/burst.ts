// A deliberate burst over the partner's request rate, for the limits checks. Unpaced: the client's own
// pacer exists to stay under the limit these checks must exceed (it lets a burst go once the paced
// requests have spent the window's budget, so the burst only needs what the window has left). And as
// small as the limit allows: every request counts, and the window a burst fills stalls every paced
// request of the certification until it ends.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import { windowTouched } from './lane.js';

export const DEFAULT_RATE = 120;
/**
 * Far above the default 120 per minute. The limit is "adjustable per partner by agreement": a burst
 * goes to twice the --rate-limit the operator states, when that is more.
 */
const MAX_BURST = 1000;
const RATE_WINDOW_SPEC_MS = 60_000;

export interface Burst {
  sent: number;
  limited: ApiResponse | undefined;
  last: ApiResponse | undefined;
  elapsedMs: number;
}

/** The partner's limit per window as the operator stated it (the default without --rate-limit). */
export const rateOf = (t: CheckContext): number => t.target.rateLimit ?? DEFAULT_RATE;

/**
 * Requests until the first 429, or the burst's cap. First one alone: where another burst of this
 * certification has just filled the window, its 429 is all the burst needs. Then waves of the limit and
 * one, each leaving at once, so it arrives within one window however long the round trip is (a
 * throughput bound by round trips would leave a target far away, or a loaded certifier, under its
 * limit); a next wave only when a wave met no 429 (the window turned while it arrived, or the limit
 * agreed with the partner is higher). Undefined (with a needs-input skip) when the client could not
 * even reach the default rate per (scaled) minute: nothing can be concluded then.
 */
export async function burst(
  t: CheckContext,
  send: (label: string) => Promise<ApiResponse>,
  /** Called as each wave leaves, after its requests: what it sends then arrives with the wave. */
  alongEachWave?: () => void,
): Promise<Burst | undefined> {
  const started = Date.now();
  const wave = rateOf(t) + 1;
  const cap = Math.max(MAX_BURST, 2 * rateOf(t));
  const b: Burst = { sent: 0, limited: undefined, last: undefined, elapsedMs: 0 };
  let answered = 0;
  const one = async (): Promise<void> => {
    b.sent++;
    const res = await send('burst');
    b.last = res;
    if (res.status !== 0) answered++;
    if (res.status === 429) b.limited ??= res;
  };
  await one();
  while (b.limited === undefined && b.sent < cap && !t.signal.aborted) {
    const before = answered;
    const leaving = Array.from({ length: Math.min(wave, cap - b.sent) }, one);
    alongEachWave?.();
    await Promise.all(leaving);
    if (answered === before) break; // the target is not answering at all
    if (b.limited === undefined) t.progress(`${b.sent} requests sent, no 429 yet`);
  }
  b.elapsedMs = Date.now() - started;
  windowTouched(t, b.limited);
  return b.limited === undefined && tooSlow(t, b, answered) ? undefined : b;
}

/** Skips the check when the burst could not reach the default rate: the certifier was too slow to tell. */
function tooSlow(t: CheckContext, b: Burst, answered: number): boolean {
  const perWindow = (b.sent * RATE_WINDOW_SPEC_MS) / t.target.timeScale / Math.max(1, b.elapsedMs);
  if (perWindow >= DEFAULT_RATE || answered === 0) return false;
  t.skip(
    `could send only ${Math.round(perWindow)} requests per ${t.target.timeScale === 1 ? 'minute' : `minute ÷ ${t.target.timeScale}`} (${b.sent} in ${(b.elapsedMs / 1000).toFixed(1)} s), under the default limit of ${DEFAULT_RATE}: lower the time scale`,
    'needs-input',
    'a lower --time-scale',
  );
  return true;
}
