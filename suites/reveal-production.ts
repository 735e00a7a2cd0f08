// Production reveals (suite "reveal"): they spend the organization's credits, so the checks here
// share one ledger per real run (one real run per certification): together they never commit more
// than --max-spend-credits (a reveal is reserved at its quoted price before it is sent, then settled
// at what the response charged), no two of them first-reveal the same candidate (the second would be
// a free repeat), and a balance is compared only when no other paid reveal could have moved it.

import type { ApiResponse } from '../src/http/types.js';
import type { JsonObject } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import type { WrittenObservation } from '../src/runner/check.js';
import { int, obj, objects, revealPath, show } from './support.js';
import { S } from '../src/spec/sections.js';

const suite = 'reveal';
/** Spec time of a check here: the shared real run is awaited outside it (setup). */
const TIMEOUT = 10 * 60_000;

/**
 * A wallet fact holds only when nothing else moved the wallet meanwhile. The organization this
 * certification redeemed has no other spender (no one else holds its token): a mismatch fails. One given
 * with --org-token may have recruiters of its own revealing, or credits added, while the check runs: the
 * same mismatch only warns.
 */
async function expectWallet(
  t: CheckContext,
  condition: boolean,
  obs: WrittenObservation,
  res: ApiResponse,
): Promise<boolean> {
  if ((await t.setup.org()).redemption !== undefined) return t.expect.that(condition, obs, res);
  return t.expect.warn(
    condition,
    {
      ...obs,
      reading: 'nothing but this certification revealed candidates of the organization or changed its wallet meanwhile',
      otherReading:
        'the organization came from --org-token, so its own recruiters may reveal, and credits may be added, while the check runs',
    },
    res,
  );
}

interface Listed {
  id: bigint;
  price: bigint | undefined;
  state: unknown;
}

interface Read {
  res: ApiResponse;
  candidates: Listed[];
}

/** Credits of one certification's production reveals, by real run id. */
class Ledger {
  committed = 0n;
  /** Paid (first) reveals sent so far, and those not yet answered: a balance is compared only when quiet. */
  sent = 0;
  inFlight = 0;
  /** Candidates some check first-reveals (claimed before the request). */
  readonly claimed = new Set<bigint>();
  /** Candidates a paid reveal of this certification revealed (200): a repeat reveal of one is free. */
  readonly revealed = new Set<bigint>();
  /** Paid reveals not yet answered: a check that only needs some revealed candidate waits for them. */
  readonly pending = new Set<Promise<unknown>>();
  /** The latest wallet balance a reveal stated, and the `sent` count it was stated at. */
  balance?: { credits: bigint; at: number; quiet: boolean };

  constructor(readonly budget: bigint) {}

  remaining(): bigint {
    return this.budget - this.committed;
  }

  /** Reserves `credits` for a first reveal of `id`; false when the allowance cannot cover it. */
  claim(id: bigint, credits: bigint): boolean {
    if (this.claimed.has(id) || credits > this.remaining()) return false;
    this.claimed.add(id);
    this.committed += credits;
    return true;
  }

  /** The current `sent` count when no paid reveal is in flight (a balance read now is exact), else undefined. */
  quietMark(): number | undefined {
    return this.inFlight === 0 ? this.sent : undefined;
  }

  noteBalance(b: JsonObject | undefined): void {
    const credits = int(b?.wallet_balance_after);
    if (credits !== undefined) this.balance = { credits, at: this.sent, quiet: this.inFlight === 0 };
  }
}

const ledgers = new Map<string, Ledger>();

function ledgerOf(t: CheckContext, runId: string): Ledger {
  let l = ledgers.get(runId);
  if (!l) {
    l = new Ledger(BigInt(t.inputs.maxSpendCredits));
    ledgers.set(runId, l);
  }
  return l;
}

async function post(t: CheckContext, runId: string, id: bigint, label: string): Promise<ApiResponse> {
  const user = await t.setup.user();
  return t.api.post(revealPath(runId, id), { acting_user_external_id: user.externalId }, { label });
}

/** The run read just before a reveal: its quotes are the latest (prices are computed at request time). */
async function latestRead(t: CheckContext, runId: string, label: string): Promise<Read | undefined> {
  const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, { label });
  if (!t.expect.status(res, 200, S.runsRead)) return undefined;
  const candidates = objects(obj(res.json)?.candidates).flatMap((c) => {
    const id = int(c.id);
    return id === undefined ? [] : [{ id, price: int(c.reveal_price_credits), state: c.contact_state }];
  });
  return { res, candidates };
}

const byPrice = (x: Listed, y: Listed): number =>
  (x.price ?? 0n) < (y.price ?? 0n) ? -1 : (x.price ?? 0n) > (y.price ?? 0n) ? 1 : 0;

/** Locked, priced, not claimed by another check: what a first reveal may take, cheapest first. */
function lockedFree(read: Read, ledger: Ledger): Listed[] {
  return read.candidates
    .filter((c) => c.state === 'locked' && c.price !== undefined && !ledger.claimed.has(c.id))
    .sort(byPrice);
}

/** A first reveal of `c` under the ledger: reserved at its quote, settled at the response's charge. */
async function paidReveal(
  t: CheckContext,
  ledger: Ledger,
  runId: string,
  c: Listed,
  label: string,
): Promise<ApiResponse> {
  const quoted = c.price ?? 0n;
  ledger.sent++;
  ledger.inFlight++;
  const sending = post(t, runId, c.id, label);
  ledger.pending.add(sending);
  let res: ApiResponse;
  try {
    res = await sending;
  } finally {
    ledger.inFlight--;
    ledger.pending.delete(sending);
  }
  const b = res.status === 200 ? obj(res.json) : undefined;
  const charged = int(b?.credits_charged);
  if (res.status === 200) {
    ledger.revealed.add(c.id);
    if (charged !== undefined) ledger.committed += charged - quoted;
    ledger.noteBalance(b);
  } else if (res.status !== 202) {
    // Refused (402 or an error): nothing was charged.
    ledger.committed -= quoted;
  }
  return res;
}

/**
 * Production answers a reveal may legitimately give instead of 200: a pending 202 (its shape is not
 * shown) and 402 insufficient_credits (a low wallet). The reason to skip, or undefined.
 */
function hold(res: ApiResponse, what: string): string | undefined {
  if (res.status === 202) return `${what}: reveal pending (202): its shape is not shown in v1`;
  if (res.status === 402) {
    const b = obj(res.json);
    return (
      `${what}: 402 insufficient_credits (balance ${String(b?.balance ?? '?')}, required ${String(b?.required ?? '?')}); ` +
      `the organization's wallet cannot pay this reveal: top it up or lower --max-spend-credits`
    );
  }
  return undefined;
}

/** A 200 with a Reveal result (its sandbox-only field judged apart); skips on a hold, records a failure otherwise. */
function expectRevealed(t: CheckContext, res: ApiResponse, what: string): JsonObject | undefined {
  const why = hold(res, what);
  if (why !== undefined) {
    t.skip(why, 'inconclusive');
    return undefined;
  }
  if (!t.expect.status(res, 200, S.reveal)) return undefined;
  const b = obj(res.json);
  if (!b) {
    t.expect.fail({ message: `${what}: the 200 body is not a JSON object`, spec: S.revealResult }, res);
    return undefined;
  }
  // reveal.production-no-sandbox-field judges `sandbox`; the schema states it for the sandbox (const true).
  const { sandbox: _sandbox, ...rest } = b;
  if (!t.expect.schema(rest, 'reveal-result', S.revealResult, res)) return undefined;
  return b;
}

/** Skips (the real run listing nothing) or gives the run and a latest read. */
async function realRunRead(t: CheckContext): Promise<{ runId: string; ledger: Ledger; read: Read } | undefined> {
  const { run } = await t.setup.realRun();
  const read = await latestRead(t, run.runId, 'read the run (latest quotes)');
  if (!read) return undefined;
  if (read.candidates.length === 0) {
    t.skip('the shared real run lists no candidate to reveal', 'inconclusive');
    return undefined;
  }
  return { runId: run.runId, ledger: ledgerOf(t, run.runId), read };
}

function tooLow(ledger: Ledger, read: Read, what: string): string {
  const quotes = lockedFree(read, ledger).map((c) => c.price!);
  const cheapest =
    quotes.length > 0
      ? `; the cheapest locked candidate is quoted ${quotes[0]}`
      : '; no locked candidate is left to reveal';
  return `${what} would spend more than what is left of --max-spend-credits (${ledger.remaining()} of ${ledger.budget})${cheapest}`;
}

/** A candidate already revealed for the organization (a repeat reveal is free): from the read or the ledger. */
function alreadyRevealed(read: Read, ledger: Ledger): Listed | undefined {
  return read.candidates.find((c) => c.state === 'revealed' || ledger.revealed.has(c.id));
}

/** Like alreadyRevealed, after the paid reveals other checks have under way (spares the allowance). */
async function revealedSoon(read: Read, ledger: Ledger): Promise<Listed | undefined> {
  const now = alreadyRevealed(read, ledger);
  if (now || ledger.pending.size === 0) return now;
  await Promise.allSettled([...ledger.pending]);
  return alreadyRevealed(read, ledger);
}

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
  const b = expectRevealed(t, res, `revealing candidate ${c.id}`);
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

const chargedOnce: CheckDefinition = {
  id: 'reveal.production-charged-once',
  title:
    'Production: the first reveal of a candidate charges credits and wallet_balance_after falls by exactly credits_charged; a repeat charges 0, keeps the balance and the read shows revealed',
  suite,
  evidence: 'input',
  warns: [
    'the wallet moved otherwise than this certification explains, with an organization from --org-token (its own recruiters may reveal meanwhile)',
    'the first reveal charged 0 though the read just before quoted a price',
  ],
  spec: [S.reveal, S.contactState, S.revealResult, S.general],
  needs: ['spend-credits', 'org'],
  timeoutMs: TIMEOUT,
  async run(t) {
    const got = await realRunRead(t);
    if (!got) return;
    const { runId, ledger, read } = got;
    // A candidate revealed before (an earlier certification of this organization) tells the balance for free.
    let before: { credits: bigint; mark: number } | undefined;
    const known = alreadyRevealed(read, ledger);
    if (known) {
      const mark = ledger.quietMark();
      const res = await post(
        t,
        runId,
        known.id,
        `reveal candidate ${known.id} again (already revealed: free, tells the balance)`,
      );
      const b = expectRevealed(t, res, `revealing already revealed candidate ${known.id}`);
      if (!b) return;
      const credits = int(b.wallet_balance_after);
      if (mark !== undefined && mark === ledger.quietMark() && credits !== undefined) before = { credits, mark };
    }
    const a = lockedFree(read, ledger).find((c) => ledger.claim(c.id, c.price!));
    if (!a)
      return t.skip(
        tooLow(ledger, read, 'revealing a locked candidate of the shared real run'),
        'needs-input',
        'a higher --max-spend-credits',
      );
    const first = await firstRevealCharged(t, { runId, ledger }, a, before);
    if (!first) return;
    const w1 = int(first.body.wallet_balance_after);

    const again = await post(t, runId, a.id, `reveal candidate ${a.id} again`);
    const r2 = expectRevealed(t, again, `revealing candidate ${a.id} again`);
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
};

const noSandboxField: CheckDefinition = {
  id: 'reveal.production-no-sandbox-field',
  title: 'Production: a reveal result carries no sandbox field (sandbox: true is sandbox only)',
  suite,
  evidence: 'input',
  warns: ['a production reveal carries a sandbox field (listed as "sandbox only")'],
  spec: [S.revealResult, S.versioning],
  needs: ['spend-credits', 'org'],
  timeoutMs: TIMEOUT,
  async run(t) {
    const got = await realRunRead(t);
    if (!got) return;
    const { runId, ledger, read } = got;
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
    const b = expectRevealed(t, res, `revealing candidate ${id}`);
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
};

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
    const res = await post(
      t,
      runId,
      known.id,
      `reveal candidate ${known.id} again (already revealed: free, tells the balance)`,
    );
    const b = expectRevealed(t, res, `revealing already revealed candidate ${known.id}`);
    if (!b) return undefined;
    // The schema made wallet_balance_after an integer.
    const credits = int(b.wallet_balance_after);
    return credits === undefined ? undefined : { credits };
  }
  const c = lockedFree(read, ledger).find((x) => ledger.claim(x.id, x.price!));
  if (!c) {
    t.skip(
      tooLow(ledger, read, 'revealing a candidate to learn the wallet balance'),
      'needs-input',
      'a higher --max-spend-credits',
    );
    return undefined;
  }
  const res = await paidReveal(
    t,
    ledger,
    runId,
    c,
    `reveal candidate ${c.id} (latest quote ${c.price}; tells the balance)`,
  );
  if (res.status === 402) return { refused: res, c };
  const credits = int(expectRevealed(t, res, `revealing candidate ${c.id}`)?.wallet_balance_after);
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

const insufficientCredits: CheckDefinition = {
  id: 'reveal.production-insufficient-credits-body',
  title:
    'Production: a reveal the wallet cannot pay is refused with 402 insufficient_credits carrying balance and required (observed when the wallet is below a listed price)',
  suite,
  evidence: 'input',
  warns: [
    'the wallet moved otherwise than this certification explains, with an organization from --org-token (its own recruiters may reveal meanwhile)',
    'the 402 gives balance or required not as a whole number of credits',
  ],
  spec: [S.byEndpoint, S.contactState, S.reveal],
  needs: ['spend-credits', 'org'],
  timeoutMs: TIMEOUT,
  async run(t) {
    const got = await realRunRead(t);
    if (!got) return;
    const { runId, ledger, read } = got;
    const known = await knownBalance(t, got);
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
};

/** How often, and how many times at most, the second real run is read for a candidate the first lists. */
const SECOND_RUN_READS = 4;
const SECOND_RUN_READ_EVERY_SPEC_MS = 30_000;

const repeatInAnotherRun: CheckDefinition = {
  id: 'reveal.production-repeat-free-in-another-run',
  title:
    'Production: a candidate revealed in one run reads revealed in another run of the organization that lists it, and revealing it there charges 0',
  suite,
  evidence: 'input',
  spec: [S.contactState, S.reveal, S.revealResult],
  needs: ['spend-credits', 'org'],
  timeoutMs: TIMEOUT,
  async run(t) {
    const got = await realRunRead(t);
    if (!got) return;
    const { runId, ledger, read } = got;
    // The second real run (a twin of the shared job) lists candidates of the first: read it until it does.
    const second = await t.setup.secondRealRun();
    const firstIds = new Set(read.candidates.map((c) => c.id));
    let other: Read | undefined;
    for (let n = 1; n <= SECOND_RUN_READS; n++) {
      other = await latestRead(t, second.runId, `read the second real run (#${n})`);
      if (!other) return;
      if (other.candidates.some((c) => firstIds.has(c.id)) || n === SECOND_RUN_READS) break;
      await t.sleep(SECOND_RUN_READ_EVERY_SPEC_MS);
    }
    const common = (other?.candidates ?? []).filter((c) => firstIds.has(c.id));
    if (common.length === 0)
      return t.skip(
        `the two real runs of the shared job listed no candidate in common (${read.candidates.length} and ${other?.candidates.length ?? 0} listed), so no candidate could be revealed in one and read in the other; which candidates a run lists is the service's own outcome`,
        'not-applicable',
      );
    // One already revealed for the organization (by a check here, or before), else a paid reveal in the first run.
    await Promise.allSettled([...ledger.pending]);
    const revealedBefore = (id: bigint): boolean =>
      ledger.revealed.has(id) || read.candidates.some((c) => c.id === id && c.state === 'revealed');
    let chosen = common.find((c) => revealedBefore(c.id));
    if (!chosen) {
      const pick = lockedFree(read, ledger)
        .filter((c) => common.some((x) => x.id === c.id))
        .find((c) => ledger.claim(c.id, c.price!));
      if (!pick)
        return t.skip(
          tooLow(ledger, read, 'revealing a candidate both real runs list'),
          'needs-input',
          'a higher --max-spend-credits',
        );
      const res = await paidReveal(
        t,
        ledger,
        runId,
        pick,
        `reveal candidate ${pick.id} in the first run (latest quote ${pick.price})`,
      );
      if (!expectRevealed(t, res, `revealing candidate ${pick.id}`)) return;
      chosen = pick;
    }
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
    const b = expectRevealed(t, res, `revealing candidate ${id} in the second real run`);
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
};

export const REVEAL_PRODUCTION_CHECKS: readonly CheckDefinition[] = [
  chargedOnce,
  noSandboxField,
  insufficientCredits,
  repeatInAnotherRun,
];
