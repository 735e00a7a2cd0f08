// The exploration sends only on rate budget the other checks leave: a request asks for spare budget
// while another check still runs; once every other check has ended, the rest of its cases go out at
// once, within one request time-out of that end (the grace), so that the same target gets the same
// exploration however loaded the machine, and no target can make it lengthen the certification by more.

import type { ApiResponse, RequestSpec } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { ExploreInputs } from '../../src/api-setup/check.js';

function spareOpts(ex: ExploreInputs, label: string): Omit<RequestSpec, 'method' | 'path' | 'body'> {
  return { label, priority: 'spare', ...(ex.stop ? { spareStop: ex.stop } : {}) };
}

/** Whether the request was not sent: no spare budget came before every other check had ended. */
const unsent = (res: ApiResponse): boolean => res.transportError?.code === 'no_spare_budget';

export function nothingSent(t: CheckContext, ex: ExploreInputs): void {
  t.skip(
    `no rate budget came before every other check had ended, nor within one request time-out after: nothing was sent (seed ${ex.seed})`,
    'not-applicable',
  );
}

/** One request time-out (the HTTP client's default): all the exploration may add to the certification. */
const EXPLORE_GRACE_MS = 30_000;

/** Milliseconds left of the grace after every other check ended; undefined while some still runs. */
function graceLeft(ex: ExploreInputs): number | undefined {
  if (!ex.stop?.aborted) return undefined;
  // certify() aborts the signal with the time the last other check ended.
  const endedAt: unknown = ex.stop.reason;
  return (typeof endedAt === 'number' ? endedAt : Date.now()) + EXPLORE_GRACE_MS - Date.now();
}

type Options = Omit<RequestSpec, 'method' | 'path' | 'body'>;

/**
 * One request of the exploration: on spare budget while another check runs, then within the grace. A
 * request still unanswered when the grace ends is cut and is not an answer to judge: 'unsent'.
 */
export async function onExploreBudget(
  ex: ExploreInputs,
  label: string,
  post: (opts: Options) => Promise<ApiResponse>,
): Promise<ApiResponse | 'unsent'> {
  if (graceLeft(ex) === undefined) {
    const res = await post(spareOpts(ex, label));
    if (!unsent(res)) return res;
  }
  const left = graceLeft(ex) ?? 0;
  if (left <= 0) return 'unsent';
  const cut = left < EXPLORE_GRACE_MS;
  const res = await post({ label, ...(cut ? { timeoutMs: Math.ceil(left) } : {}) });
  return cut && res.status === 0 && res.transportError?.code === 'timeout' ? 'unsent' : res;
}
