// What the production reveal checks share: the wallet ledger of each organization, paid reveals of
// the real run's candidates, and the suite name.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { WrittenObservation } from '../../src/api-setup/check.js';
import { int, obj, objects } from '../support/json-values.js';
import { revealPath } from '../support/runs.js';
import { twoStepCheck } from '../support/two-step-check.js';
import { expectRevealResult } from '../support/reveal-result.js';
import { S } from '../../src/spec/sections.js';

const suite = 'reveal';
/** Spec time of a check here: the shared real run is awaited outside it (setup). */
const TIMEOUT = 10 * 60_000;

/**
 * A wallet fact holds only when nothing else moved the wallet meanwhile. The organization this
 * certification redeemed has no other spender (no one else holds its token): a mismatch fails. One given
 * with --org-token may have recruiters of its own revealing, or credits added, while the check runs: the
 * same mismatch only warns.
 */
export async function expectWallet(
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

export interface Listed {
  id: bigint;
  price: bigint | undefined;
  state: unknown;
}

export interface Read {
  res: ApiResponse;
  candidates: Listed[];
}

/** Credits of one certification's production reveals, by real run id. */
export class Ledger {
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

export async function post(t: CheckContext, runId: string, id: bigint, label: string): Promise<ApiResponse> {
  const user = await t.setup.user();
  return t.api.post(revealPath(runId, id), { acting_user_external_id: user.externalId }, { label });
}

/** The run read just before a reveal: its quotes are the latest (prices are computed at request time). */
export async function latestRead(t: CheckContext, runId: string, label: string): Promise<Read | undefined> {
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
export function lockedFree(read: Read, ledger: Ledger): Listed[] {
  return read.candidates
    .filter((c) => c.state === 'locked' && c.price !== undefined && !ledger.claimed.has(c.id))
    .sort(byPrice);
}

/** A first reveal of `c` under the ledger: reserved at its quote, settled at the response's charge. */
export async function paidReveal(
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
export function hold(res: ApiResponse, what: string): string | undefined {
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

/**
 * A 200 with a Reveal result, its sandbox-only field left to reveal.production-no-sandbox-field (the
 * schema states it for the sandbox, const true); skips on a hold (202 pending, 402), records a failure
 * otherwise (sandbox reveals, which are never held: reveal/common.ts).
 */
export function expectRevealedInProduction(t: CheckContext, res: ApiResponse, what: string): JsonObject | undefined {
  const why = hold(res, what);
  if (why !== undefined) {
    t.skip(why, 'inconclusive');
    return undefined;
  }
  return expectRevealResult(t, res, what, ({ sandbox: _sandbox, ...rest }) => rest);
}

/** The shared real run as a production reveal check spends on it: its id, its ledger, a latest read. */
export interface RunRead {
  runId: string;
  ledger: Ledger;
  read: Read;
}

/** Skips (the real run listing nothing) or gives the run and a latest read. */
async function realRunRead(t: CheckContext): Promise<RunRead | undefined> {
  const { run } = await t.setup.realRun();
  const read = await latestRead(t, run.runId, 'read the run (latest quotes)');
  if (!read) return undefined;
  if (read.candidates.length === 0) {
    // A run may end with none ("it may hold fewer than target candidates"): the engine's outcome.
    t.skip('the shared real run lists no candidate to reveal (a run may end with none)', 'not-applicable');
    return undefined;
  }
  return { runId: run.runId, ledger: ledgerOf(t, run.runId), read };
}

export function tooLow(ledger: Ledger, read: Read, what: string): string {
  const quotes = lockedFree(read, ledger).map((c) => c.price!);
  const cheapest =
    quotes.length > 0
      ? `; the cheapest locked candidate is quoted ${quotes[0]}`
      : '; no locked candidate is left to reveal';
  return `${what} would spend more than what is left of --max-spend-credits (${ledger.remaining()} of ${ledger.budget})${cheapest}`;
}

/** A candidate already revealed for the organization (a repeat reveal is free): from the read or the ledger. */
export function alreadyRevealed(read: Read, ledger: Ledger): Listed | undefined {
  return read.candidates.find((c) => c.state === 'revealed' || ledger.revealed.has(c.id));
}

/**
 * A repeat reveal of a candidate already revealed for the organization: free, so it tells the wallet
 * balance. Its wallet_balance_after (undefined when not an integer), or undefined when the reveal did
 * not answer a Reveal result (skipped or recorded).
 */
export async function freeRepeatReveal(
  t: CheckContext,
  runId: string,
  id: bigint,
): Promise<{ balance: bigint | undefined } | undefined> {
  const res = await post(t, runId, id, `reveal candidate ${id} again (already revealed: free, tells the balance)`);
  const b = expectRevealedInProduction(t, res, `revealing already revealed candidate ${id}`);
  if (!b) return undefined;
  // The schema made wallet_balance_after an integer.
  return { balance: int(b.wallet_balance_after) };
}

/**
 * The cheapest locked candidate of the read (among those `among` keeps) that the allowance still
 * covers, claimed for a first reveal; undefined, the check skipped for a higher --max-spend-credits,
 * when none is. `what` names the reveal in the reason.
 */
export function claimLocked(
  t: CheckContext,
  read: Read,
  ledger: Ledger,
  what: string,
  among: (c: Listed) => boolean = () => true,
): Listed | undefined {
  const c = lockedFree(read, ledger)
    .filter(among)
    .find((x) => ledger.claim(x.id, x.price!));
  if (!c) t.skip(tooLow(ledger, read, what), 'needs-input', 'a higher --max-spend-credits');
  return c;
}

/** Like alreadyRevealed, after the paid reveals other checks have under way (spares the allowance). */
export async function revealedSoon(read: Read, ledger: Ledger): Promise<Listed | undefined> {
  const now = alreadyRevealed(read, ledger);
  if (now || ledger.pending.size === 0) return now;
  await Promise.allSettled([...ledger.pending]);
  return alreadyRevealed(read, ledger);
}

/**
 * A production reveal check: it spends the organization's credits (within --max-spend-credits) on
 * candidates of the shared real run, and judges from a latest read of that run and the run's ledger
 * (skipped when the run lists no candidate).
 */
export function productionRevealCheck(
  def: Omit<CheckDefinition, 'suite' | 'needs' | 'timeoutMs' | 'run'>,
  judge: (t: CheckContext, got: RunRead) => Promise<void>,
): CheckDefinition {
  return twoStepCheck({ ...def, suite, needs: ['spend-credits', 'org'], timeoutMs: TIMEOUT }, realRunRead, judge);
}
