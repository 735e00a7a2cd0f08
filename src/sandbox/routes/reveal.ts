import { sandboxContact } from '../collaborators.js';
import { ApiError, isSandbox, jsonBody, type Reply, type RequestContext } from '../context.js';
import { emitRevealed } from '../events.js';
import { currentState } from '../run-view.js';
import { actingUser, lookupRun } from './run-lookup.js';

const DECIMAL_ID = /^[0-9]{1,19}$/;

export function revealRoute(rc: RequestContext): Reply {
  const { app } = rc;
  const faults = app.config.faults;
  const { run, org } = lookupRun(rc, rc.segments[1]);
  const body = jsonBody(rc);
  actingUser(rc, org, body.acting_user_external_id);
  const rawId = rc.segments[3];
  const id = DECIMAL_ID.test(rawId) ? BigInt(rawId) : undefined;
  const state = currentState(app, run, rc.lang);
  const candidate = id === undefined ? undefined : state?.snapshot.candidates.find((c) => c.id === id);
  if (!candidate || id === undefined) throw new ApiError(404, 'candidate_not_in_run');

  const already = org.revealed.has(id);
  const chargeAgain = already && faults.has('reveal.charged-twice');
  const price = run.quotedPrices.get(id) ?? candidate.priceCredits;
  let response: Record<string, unknown>;
  if (isSandbox(rc)) {
    const contact = faults.has('reveal.contact-wrong-shape')
      ? { email: `candidate${id}@example.com`, phone: sandboxContact(id).phone }
      : sandboxContact(id);
    response = {
      email: contact.email,
      phone: contact.phone,
      credits_charged: chargeAgain ? price : 0,
      wallet_balance_after: org.walletBalance,
      sandbox: true,
    };
  } else {
    const charge = already && !chargeAgain ? 0 : price;
    if (org.walletBalance < charge) throw new ApiError(402, 'insufficient_credits', { balance: org.walletBalance, required: charge });
    org.walletBalance -= charge;
    response = { email: candidate.email, phone: candidate.phone, credits_charged: charge, wallet_balance_after: org.walletBalance };
  }
  if (!already) {
    org.revealed.add(id);
    org.revealVersion++;
  }
  emitRevealed(app, run, id);
  if (run.fixture === 'cert-extra-fields' && !faults.has('fixtures.extra-fields-missing-on-reveal')) {
    response.zz_extra_top_level = 'clients must ignore this';
    response.zz_future_object = { nested: true };
  }
  return { status: 200, body: response };
}
