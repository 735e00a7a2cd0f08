// A reveal the wallet cannot pay: 402 insufficient_credits with the balance and the price.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { int, obj } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { S } from '../../src/spec/sections.js';
import {
  claimLocked,
  expectRevealedInProduction,
  expectWallet,
  freeRepeatReveal,
  Ledger,
  type Listed,
  lockedFree,
  paidReveal,
  productionRevealCheck,
  type Read,
  revealedSoon,
  tooLow,
} from './common.js';

/**
 * The balance now, or an upper bound of it (a wallet only falls while the certification runs): from a
 * reveal of this certification, a free repeat reveal, or else one paid first reveal, whose 402 is
 * itself the refusal to judge. Undefined after a skip or a failure.
 */
async function knownBalance(
  t: CheckContext,
  ctx: { runId: string; ledger: Ledger; read: Read },
): Promise<{ credits: bigint } | { refused: ApiResponse; c: Listed } | undefined> {
  const { runId, ledger, read } = ctx;
  const known = await revealedSoon(read, ledger);
  if (ledger.balance) return { credits: ledger.balance.credits };
  if (known) {
    const credits = (await freeRepeatReveal(t, runId, known.id))?.balance;
    return credits === undefined ? undefined : { credits };
  }
  const c = claimLocked(t, read, ledger, 'revealing a candidate to learn the wallet balance');
  if (!c) return undefined;
  const res = await paidReveal(
    t,
    ledger,
    runId,
    c,
    `reveal candidate ${c.id} (latest quote ${c.price}; tells the balance)`,
  );
  if (res.status === 402) return { refused: res, c };
  const credits = int(expectRevealedInProduction(t, res, `revealing candidate ${c.id}`)?.wallet_balance_after);
  return credits === undefined ? undefined : { credits };
}

/** The 402 body: the envelope, and the extra fields `balance` and `required` (Errors by endpoint). */
function expectRefusalBody(t: CheckContext, res: ApiResponse, id: bigint, quoted: bigint): void {
  if (!t.expect.error(res, 402, 'insufficient_credits', S.byEndpoint)) return;
  const b = obj(res.json);
  const missing = ['balance', 'required'].filter((f) => b?.[f] === undefined);
  if (
    !t.expect.that(
      missing.length === 0,
      {
        message: `the 402 insufficient_credits refusing candidate ${id} (quoted ${quoted}) lacks ${missing.join(' and ')}; the reveal's 402 carries the extra fields balance and required`,
        spec: S.byEndpoint,
        expected: 'balance, required',
        received: res.json,
      },
      res,
    )
  ) {
    return;
  }
  const notCredits = ['balance', 'required'].filter((f) => {
    const v = int(b?.[f]);
    return v === undefined || v < 0n;
  });
  t.expect.warn(
    notCredits.length === 0,
    {
      message: `the 402 insufficient_credits refusing candidate ${id} has ${notCredits.map((f) => `${f} ${show(String(b?.[f]))}`).join(', ')}, not a whole number of credits`,
      spec: S.byEndpoint,
      reading:
        'balance and required count credits, which are integers everywhere else (reveal_price_credits, credits_charged, wallet_balance_after)',
      otherReading: 'the spec names the two extra fields without giving their type',
      received: { balance: b?.balance ?? null, required: b?.required ?? null },
    },
    res,
  );
}

export const insufficientCredits: CheckDefinition = productionRevealCheck(
  {
    id: 'reveal.production-insufficient-credits-body',
    title:
      'Production: a reveal the wallet cannot pay is refused with 402 insufficient_credits carrying balance and required (observed when the wallet is below a listed price)',
    evidence: 'input',
    warns: [
      'the wallet moved otherwise than this certification explains, with an organization from --org-token (its own recruiters may reveal meanwhile)',
      'the 402 gives balance or required not as a whole number of credits',
    ],
    spec: [S.byEndpoint, S.contactState, S.reveal],
  },
  async (t, { runId, ledger, read }) => {
    const known = await knownBalance(t, { runId, ledger, read });
    if (!known) return;
    if ('refused' in known) return expectRefusalBody(t, known.refused, known.c.id, known.c.price!);
    const balance = known.credits;
    // The dearest locked candidate: a conformant service refuses it when its price is above the balance.
    const dearest = lockedFree(read, ledger).reverse()[0];
    if (!dearest || dearest.price! <= balance) {
      return t.skip(
        `the wallet holds ${balance} credits, ${dearest ? `enough for every locked candidate of the shared real run (the dearest is quoted ${dearest.price})` : 'and no locked candidate is left'}: ` +
          'a refusal for credits can only be observed with a wallet below a listed price, so nothing was spent to provoke one',
        'inconclusive',
      );
    }
    // If the service charges less than it quoted, the reveal may go through: reserve the quote.
    if (!ledger.claim(dearest.id, dearest.price!))
      return t.skip(
        tooLow(
          ledger,
          read,
          `revealing candidate ${dearest.id} (quoted ${dearest.price}, above the balance ${balance})`,
        ),
        'needs-input',
        'a higher --max-spend-credits',
      );
    const res = await paidReveal(
      t,
      ledger,
      runId,
      dearest,
      `reveal candidate ${dearest.id} (latest quote ${dearest.price}, above the balance ${balance})`,
    );
    if (res.status === 202)
      return t.skip(
        `revealing candidate ${dearest.id}: reveal pending (202): its shape is not shown in v1`,
        'inconclusive',
      );
    if (res.status === 200) {
      const b = obj(res.json);
      const charged = int(b?.credits_charged);
      const after = int(b?.wallet_balance_after);
      // A negative balance is overdrawn by the answer's own word; a charge above the balance read earlier
      // is, unless something credited the wallet since.
      const negative = after !== undefined && after < 0n;
      const overdrawn = negative || (charged !== undefined && charged > balance);
      const obs = {
        message: `candidate ${dearest.id} was revealed for ${String(b?.credits_charged)} credits with ${balance} in the wallet (wallet_balance_after ${String(b?.wallet_balance_after)}); a locked candidate is revealed only when the credits suffice, otherwise the reveal answers 402 insufficient_credits`,
        spec: S.contactState,
        expected: '402 insufficient_credits',
        received: {
          credits_charged: b?.credits_charged ?? null,
          wallet_balance_after: b?.wallet_balance_after ?? null,
        },
      };
      if (!(negative ? t.expect.that(!overdrawn, obs, res) : await expectWallet(t, !overdrawn, obs, res))) return;
      return t.skip(
        `candidate ${dearest.id}, quoted ${dearest.price} with ${balance} in the wallet, was revealed for ${String(b?.credits_charged)}: the price at request time fit the wallet (credits_charged is authoritative), so no refusal was seen`,
        'inconclusive',
      );
    }
    expectRefusalBody(t, res, dearest.id, dearest.price!);
  },
);
