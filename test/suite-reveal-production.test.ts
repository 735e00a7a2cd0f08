// The production reveal checks (suites/reveal-production/) against a production-mode sandbox,
// declared production, with a spending allowance: clean, they pass; with the conformant charge below
// the quote they pass; each fault meant for one of them fails it on its own assertion. The real run
// lists five candidates quoted 12 credits each, so a wallet of 20 pays one reveal and refuses the next.

import { describe, expect, it } from 'vitest';
import { listFaults } from '../src/sandbox/index.js';
import { REVEAL_PRODUCTION_CHECKS } from '../suites/reveal-production/index.js';
import {
  certifySandbox,
  failedOnOwnAssertion,
  notPassed,
  resultOf,
  type CertifySandboxOptions,
} from './support/certify-sandbox.js';

const IDS = REVEAL_PRODUCTION_CHECKS.map((c) => c.id);
const REFUSAL = 'reveal.production-insufficient-credits-body';
const PRODUCTION: CertifySandboxOptions = {
  mode: 'production',
  flags: { environment: 'production', maxSpendCredits: '100' },
};
/** One reveal paid (it tells the balance: 8), the next refused. */
const LOW_WALLET: CertifySandboxOptions = { ...PRODUCTION, walletCredits: 20 };
const MINE = listFaults().filter((f) => IDS.includes(f.caughtBy));

describe('production reveal checks', () => {
  it('pass against a clean production-mode sandbox; with a wallet richer than every price, the refusal check skips saying so', async () => {
    const run = await certifySandbox({ ...PRODUCTION, ids: IDS });
    expect(notPassed(run).filter((l) => !l.startsWith(`skipped ${REFUSAL}`))).toEqual([]);
    expect(resultOf(run, REFUSAL).message).toMatch(/the wallet holds \d+ credits, enough for every locked candidate/);
  });

  it('the refusal check passes with a wallet below the price, whether the refusal comes on the probe or on the first reveal', async () => {
    for (const walletCredits of [20, 5]) {
      const run = await certifySandbox({ ...PRODUCTION, walletCredits, ids: [REFUSAL] });
      expect(notPassed(run), `wallet ${walletCredits}`).toEqual([]);
      expect(
        run.checks[0]!.exchanges.some((e) => e.response?.status === 402),
        `wallet ${walletCredits}`,
      ).toBe(true);
    }
  });

  it('charge below the quote (the response is authoritative) passes', async () => {
    const run = await certifySandbox({
      ...PRODUCTION,
      variants: ['reveal.production-charge-below-quote'],
      ids: IDS.filter((id) => id !== REFUSAL),
    });
    expect(notPassed(run)).toEqual([]);
  });

  it('skip naming --max-spend-credits when the allowance cannot pay one reveal', async () => {
    const run = await certifySandbox({ ...PRODUCTION, flags: { ...PRODUCTION.flags, maxSpendCredits: '5' }, ids: IDS });
    for (const id of IDS)
      expect(resultOf(run, id)).toMatchObject({
        status: 'skipped',
        message: expect.stringMatching(/--max-spend-credits \(5 of 5\)/),
      });
  });

  it('an organization given with --org-token may have other spenders: a wallet that moved otherwise warns, naming the reading', async () => {
    const run = await certifySandbox({
      ...PRODUCTION,
      orgToken: true,
      faults: ['reveal.production-charge-understated'],
      ids: ['reveal.production-charged-once'],
    });
    const r = resultOf(run, 'reveal.production-charged-once');
    expect(r.status, r.message).toBe('warning');
    expect(r.message).toMatch(/--org-token/);
  });

  it('every check has a fault meant for it', () => {
    expect(IDS.filter((id) => !MINE.some((f) => f.caughtBy === id))).toEqual([]);
  });

  it.concurrent.each(MINE.map((f) => [f.id, f.caughtBy] as const))(
    'fault %s fails %s on its own assertion',
    async (fault, check) => {
      const run = await certifySandbox({
        ...(check === REFUSAL ? LOW_WALLET : PRODUCTION),
        faults: [fault],
        ids: [check],
      });
      const r = resultOf(run, check);
      expect(failedOnOwnAssertion(r), `${check}: ${r.status} ${r.message}`).toBe(true);
    },
  );
});
