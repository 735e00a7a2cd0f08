// A candidate revealed once is free in another run of the same organization.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { int } from '../support/json-values.js';
import { S } from '../../src/spec/sections.js';
import {
  claimLocked,
  expectRevealedInProduction,
  latestRead,
  paidReveal,
  post,
  productionRevealCheck,
  type Listed,
  type Read,
  type RunRead,
  tooLow,
} from './common.js';

/** How often, and how many times at most, the second real run is read for a candidate the first lists. */
const SECOND_RUN_READS = 4;
const SECOND_RUN_READ_EVERY_SPEC_MS = 30_000;

/** The second real run (a twin of the shared job) lists candidates of the first: read it until it does. */
async function readUntilCommon(t: CheckContext, runId: string, firstIds: Set<bigint>): Promise<Read | undefined> {
  let other: Read | undefined;
  for (let n = 1; n <= SECOND_RUN_READS; n++) {
    other = await latestRead(t, runId, `read the second real run (#${n})`);
    if (!other) return undefined;
    if (other.candidates.some((c) => firstIds.has(c.id)) || n === SECOND_RUN_READS) break;
    await t.sleep(SECOND_RUN_READ_EVERY_SPEC_MS);
  }
  return other;
}

/** A candidate both runs list, revealed for the organization: undefined when none could be. */
async function revealedInFirstRun(t: CheckContext, got: RunRead, common: Listed[]): Promise<Listed | undefined> {
  const { runId, ledger, read } = got;
  // One already revealed for the organization (by a check here, or before), else a paid reveal in the first run.
  await Promise.allSettled([...ledger.pending]);
  const revealedBefore = (id: bigint): boolean =>
    ledger.revealed.has(id) || read.candidates.some((c) => c.id === id && c.state === 'revealed');
  const chosen = common.find((c) => revealedBefore(c.id));
  if (chosen) return chosen;
  const pick = claimLocked(t, read, ledger, 'revealing a candidate both real runs list', (c) =>
    common.some((x) => x.id === c.id),
  );
  if (!pick) return undefined;
  const res = await paidReveal(
    t,
    ledger,
    runId,
    pick,
    `reveal candidate ${pick.id} in the first run (latest quote ${pick.price})`,
  );
  return expectRevealedInProduction(t, res, `revealing candidate ${pick.id}`) ? pick : undefined;
}

export const repeatInAnotherRun: CheckDefinition = productionRevealCheck(
  {
    id: 'reveal.production-repeat-free-in-another-run',
    title:
      'Production: a candidate revealed in one run reads revealed in another run of the organization that lists it, and revealing it there charges 0',
    evidence: 'input',
    spec: [S.contactState, S.reveal, S.revealResult],
  },
  async (t, { runId, ledger, read }) => {
    const second = await t.setup.secondRealRun();
    const firstIds = new Set(read.candidates.map((c) => c.id));
    const other = await readUntilCommon(t, second.runId, firstIds);
    if (!other) return;
    const common = other.candidates.filter((c) => firstIds.has(c.id));
    if (common.length === 0)
      return t.skip(
        `the two real runs of the shared job listed no candidate in common (${read.candidates.length} and ${other.candidates.length} listed), so no candidate could be revealed in one and read in the other; which candidates a run lists is the service's own outcome`,
        'not-applicable',
      );
    const chosen = await revealedInFirstRun(t, { runId, ledger, read }, common);
    if (!chosen) return;
    const id = chosen.id;
    const after = await latestRead(t, second.runId, `read the second real run after candidate ${id} was revealed`);
    if (!after) return;
    const listed = after.candidates.find((c) => c.id === id);
    t.expect.that(
      listed?.state === 'revealed',
      {
        message: `candidate ${id}, revealed for the organization in the shared real run, has contact_state ${JSON.stringify(listed?.state ?? '(not listed)')} on the read of the second real run of the same organization; a reveal moves it to revealed for the organization`,
        spec: S.contactState,
        expected: 'revealed',
        received: listed?.state ?? '(not listed)',
      },
      after.res,
    );
    // The repeat is expected free, yet reserved at its quote so that a service charging it stays within
    // the allowance; counted as a reveal sent so that no balance is compared across it.
    const quote = listed?.price ?? 0n;
    if (quote > ledger.remaining())
      return t.skip(
        tooLow(
          ledger,
          after,
          `revealing candidate ${id} again in the second run (quoted ${quote}, reserved in case it is charged)`,
        ),
        'needs-input',
        'a higher --max-spend-credits',
      );
    ledger.committed += quote;
    ledger.sent++;
    ledger.inFlight++;
    let res: ApiResponse;
    try {
      res = await post(
        t,
        second.runId,
        id,
        `reveal candidate ${id} in the second real run (already revealed for the organization)`,
      );
    } finally {
      ledger.inFlight--;
    }
    const b = expectRevealedInProduction(t, res, `revealing candidate ${id} in the second real run`);
    const charged = int(b?.credits_charged);
    ledger.committed += (charged ?? 0n) - quote;
    if (!b) return;
    t.expect.that(
      charged === 0n,
      {
        message: `revealing candidate ${id} in the second real run charged ${String(b.credits_charged)}, though the organization had revealed it in the shared real run; a candidate already revealed for the organization is not charged again`,
        spec: S.contactState,
        expected: 0,
        received: b.credits_charged,
        pointer: '/credits_charged',
      },
      res,
    );
  },
);
