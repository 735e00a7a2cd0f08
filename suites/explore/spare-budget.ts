// The exploration sends only on rate budget the other checks leave: a request asks for spare budget,
// and one that got none was not sent.

import type { ApiResponse, RequestSpec } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { ExploreInputs } from '../../src/runner/check.js';

export function spareOpts(ex: ExploreInputs, label: string): Omit<RequestSpec, 'method' | 'path' | 'body'> {
  return { label, priority: 'spare', ...(ex.stop ? { spareStop: ex.stop } : {}) };
}

/** Whether the request was not sent: no spare budget came before every other check had ended. */
export const unsent = (res: ApiResponse): boolean => res.transportError?.code === 'no_spare_budget';

export function nothingSent(t: CheckContext, ex: ExploreInputs): void {
  t.skip(
    `no spare rate budget came before every other check had ended: nothing was sent (seed ${ex.seed})`,
    'not-applicable',
  );
}
