// limits.rate-limit-per-partner: once the first organization's burst has the partner over its limit, a
// request with the second organization's token, bracketed by two of the first's (controls).

import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { burst, type Burst } from './burst.js';
import { inBurstLane } from './lane.js';

type Trio = [before: ApiResponse, theirs: ApiResponse, after: ApiResponse];

/** Both controls got 429: the partner was over its limit around the second organization's request. */
const bracketed = (trio: Trio): boolean => trio[0].status === 429 && trio[2].status === 429;

/**
 * Right after the burst's 429, one after another: the first organization's request (a control), the
 * second organization's, the first's again. Nothing else of the certification arrives meanwhile (the
 * lane holds the other bursts back, the pacer every paced request), so where both controls are 429 the
 * window did not turn between them: counted per partner, the second organization's request is 429
 * too. Where the window turned among them, the burst is tried again, up to three times.
 */
async function probe(t: CheckContext, orgToken: string): Promise<{ b: Burst | undefined; trios: Trio[] }> {
  const path = `/runs/${randomUUID()}`;
  const firstOrg = (label: string) => t.api.get(path, { unpaced: true, label });
  const trios: Trio[] = [];
  let b: Burst | undefined;
  for (let attempt = 1; attempt <= 3 && !t.signal.aborted; attempt++) {
    b = await burst(t, (label) => firstOrg(`first organization ${label}`));
    if (!b?.limited) break;
    const before = await firstOrg("the first organization's request before it (control)");
    const theirs = await t.api.get(path, {
      unpaced: true,
      auth: { partnerKey: t.inputs.partnerKey, orgToken },
      label: "the second organization's request, the partner over its limit",
    });
    const after = await firstOrg("the first organization's request after it (control)");
    trios.push([before, theirs, after]);
    if (bracketed([before, theirs, after])) break;
  }
  return { b, trios };
}

export async function ratePerPartner(t: CheckContext): Promise<void> {
  const second = await t.setup.secondOrg();
  if (!second) {
    t.skip(t.setup.codeShortage('typed'));
    return;
  }
  const { b, trios } = await inBurstLane(t, () => probe(t, second.orgToken));
  if (!b) return;
  if (
    !t.expect.that(
      b.limited !== undefined,
      {
        message: `${b.sent} requests sent without a 429, so the partner never reached its limit (limits.rate-limit-429 judges that)`,
        spec: S.limits,
        expected: '429 rate_limited',
        received: b.last?.status ?? null,
      },
      b.last,
    )
  )
    return;
  const judged = trios.filter(bracketed);
  if (judged.length === 0) {
    const seen = trios.map(([before, , afterIt]) => `${before.status} and ${afterIt.status}`).join(', ');
    t.skip(
      `three bursts in a row, the rate window turned around every request of the second organization (the first organization's controls beside them answered ${seen || 'nothing'}), so their answers tell nothing`,
      'inconclusive',
    );
    return;
  }
  const theirs = (judged.find((trio) => trio[1].status !== 429) ?? judged[0]!)[1];
  t.expect.that(
    theirs.status === 429,
    {
      message: `right after a burst over the limit, between two requests with the first organization's token that both got 429, a request with the second organization's token answered ${theirs.status}; the request rate is limited per partner, all customers together`,
      spec: S.limits,
      expected: '429 rate_limited',
      received: theirs.status,
    },
    theirs,
  );
}
