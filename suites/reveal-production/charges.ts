// What a production reveal charges: the price once, nothing again, no sandbox field.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { int } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { S } from '../../src/spec/sections.js';
import {
  alreadyRevealed,
  claimLocked,
  expectRevealedInProduction,
  expectWallet,
  freeRepeatReveal,
  hold,
  latestRead,
  Ledger,
  type Listed,
  lockedFree,
  paidReveal,
  post,
  productionRevealCheck,
  revealedSoon,
  tooLow,
} from './common.js';

/**
 * The first reveal of a candidate charges credits (What the service does 6; Candidate contact state:
 * "credits charged") and the balance after it is the previous balance less what the response charged
 * (Reveal result; `credits_charged` is authoritative, "not necessarily the quoted price", so the
 * amount is compared with the balance, not with the quote). Both when the budget allows two reveals.
 */
async function firstRevealCharged(
  t: CheckContext,
  ctx: { runId: string; ledger: Ledger },
  c: Listed,
  before: { credits: bigint; mark: number } | undefined,
  optional = false,
): Promise<{ body: JsonObject; res: ApiResponse; mark: number | undefined } | undefined> {
  const { runId, ledger } = ctx;
  const res = await paidReveal(t, ledger, runId, c, `reveal candidate ${c.id} (latest quote ${c.price})`);
  // An optional reveal that is pending or unaffordable leaves its part unproven, not the check skipped.
  if (optional && hold(res, '') !== undefined) return undefined;
  const b = expectRevealedInProduction(t, res, `revealing candidate ${c.id}`);
  if (!b) return undefined;
  const charged = int(b.credits_charged);
  const after = int(b.wallet_balance_after);
  // A free first reveal is no failure: credits_charged is authoritative, "not necessarily the quoted
  // price", and the price comes from a price table at request time, which may say 0. The wallet
  // arithmetic below still holds the service to what it says it charged.
  t.expect.warn(
    !(c.price! > 0n && charged === 0n),
    {
      message: `the first reveal of candidate ${c.id} charged 0 credits though the run read just before quoted ${c.price}`,
      spec: S.revealResult,
      expected: `credits_charged > 0 (quoted ${c.price})`,
      received: b.credits_charged,
      pointer: '/credits_charged',
      reading:
        'in production a reveal costs credits (What the service does, 6) and locked → revealed charges them, so a quoted price is charged',
      otherReading:
        'credits_charged is "what the response says is authoritative; not necessarily the quoted price", and the price is computed from a price table at request time, which may price this reveal at 0',
    },
    res,
  );
  // Exact only when no other paid reveal of this certification went out since the balance was read.
  const mark = ledger.quietMark();
  if (before && charged !== undefined && mark === before.mark + 1) {
    await expectWallet(
      t,
      after === before.credits - charged,
      {
        message: `revealing candidate ${c.id} charged ${charged} and reports wallet_balance_after ${String(b.wallet_balance_after)}, the balance before being ${before.credits}; the balance after a reveal is the previous balance less credits_charged, ${before.credits - charged}`,
        spec: S.revealResult,
        expected: String(before.credits - charged),
        received: b.wallet_balance_after,
        pointer: '/wallet_balance_after',
      },
      res,
    );
  }
  return { body: b, res, mark };
}

export const chargedOnce: CheckDefinition = productionRevealCheck(
  {
    id: 'reveal.production-charged-once',
    title:
      'Production: the first reveal of a candidate charges credits and wallet_balance_after falls by exactly credits_charged; a repeat charges 0, keeps the balance and the read shows revealed',
    evidence: 'input',
    warns: [
      'the wallet moved otherwise than this certification explains, with an organization from --org-token (its own recruiters may reveal meanwhile)',
      'the first reveal charged 0 though the read just before quoted a price',
    ],
    spec: [S.reveal, S.contactState, S.revealResult, S.general],
  },
  async (t, { runId, ledger, read }) => {
    // A candidate revealed before (an earlier certification of this organization) tells the balance for free.
    let before: { credits: bigint; mark: number } | undefined;
    const known = alreadyRevealed(read, ledger);
    if (known) {
      const mark = ledger.quietMark();
      const repeat = await freeRepeatReveal(t, runId, known.id);
      if (!repeat) return;
      const credits = repeat.balance;
      if (mark !== undefined && mark === ledger.quietMark() && credits !== undefined) before = { credits, mark };
    }
    const a = claimLocked(t, read, ledger, 'revealing a locked candidate of the shared real run');
    if (!a) return;
    const first = await firstRevealCharged(t, { runId, ledger }, a, before);
    if (!first) return;
    const w1 = int(first.body.wallet_balance_after);

    const again = await post(t, runId, a.id, `reveal candidate ${a.id} again`);
    const r2 = expectRevealedInProduction(t, again, `revealing candidate ${a.id} again`);
    if (!r2) return;
    t.expect.that(
      int(r2.credits_charged) === 0n,
      {
        message: `revealing candidate ${a.id} again charged ${String(r2.credits_charged)}; a candidate already revealed for the organization is not charged again`,
        spec: S.contactState,
        expected: 0,
        received: r2.credits_charged,
        pointer: '/credits_charged',
      },
      again,
    );
    if (first.mark !== undefined && ledger.quietMark() === first.mark) {
      await expectWallet(
        t,
        int(r2.wallet_balance_after) === w1,
        {
          message: `the repeat reveal of candidate ${a.id} reports wallet_balance_after ${String(r2.wallet_balance_after)} after ${String(w1)}; with no new charge the balance after is unchanged`,
          spec: S.revealResult,
          expected: String(w1),
          received: r2.wallet_balance_after,
          pointer: '/wallet_balance_after',
        },
        again,
      );
    }

    // The latest read: A shows revealed, and a second candidate is priced afresh for the next reveal.
    const after = await latestRead(t, runId, 'read the run after the reveal (latest quotes)');
    if (!after) return;
    const listedA = after.candidates.find((c) => c.id === a.id);
    t.expect.that(
      listedA?.state === 'revealed',
      {
        message: `candidate ${a.id} has contact_state ${show(listedA?.state ?? null)} on the read after its reveal; the reveal moves it to revealed`,
        spec: S.contactState,
        expected: 'revealed',
        received: listedA?.state ?? '(not listed)',
      },
      after.res,
    );
    // A second first reveal, when the allowance covers it: now the balance before is known (w1).
    if (w1 === undefined) return;
    const b = lockedFree(after, ledger).find((c) => ledger.claim(c.id, c.price!));
    if (!b) return;
    const quiet = first.mark !== undefined && ledger.quietMark() === first.mark;
    await firstRevealCharged(t, { runId, ledger }, b, quiet ? { credits: w1, mark: first.mark! } : undefined, true);
  },
);

export const noSandboxField: CheckDefinition = productionRevealCheck(
  {
    id: 'reveal.production-no-sandbox-field',
    title: 'Production: a reveal result carries no sandbox field (sandbox: true is sandbox only)',
    evidence: 'input',
    warns: ['a production reveal carries a sandbox field (listed as "sandbox only")'],
    spec: [S.revealResult, S.versioning],
  },
  async (t, { runId, ledger, read }) => {
    // A repeat reveal is free and answers a Reveal result all the same; else one paid first reveal.
    const known = await revealedSoon(read, ledger);
    let res: ApiResponse;
    let id: bigint;
    if (known) {
      id = known.id;
      res = await post(t, runId, id, `reveal candidate ${id} (already revealed: free)`);
    } else {
      const c = lockedFree(read, ledger).find((x) => ledger.claim(x.id, x.price!));
      if (!c)
        return t.skip(
          tooLow(ledger, read, 'revealing a candidate to see a reveal result'),
          'needs-input',
          'a higher --max-spend-credits',
        );
      id = c.id;
      res = await paidReveal(t, ledger, runId, c, `reveal candidate ${id} (latest quote ${c.price})`);
    }
    const b = expectRevealedInProduction(t, res, `revealing candidate ${id}`);
    if (!b || b.sandbox === undefined) return;
    if (b.sandbox === true) {
      t.expect.fail(
        {
          message: `the production reveal of candidate ${id} says sandbox: true; the field is sandbox only (no credit spend, synthetic contact), so a production reveal result has none`,
          spec: S.revealResult,
          expected: '(absent)',
          received: true,
          pointer: '/sandbox',
        },
        res,
      );
      return;
    }
    t.expect.warn(
      false,
      {
        message: `the production reveal of candidate ${id} carries sandbox ${show(b.sandbox)}`,
        spec: S.revealResult,
        reading: 'the Reveal result lists `sandbox` as "boolean true, sandbox only": production has no such field',
        otherReading:
          'a value other than true does not claim the sandbox, and the service may add response fields at any time',
        expected: '(absent)',
        received: b.sandbox,
        pointer: '/sandbox',
      },
      res,
    );
  },
);
