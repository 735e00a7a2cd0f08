import { PHONE_HIDDEN, sandboxContact } from '../collaborators.js';
import { ApiError, isSandbox, jsonBody, segment, type Reply, type RequestContext } from '../context.js';
import { emitRevealed } from '../events.js';
import { currentState } from '../run-view.js';
import type { Organization, Run } from '../store.js';
import { actingUser, lookupRun } from './run-lookup.js';

const DECIMAL_ID = /^[0-9]{1,19}$/;

/** The run of the path; two faults break how an unknown or another organization's run is answered. */
function revealLookup(rc: RequestContext): { run: Run; org: Organization } {
  try {
    return lookupRun(rc, segment(rc, 1));
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'run_not_found') throw e;
    const foreign = rc.app.store.runs.has(segment(rc, 1).toLowerCase());
    if (foreign && rc.app.config.faults.has('reveal.other-org-403')) throw new ApiError(403, 'forbidden');
    if (!foreign && rc.app.config.faults.has('reveal.unknown-run-wrong-code'))
      throw new ApiError(404, 'candidate_not_in_run');
    throw e;
  }
}

/** What a first production reveal charges: the latest quote, or what a variant makes of it. */
function productionCharge(rc: RequestContext, quoted: number): number {
  // The price at request time may differ from the quote; the response is authoritative.
  if (rc.app.config.variants.has('reveal.production-charge-below-quote')) return Math.floor((quoted * 3) / 4);
  // Variant reveal.production-price-table-free: the price table at request time prices the reveal at 0.
  if (rc.app.config.variants.has('reveal.production-price-table-free')) return 0;
  return quoted;
}

export function revealRoute(rc: RequestContext): Reply {
  const { app } = rc;
  const faults = app.config.faults;
  const { run, org } = revealLookup(rc);
  const body = jsonBody(rc);
  // The fault isolation.reveal-user-any-org: a recruiter of any organization of the partner is found.
  if (!faults.has('reveal.unknown-user-accepted'))
    actingUser(rc, org, body.acting_user_external_id, faults.has('isolation.reveal-user-any-org'));
  const rawId = segment(rc, 3);
  const id = DECIMAL_ID.test(rawId)
    ? faults.has('reveal.id-parsed-as-double')
      ? BigInt(Number(rawId))
      : BigInt(rawId)
    : undefined;
  const state = currentState(app, run, rc.lang);
  const candidate = id === undefined ? undefined : state?.snapshot.candidates.find((c) => c.id === id);
  if (!candidate || id === undefined)
    throw new ApiError(
      404,
      faults.has('reveal.not-in-run-wrong-code') ? 'candidate_not_found' : 'candidate_not_in_run',
    );

  const already = org.revealed.has(id);
  const chargeAgain = already && faults.has('reveal.charged-twice');
  const price = run.quotedPrices.get(id) ?? candidate.priceCredits;
  let response: Record<string, unknown>;
  if (isSandbox(rc)) {
    // The faults answer a sandbox reveal as production might: pending, or refused for credits when the
    // (overridden) price is above the balance.
    if (faults.has('sandbox.reveal-pending-202')) return { status: 202, body: { status: 'pending' } };
    if (faults.has('sandbox.reveal-402-over-wallet') && price > org.walletBalance)
      throw new ApiError(402, 'insufficient_credits', { balance: org.walletBalance, required: price });
    const contact = faults.has('reveal.contact-wrong-shape')
      ? { email: `candidate${id}@example.com`, phone: sandboxContact(id).phone }
      : faults.has('reveal.sandbox-phone-placeholder')
        ? { email: sandboxContact(id).email, phone: PHONE_HIDDEN }
        : sandboxContact(id);
    // Variant reveal.sandbox-phone-computed: derived from the last four digits without showing them.
    if (app.config.variants.has('reveal.sandbox-phone-computed'))
      contact.phone = `+1-555-01${String((Number(id % 10000n) * 37) % 100).padStart(2, '0')}`;
    response = {
      email: contact.email,
      phone:
        already && faults.has('reveal.contact-differs-on-repeat')
          ? contact.phone.replace(/\d$/, (d) => String((Number(d) + 1) % 10))
          : faults.has('reveal.sandbox-phone-per-run')
            ? `${contact.phone} x${run.id.slice(0, 4)}`
            : contact.phone,
      credits_charged:
        chargeAgain ||
        faults.has('reveal.sandbox-charges-credits') ||
        (faults.has('sandbox.reveal-charges-override-price') && run.quotedPrices.has(id))
          ? price
          : 0,
      wallet_balance_after: org.walletBalance,
      ...(faults.has('reveal.sandbox-flag-missing') ? {} : { sandbox: true }),
    };
  } else {
    // The fault keeps "already revealed" per run: a reveal made in another run of the organization is charged again.
    const perRun = faults.has('reveal.production-charged-again-in-other-run') && !run.revealEvents.has(id);
    const charge = already && !chargeAgain && !perRun ? 0 : productionCharge(rc, price);
    if (org.walletBalance < charge && !faults.has('production.reveal-overdraws')) {
      throw new ApiError(
        402,
        'insufficient_credits',
        faults.has('production.insufficient-credits-bare') ? {} : { balance: org.walletBalance, required: charge },
      );
    }
    org.walletBalance -= charge;
    // The faults misstate the charge: 2 less, or nothing at all, while the wallet fell by all of it.
    const stated = faults.has('reveal.production-charges-nothing')
      ? 0
      : faults.has('reveal.production-charge-understated') && charge > 0
        ? charge - 2
        : charge;
    response = {
      email: candidate.email,
      phone: candidate.phone,
      credits_charged: stated,
      wallet_balance_after: org.walletBalance,
    };
    if (faults.has('reveal.production-wallet-stale')) response.wallet_balance_after = org.walletBalance + charge;
    if (faults.has('production.reveal-sandbox-flag')) response.sandbox = true;
  }
  if (faults.has('reveal.wallet-balance-missing')) delete response.wallet_balance_after;
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
