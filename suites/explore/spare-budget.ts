// The exploration sends only on rate budget the other checks leave: a request asks for spare budget
// while another check still runs; once every other check has ended, the rest of its cases go out at
// once, within a grace from that end, so that the same target gets the same exploration however loaded
// the machine, and no target can make it lengthen the certification by more. The grace is what the
// exploration's whole cap needs at the pace the client keeps under the agreed rate (pacer.ts), in rate
// windows of the spec's time (so a run at time scale 60 and one at 1 both have room for every case),
// plus one request time-out for the last answers. A request the grace refuses is told to the certification, which names the cut in a notice.

import type { ApiResponse, RequestSpec } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { ExploreInputs } from '../../src/api-setup/check.js';
import { pacedBudget } from '../../src/http/pacer.js';

function spareOpts(ex: ExploreInputs, label: string): Omit<RequestSpec, 'method' | 'path' | 'body'> {
  return { label, priority: 'spare', ...(ex.stop ? { spareStop: ex.stop } : {}) };
}

/** Whether the request was not sent: no spare budget came before every other check had ended. */
const unsent = (res: ApiResponse): boolean => res.transportError?.code === 'no_spare_budget';

export function nothingSent(t: CheckContext, ex: ExploreInputs): void {
  t.skip(
    `no rate budget came before every other check had ended, nor within the grace after: nothing was sent (seed ${ex.seed})`,
    'not-applicable',
  );
}

/** One request time-out (the HTTP client's default): the room the grace keeps for the last answers. */
const REQUEST_TIMEOUT_MS = 30_000;
/** The spec's rate window and its default limit (Rate limits: 120 requests a minute per partner). */
const SPEC_WINDOW_MS = 60_000;
const SPEC_RATE_LIMIT = 120;

/**
 * The grace in ms: the rate windows the whole cap needs at the client's pace under the agreed rate
 * (spec time, scaled), plus one request time-out. At the agreed rate itself, a cap of many windows
 * outran the grace by a tenth of them at time scale 1, so how much was explored hung on how much went
 * out on spare budget before.
 */
export function exploreGraceMs(ex: ExploreInputs, target: CheckContext['target']): number {
  const windows = Math.ceil(ex.requests / pacedBudget(target.rateLimit ?? SPEC_RATE_LIMIT));
  return Math.ceil((windows * SPEC_WINDOW_MS) / target.timeScale) + REQUEST_TIMEOUT_MS;
}

/** Milliseconds left of the grace after every other check ended; undefined while some still runs. */
function graceLeft(ex: ExploreInputs, graceMs: number): number | undefined {
  if (!ex.stop?.aborted) return undefined;
  // certify() aborts the signal with the time the last other check ended.
  const endedAt: unknown = ex.stop.reason;
  return (typeof endedAt === 'number' ? endedAt : Date.now()) + graceMs - Date.now();
}

type Options = Omit<RequestSpec, 'method' | 'path' | 'body'>;

/**
 * One request of the exploration: on spare budget while another check runs, then within the grace. A
 * request still unanswered when the grace ends is cut and is not an answer to judge: 'unsent'.
 */
export async function onExploreBudget(
  t: Pick<CheckContext, 'target'>,
  ex: ExploreInputs,
  label: string,
  post: (opts: Options) => Promise<ApiResponse>,
): Promise<ApiResponse | 'unsent'> {
  const graceMs = exploreGraceMs(ex, t.target);
  if (graceLeft(ex, graceMs) === undefined) {
    const res = await post(spareOpts(ex, label));
    if (!unsent(res)) return res;
  }
  const left = graceLeft(ex, graceMs) ?? 0;
  if (left <= 0) {
    ex.onCut?.(graceMs);
    return 'unsent';
  }
  const cut = left < graceMs;
  const res = await post({ label, ...(cut ? { timeoutMs: Math.ceil(left) } : {}) });
  // Its time-out was the grace's end: no answer by then is the grace running out, not the target's answer.
  if (cut && res.status === 0 && res.transportError?.code === 'timeout') {
    ex.onCut?.(graceMs);
    return 'unsent';
  }
  return res;
}
