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
 * The three leave at once, on connections of their own, so the target may take them in any order: a
 * window that turns after both controls and before the second organization's request reads as a
 * bracketed trio with that request answered. So one such trio only calls for another burst; two in
 * a row fail. A target counting per organization answers every one of them (the second organization
 * sends a handful), and one that counts per partner limits some.
 */
const limitedTheirs = (trios: readonly Trio[]): Trio | undefined =>
  trios.find((trio) => bracketed(trio) && trio[1].status === 429);
const answeredTheirs = (trios: readonly Trio[]): Trio[] =>
  trios.filter((trio) => bracketed(trio) && trio[1].status !== 429);
const settled = (trios: readonly Trio[]): boolean =>
  limitedTheirs(trios) !== undefined || answeredTheirs(trios).length >= 2;

/**
 * With each wave of the burst, as it leaves, three requests at once: the first organization's (a
 * control), the second organization's, the first's again. Sent with the wave, they arrive with it, in
 * the window the wave fills, however long the round trip is (three in a row after the 429 would each
 * wait a round trip, and a window of a second at time scale 60 turns among them behind 250 ms of
 * latency). Where both controls are 429 the partner was over its limit around the second
 * organization's request: counted per partner, it is 429 too. Where the burst's first request already
 * met a 429 (another burst filled the window), no wave leaves and the three go at once right after it.
 * Where no trio is bracketed so (the window turned among them), the burst is tried again, up to three
 * times.
 */
async function probe(t: CheckContext, orgToken: string): Promise<{ b: Burst | undefined; trios: Trio[] }> {
  const path = `/runs/${randomUUID()}`;
  const firstOrg = (label: string) => t.api.get(path, { unpaced: true, label });
  const trio = (): Promise<Trio> =>
    Promise.all([
      firstOrg("the first organization's request before it (control)"),
      t.api.get(path, {
        unpaced: true,
        auth: { partnerKey: t.inputs.partnerKey, orgToken },
        label: "the second organization's request amid the burst",
      }),
      firstOrg("the first organization's request after it (control)"),
    ]);
  const trios: Trio[] = [];
  let b: Burst | undefined;
  for (let attempt = 1; attempt <= 3 && !t.signal.aborted; attempt++) {
    const sent: Array<Promise<Trio>> = [];
    b = await burst(
      t,
      (label) => firstOrg(`first organization ${label}`),
      () => sent.push(trio()),
    );
    if (b?.limited && sent.length === 0) sent.push(trio());
    trios.push(...(await Promise.all(sent)));
    if (!b?.limited || settled(trios)) break;
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
  const limited = limitedTheirs(trios);
  const answered = answeredTheirs(trios);
  if (limited || answered.length >= 2) {
    const theirs = limited?.[1] ?? answered[answered.length - 1]![1];
    t.expect.that(
      limited !== undefined,
      {
        message: `in ${answered.length} bursts over the limit, between two requests with the first organization's token that both got 429, a request with the second organization's token was answered (${answered.map((trio) => trio[1].status).join(', ')}); the request rate is limited per partner, all customers together`,
        spec: S.limits,
        expected: '429 rate_limited',
        received: theirs.status,
      },
      theirs,
    );
    return;
  }
  t.skip(
    `one burst left a request of the second organization answered ${answered[0]![1].status} between two of the first's that got 429, and the bursts after it bracketed none: sent at once, the three may reach the target in any order, so one such trio could be the window turning among them`,
    'inconclusive',
  );
}
