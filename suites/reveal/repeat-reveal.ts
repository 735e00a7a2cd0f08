// Revealing the same candidate again: nothing charged, the identical contact.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { int } from '../support/json-values.js';
import { S } from '../../src/spec/sections.js';
import { expectRevealedInSandbox, fixtureListed, reveal, suite } from './common.js';

export const REPEAT_REVEAL_CHECKS: CheckDefinition[] = [
  {
    id: 'reveal.no-second-charge',
    title: 'Revealing the same candidate again answers 200 with credits_charged 0',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.contactState],
    needs: ['sandbox', 'org'],
    async run(t) {
      const listed = await fixtureListed(t);
      if (!listed) return;
      const target = listed.candidates[4] ?? listed.candidates[0]!;
      const first = await reveal(t, listed.runId, target.id, 'reveal');
      if (!expectRevealedInSandbox(t, first, `revealing candidate ${target.id}`)) return;
      const again = await reveal(t, listed.runId, target.id, 'reveal again');
      const b = expectRevealedInSandbox(t, again, `revealing candidate ${target.id} again`);
      if (!b) return;
      t.expect.that(
        int(b.credits_charged) === 0n,
        {
          message: `revealing candidate ${target.id} a second time charged ${String(b.credits_charged)}; a candidate already revealed for the organization is not charged again (credits_charged 0)`,
          spec: S.contactState,
          expected: 0,
          received: b.credits_charged,
          pointer: '/credits_charged',
        },
        again,
      );
    },
  },
  {
    id: 'reveal.repeat-returns-same-contact',
    title: 'Revealing the same candidate again returns the identical e-mail and phone',
    suite,
    evidence: 'provoked',
    spec: [S.contactState, S.sandbox],
    needs: ['sandbox', 'org'],
    async run(t) {
      const listed = await fixtureListed(t);
      if (!listed) return;
      const target = listed.candidates[5] ?? listed.candidates[0]!;
      const first = await reveal(t, listed.runId, target.id, 'reveal');
      const a = expectRevealedInSandbox(t, first, `revealing candidate ${target.id}`);
      if (!a) return;
      const again = await reveal(t, listed.runId, target.id, 'reveal again');
      const b = expectRevealedInSandbox(t, again, `revealing candidate ${target.id} again`);
      if (!b) return;
      t.expect.equal(
        { email: b.email, phone: b.phone },
        { email: a.email, phone: a.phone },
        `the contact of candidate ${target.id} on a repeat reveal (contact returned again; the same candidate always gets the same contact)`,
        S.contactState,
        again,
      );
    },
  },
];
