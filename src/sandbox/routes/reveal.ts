import { sandboxContact } from '../collaborators.js';
import {
  admit,
  answer,
  ApiError,
  isSandbox,
  jsonBody,
  refusal,
  refuse,
  segment,
  type Reply,
  type RequestContext,
} from '../context.js';
import { emitRevealed } from '../events.js';
import { currentState } from '../run-view.js';
import { actingUser, lookupRun } from './run-lookup.js';

const DECIMAL_ID = /^[0-9]{1,19}$/;

/** What a first production reveal charges: the latest quote, or what a variant makes of it. */
function productionCharge(rc: RequestContext, quoted: number): number {
  // The price at request time may differ from the quote; the response is authoritative.
  if (rc.app.config.variants.has('reveal.production-charge-below-quote')) return Math.floor((quoted * 3) / 4);
  // Variant reveal.production-price-table-free: the price table at request time prices the reveal at 0.
  if (rc.app.config.variants.has('reveal.production-price-table-free')) return 0;
  return quoted;
}

/**
 * POST /runs/{run_id}/candidates/{candidate_id}/reveal: a candidate the run listed, by a recruiter of the
 * organization. The sandbox answers a synthetic contact and charges nothing; production charges the quote
 * once per organization and candidate (a repeat is free) and refuses what the wallet cannot pay.
 */
export function revealRoute(rc: RequestContext): Reply {
  const { app } = rc;
  const { run, org } = lookupRun(rc, segment(rc, 1));
  const body = jsonBody(rc);
  actingUser(rc, org, body.acting_user_external_id);
  const rawId = segment(rc, 3);
  const id = DECIMAL_ID.test(rawId) ? app.points.id(BigInt(rawId), { route: rc.route }) : undefined;
  const state = currentState(app, run, rc.lang);
  const candidate = id === undefined ? undefined : state?.snapshot.candidates.find((c) => c.id === id);
  if (!candidate || id === undefined)
    throw refusal(rc, { cause: 'candidate-not-in-run' }, new ApiError(404, 'candidate_not_in_run'));

  const already = org.revealed.has(id);
  const sandbox = isSandbox(rc);
  const price = run.quotedPrices.get(id) ?? candidate.priceCredits;
  const charge = app.points.charge(sandbox || already ? 0 : productionCharge(rc, price), {
    sandbox,
    price: sandbox ? price : productionCharge(rc, price),
    alreadyRevealed: already,
    revealedInThisRun: run.revealEvents.has(id),
    overridden: run.quotedPrices.has(id),
  });
  let response: Record<string, unknown>;
  if (sandbox) {
    admit(rc, { price, walletBalance: org.walletBalance });
    const contact = sandboxContact(id);
    // Variant reveal.sandbox-phone-computed: derived from the last four digits without showing them.
    if (app.config.variants.has('reveal.sandbox-phone-computed'))
      contact.phone = `+1-555-01${String((Number(id % 10000n) * 37) % 100).padStart(2, '0')}`;
    response = { ...contact, credits_charged: charge, wallet_balance_after: org.walletBalance, sandbox: true };
  } else {
    if (org.walletBalance < charge)
      refuse(
        rc,
        { cause: 'insufficient-credits' },
        new ApiError(402, 'insufficient_credits', { balance: org.walletBalance, required: charge }),
      );
    org.walletBalance -= charge;
    response = {
      email: candidate.email,
      phone: candidate.phone,
      credits_charged: charge,
      wallet_balance_after: org.walletBalance,
    };
  }
  if (!already) {
    org.revealed.add(id);
    org.revealVersion++;
  }
  emitRevealed(app, run, id);
  if (run.fixture === 'cert-extra-fields') {
    response.zz_extra_top_level = 'clients must ignore this';
    response.zz_future_object = { nested: true };
  }
  return answer(
    rc,
    { status: 200, body: response },
    {
      candidateId: id,
      runId: run.id,
      alreadyRevealed: already,
      charge,
      ...(run.fixture ? { fixture: run.fixture } : {}),
    },
  );
}
