// A sandbox reveal: the Reveal result, the synthetic contact (the same in every run), nothing charged.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckDefinition } from '../../src/api-setup/check.js';
import { int } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { S } from '../../src/spec/sections.js';
import {
  expectRevealedInSandbox,
  FIRST_FIXTURE_ID,
  FIXTURE,
  fixtureListed,
  readListed,
  reveal,
  suite,
} from './common.js';

const RESERVED_TLD = /(^|\.)(invalid|test|example|localhost)$/;
const EXAMPLE_DOMAIN = /(^|\.)example\.(com|net|org)$/;

/** Domains reserved for documentation and testing (RFC 2606 / RFC 6761): never deliverable. */
function isReservedDomain(domain: string): boolean {
  const host = domain.toLowerCase().replace(/\.$/, '');
  return RESERVED_TLD.test(host) || EXAMPLE_DOMAIN.test(host);
}

export const SANDBOX_CONTACT_CHECKS: CheckDefinition[] = [
  {
    id: 'reveal.result-schema',
    title:
      'Revealing a listed candidate answers 200 with a Reveal result (email, phone, credits_charged, wallet_balance_after)',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.revealResult],
    needs: ['sandbox', 'org'],
    async run(t) {
      const listed = await fixtureListed(t);
      if (!listed) return;
      const first = listed.candidates[0]!;
      const res = await reveal(t, listed.runId, first.id, 'reveal a listed candidate');
      expectRevealedInSandbox(t, res, `revealing listed candidate ${first.id}`);
    },
  },
  {
    id: 'reveal.sandbox-synthetic-contact',
    title:
      "A sandbox reveal gives the synthetic contact: e-mail candidate-<candidate_id>@<reserved invalid domain>, a phone number carrying the id's last four digits",
    suite,
    evidence: 'provoked',
    warns: ["the phone's digits do not contain the last four digits of the candidate id"],
    spec: [S.sandbox, S.revealResult],
    needs: ['sandbox', 'org'],
    async run(t) {
      const listed = await fixtureListed(t);
      if (!listed) return;
      const target = listed.candidates[1] ?? listed.candidates[0]!;
      const res = await reveal(t, listed.runId, target.id, 'reveal a listed candidate');
      const b = expectRevealedInSandbox(t, res, `revealing candidate ${target.id}`);
      if (!b) return;
      const email = b.email;
      const m = typeof email === 'string' ? /^([^@]+)@([^@\s]+)$/.exec(email) : null;
      const local = `candidate-${target.id}`;
      t.expect.that(
        m !== null && m[1] === local,
        {
          message: `the sandbox reveal of candidate ${target.id} gave e-mail ${show(email)}; the sandbox e-mail has the shape candidate-<candidate_id>@<reserved-invalid-domain>`,
          spec: S.sandbox,
          expected: `${local}@<reserved domain>`,
          received: email,
          pointer: '/email',
        },
        res,
      );
      if (m !== null && m[1] === local) {
        t.expect.that(
          isReservedDomain(m[2]!),
          {
            message: `the sandbox e-mail domain ${show(m[2])} is not a reserved, undeliverable domain (.invalid, .test, .example, .localhost, example.com/.net/.org)`,
            spec: S.sandbox,
            expected: 'a reserved invalid domain',
            received: m[2],
            pointer: '/email',
          },
          res,
        );
      }
      // "the phone is fixed and derived from the last four digits of the candidate id": a phone number,
      // written in digits (a placeholder or a blank is no phone). How it is derived is not shown, so that
      // the four digits appear in it is the natural reading, not a rule: a warning, never a failure.
      const phone = b.phone;
      const digits = typeof phone === 'string' ? phone.replace(/\D/g, '') : '';
      if (
        !t.expect.that(
          typeof phone === 'string' && digits.length >= 4,
          {
            message: `the sandbox reveal of candidate ${target.id} gave phone ${show(phone)}, not a phone number written in digits; the sandbox phone is fixed and derived from the last four digits of the candidate id`,
            spec: S.sandbox,
            expected: 'a phone number (digits)',
            received: phone,
            pointer: '/phone',
          },
          res,
        )
      ) {
        return;
      }
      const last4 = target.id.toString().slice(-4).padStart(4, '0');
      t.expect.warn(
        digits.includes(last4),
        {
          message: `the sandbox reveal of candidate ${target.id} gave phone ${show(phone)}, whose digits do not contain ${last4}, the last four digits of the candidate id`,
          spec: S.sandbox,
          reading:
            '"derived from the last four digits of the candidate id" means the phone carries those four digits, as a synthetic number built on them does',
          otherReading:
            'how the phone is derived is not shown: it may be computed from the four digits without containing them',
          expected: `a phone containing ${last4}`,
          received: phone,
          pointer: '/phone',
        },
        res,
      );
    },
  },
  {
    id: 'reveal.sandbox-contact-same-across-runs',
    title: 'In the sandbox the same candidate gets the same e-mail and phone when revealed in two different runs',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.revealResult],
    needs: ['sandbox', 'org'],
    async run(t) {
      const listed = await fixtureListed(t);
      if (!listed) return;
      // Fixture candidates have the same synthetic ids in every fixture run, but each fixture lists its
      // own number of them in an order of its own (display order is open): the candidate revealed is one
      // both runs list, read from both.
      const other = await t.setup.fixtureRun('cert-extra-fields');
      const otherListed = await readListed(t, other.runId);
      if (!otherListed) return;
      const target = listed.candidates.find((c) => otherListed.candidates.some((o) => o.id === c.id));
      if (!target) {
        t.skip(
          `${FIXTURE} and cert-extra-fields list no candidate in common (${listed.candidates.length} and ${otherListed.candidates.length} listed), though fixture ids ascend from ${FIRST_FIXTURE_ID} in both`,
          'inconclusive',
        );
        return;
      }
      const a = expectRevealedInSandbox(
        t,
        await reveal(t, listed.runId, target.id, `reveal ${target.id} in the ${FIXTURE} run`),
        `revealing candidate ${target.id}`,
      );
      const res = await reveal(t, other.runId, target.id, `reveal ${target.id} in a cert-extra-fields run`);
      const b = expectRevealedInSandbox(t, res, `revealing candidate ${target.id} in another run`);
      if (!a || !b) return;
      t.expect.that(
        a.email === b.email && a.phone === b.phone,
        {
          message: `candidate ${target.id} revealed in two runs got ${show({ email: a.email, phone: a.phone })} and ${show({ email: b.email, phone: b.phone })}; in the sandbox the same candidate always gets the same contact, the phone fixed and derived from the id's last four digits`,
          spec: S.sandbox,
          expected: { email: a.email, phone: a.phone },
          received: { email: b.email, phone: b.phone },
        },
        res,
      );
    },
  },
  {
    id: 'reveal.sandbox-nothing-charged',
    title: 'A sandbox reveal says sandbox: true, charges 0 and leaves wallet_balance_after unchanged',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.revealResult],
    needs: ['sandbox', 'org'],
    async run(t) {
      const listed = await fixtureListed(t, 2);
      if (!listed) return;
      const picks = [listed.candidates[2] ?? listed.candidates[0]!, listed.candidates[3] ?? listed.candidates[1]!];
      const results: Array<{ id: bigint; res: ApiResponse; b: JsonObject }> = [];
      for (const p of picks) {
        const res = await reveal(t, listed.runId, p.id, `reveal candidate ${p.id}`);
        const b = expectRevealedInSandbox(t, res, `revealing candidate ${p.id}`);
        if (!b) return;
        results.push({ id: p.id, res, b });
      }
      for (const { id, res, b } of results) {
        t.expect.that(
          b.sandbox === true,
          {
            message: `the sandbox reveal of candidate ${id} has ${b.sandbox === undefined ? 'no sandbox field' : `sandbox ${show(b.sandbox)}`}; the sandbox response adds sandbox: true`,
            spec: S.sandbox,
            expected: true,
            received: b.sandbox ?? '(absent)',
            pointer: '/sandbox',
          },
          res,
        );
        t.expect.that(
          int(b.credits_charged) === 0n,
          {
            message: `the sandbox reveal of candidate ${id} has credits_charged ${String(b.credits_charged)}; nothing is charged in the sandbox`,
            spec: S.sandbox,
            expected: 0,
            received: b.credits_charged,
            pointer: '/credits_charged',
          },
          res,
        );
      }
      const [a, b] = results as [(typeof results)[0], (typeof results)[0]];
      t.expect.that(
        int(a.b.wallet_balance_after) === int(b.b.wallet_balance_after),
        {
          message: `two sandbox reveals gave wallet_balance_after ${String(a.b.wallet_balance_after)} then ${String(b.b.wallet_balance_after)}; in the sandbox it is the unchanged organization balance`,
          spec: S.sandbox,
          expected: String(a.b.wallet_balance_after),
          received: b.b.wallet_balance_after,
          pointer: '/wallet_balance_after',
        },
        b.res,
      );
    },
  },
];
