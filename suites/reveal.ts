// Reveal: the contact of a listed candidate, charged once per organization (production) or never
// (sandbox, synthetic contact). Sandbox checks use fixture runs, which are free of quota; the checks
// that spend production credits are in reveal-production.ts (--max-spend-credits).

import type { ApiResponse } from '../src/http/types.js';
import type { JsonObject } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import {
  acceptedRunId,
  expectNotPendingOrRefused,
  int,
  obj,
  objects,
  randomUUID,
  revealPath,
  secondOrgWithRecruiter,
  show,
  TWO_POW_53,
} from './support.js';
import { S } from '../src/spec/sections.js';

const suite = 'reveal';

const FIXTURE = 'cert-notices-all';
/** cert-notices-all lists up to 6; target 6 lists them all (memoized: shared by the checks below). */
const FIXTURE_TARGET = 6;
const FIRST_FIXTURE_ID = 990000000001n;

interface Listed {
  runId: string;
  read: ApiResponse;
  candidates: Array<{ id: bigint; c: JsonObject }>;
}

function runPath(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

async function reveal(
  t: CheckContext,
  runId: string,
  candidateId: bigint | string,
  label: string,
  user?: string,
): Promise<ApiResponse> {
  const acting = user ?? (await t.setup.user()).externalId;
  return t.api.post(revealPath(runId, candidateId), { acting_user_external_id: acting }, { label });
}

async function readListed(t: CheckContext, runId: string): Promise<Listed | undefined> {
  const read = await t.api.get(runPath(runId), { label: 'read the run' });
  if (!t.expect.status(read, 200, S.runsRead)) return undefined;
  const candidates = objects(obj(read.json)?.candidates).flatMap((c) => {
    const id = int(c.id);
    // Kept without its requirements, which no reveal check reads: a hostile candidate's million
    // requirements stayed alive in every reveal check waiting on its reveal.
    const { requirements: _unread, ...kept } = c;
    return id === undefined ? [] : [{ id, c: kept }];
  });
  return { runId, read, candidates };
}

/** The shared cert-notices-all run and its listed candidates; skips when it lists none. */
async function fixtureListed(t: CheckContext, min = 1): Promise<Listed | undefined> {
  const { runId } = await t.setup.fixtureRun(FIXTURE, { targetCount: FIXTURE_TARGET });
  const listed = await readListed(t, runId);
  if (listed && listed.candidates.length < min) {
    t.skip(
      `${FIXTURE} (target_count ${FIXTURE_TARGET}) lists ${listed.candidates.length} candidate(s); this check needs ${min} to reveal`,
      'inconclusive',
    );
    return undefined;
  }
  return listed;
}

/** Sandbox: the shared fixture run; production: the shared real run, read afresh. */
async function anyListed(t: CheckContext): Promise<Listed | undefined> {
  if (t.target.environment === 'sandbox') return fixtureListed(t);
  const { run } = await t.setup.realRun();
  const listed = await readListed(t, run.runId);
  if (listed && listed.candidates.length === 0) {
    t.skip('the shared real run lists no candidate', 'inconclusive');
    return undefined;
  }
  return listed;
}

function body(res: ApiResponse): JsonObject | undefined {
  return obj(res.json);
}

/**
 * A 200 with a Reveal result; records what is wrong otherwise. Sandbox checks only: the sandbox charges
 * nothing and answers no pending 202 (production reveals: reveal-production.ts).
 */
function expectRevealed(t: CheckContext, res: ApiResponse, what: string): JsonObject | undefined {
  if (!expectNotPendingOrRefused(t, res, what)) return undefined;
  if (!t.expect.status(res, 200, S.reveal)) return undefined;
  if (!t.expect.schema(res.json, 'reveal-result', S.revealResult, res)) return undefined;
  const b = body(res);
  if (!b) {
    t.expect.fail({ message: `${what}: the 200 body is not a JSON object`, spec: S.revealResult }, res);
  }
  return b;
}

const RESERVED_TLD = /(^|\.)(invalid|test|example|localhost)$/;
const EXAMPLE_DOMAIN = /(^|\.)example\.(com|net|org)$/;

/** Domains reserved for documentation and testing (RFC 2606 / RFC 6761): never deliverable. */
export function isReservedDomain(domain: string): boolean {
  const host = domain.toLowerCase().replace(/\.$/, '');
  return RESERVED_TLD.test(host) || EXAMPLE_DOMAIN.test(host);
}

function candidateIn(listed: Listed | undefined, id: bigint): JsonObject | undefined {
  return listed?.candidates.find((x) => x.id === id)?.c;
}

export const REVEAL_CHECKS: CheckDefinition[] = [
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
      expectRevealed(t, res, `revealing listed candidate ${first.id}`);
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
      const b = expectRevealed(t, res, `revealing candidate ${target.id}`);
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
      const a = expectRevealed(
        t,
        await reveal(t, listed.runId, target.id, `reveal ${target.id} in the ${FIXTURE} run`),
        `revealing candidate ${target.id}`,
      );
      const res = await reveal(t, other.runId, target.id, `reveal ${target.id} in a cert-extra-fields run`);
      const b = expectRevealed(t, res, `revealing candidate ${target.id} in another run`);
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
        const b = expectRevealed(t, res, `revealing candidate ${p.id}`);
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
      if (!expectRevealed(t, first, `revealing candidate ${target.id}`)) return;
      const again = await reveal(t, listed.runId, target.id, 'reveal again');
      const b = expectRevealed(t, again, `revealing candidate ${target.id} again`);
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
      const a = expectRevealed(t, first, `revealing candidate ${target.id}`);
      if (!a) return;
      const again = await reveal(t, listed.runId, target.id, 'reveal again');
      const b = expectRevealed(t, again, `revealing candidate ${target.id} again`);
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
  {
    id: 'reveal.contact-state-revealed-after-reveal',
    title: 'After a reveal, the next run read shows the candidate with contact_state revealed',
    suite,
    evidence: 'provoked',
    spec: [S.contactState, S.candidate, S.sandbox],
    needs: ['sandbox', 'org'],
    async run(t) {
      const listed = await fixtureListed(t);
      if (!listed) return;
      const target = listed.candidates[0]!;
      const res = await reveal(t, listed.runId, target.id, 'reveal');
      if (!expectRevealed(t, res, `revealing candidate ${target.id}`)) return;
      const after = await readListed(t, listed.runId);
      if (!after) return;
      const c = candidateIn(after, target.id);
      t.expect.that(
        c !== undefined && c.contact_state === 'revealed',
        {
          message:
            c === undefined
              ? `candidate ${target.id} is no longer listed on the read after its reveal`
              : `candidate ${target.id} has contact_state ${show(c.contact_state)} on the read after its reveal; the reveal moves it to revealed`,
          spec: S.contactState,
          expected: 'revealed',
          received: c?.contact_state ?? '(not listed)',
        },
        after.read,
      );
    },
  },
  {
    id: 'reveal.contact-state-per-organization',
    title:
      "A reveal is per organization: the candidate reads locked in another organization's run, and revealed (a repeat reveal free) in another run of the same organization",
    suite,
    evidence: 'input',
    spec: [S.contactState, S.reveal, S.candidate, S.sandbox],
    needs: ['sandbox', 'org', 'second-org'],
    async run(t) {
      const listed = await fixtureListed(t);
      if (!listed) return;
      if (!listed.candidates.some((c) => c.id === FIRST_FIXTURE_ID)) {
        t.skip(`${FIXTURE} does not list candidate ${FIRST_FIXTURE_ID}`, 'inconclusive');
        return;
      }
      const second = await secondOrgWithRecruiter(t);
      if (!second) return;
      const user = (await t.setup.user()).externalId;
      // The first organization reveals the fixture candidate every cert-notices-all run lists.
      const first = await reveal(
        t,
        listed.runId,
        FIRST_FIXTURE_ID,
        `reveal candidate ${FIRST_FIXTURE_ID} in the first organization`,
      );
      if (!expectRevealed(t, first, `revealing candidate ${FIRST_FIXTURE_ID}`)) return;
      // Another run of the same organization: "already revealed for the organization", so free and revealed.
      const again = await t.setup.startRun(
        { job_external_id: FIXTURE, acting_user_external_id: user, target_count: FIXTURE_TARGET },
        { label: `start another ${FIXTURE} run in the first organization` },
      );
      const againId = acceptedRunId(t, again);
      if (againId === undefined) return;
      const repeat = await reveal(
        t,
        againId,
        FIRST_FIXTURE_ID,
        `reveal candidate ${FIRST_FIXTURE_ID} again, in the other run of the first organization`,
      );
      const rb = expectRevealed(
        t,
        repeat,
        `revealing candidate ${FIRST_FIXTURE_ID} in another run of the same organization`,
      );
      if (!rb) return;
      t.expect.equal(
        int(rb.credits_charged),
        0n,
        `\`credits_charged\` of revealing candidate ${FIRST_FIXTURE_ID} again in another run of the organization that already revealed it`,
        S.contactState,
        repeat,
      );
      const ours = await readListed(t, againId);
      if (!ours) return;
      const mine = candidateIn(ours, FIRST_FIXTURE_ID);
      t.expect.that(
        mine?.contact_state === 'revealed',
        {
          message: `candidate ${FIRST_FIXTURE_ID}, revealed by this organization, has contact_state ${show(mine?.contact_state ?? '(not listed)')} on the read of another run of the same organization; the contact state is per organization (revealed)`,
          spec: S.contactState,
          expected: 'revealed',
          received: mine?.contact_state ?? '(not listed)',
        },
        ours.read,
      );
      // The second organization's own run of the same fixture: it never revealed the candidate.
      const asSecond = (label: string) => ({
        auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
        label,
      });
      const theirs = await t.setup.startRun(
        { job_external_id: FIXTURE, acting_user_external_id: second.user, target_count: FIXTURE_TARGET },
        asSecond(`start a ${FIXTURE} run in the second organization`),
      );
      const theirsId = acceptedRunId(t, theirs, "the second organization's run start");
      if (theirsId === undefined) return;
      const read = await t.api.get(runPath(theirsId), asSecond("read the second organization's run"));
      if (!t.expect.status(read, 200, S.runsRead)) return;
      const c = objects(obj(read.json)?.candidates).find((x) => int(x.id) === FIRST_FIXTURE_ID);
      if (!c) {
        t.skip(`the second organization's ${FIXTURE} run does not list candidate ${FIRST_FIXTURE_ID}`, 'inconclusive');
        return;
      }
      t.expect.that(
        c.contact_state === 'locked',
        {
          message: `candidate ${FIRST_FIXTURE_ID}, revealed only by another organization, has contact_state ${show(c.contact_state)} on the second organization's run; a reveal is "for the organization": for this one the contact is still locked`,
          spec: S.contactState,
          expected: 'locked',
          received: c.contact_state,
          pointer: '/candidates',
        },
        read,
      );
    },
  },
  {
    id: 'reveal.candidate-not-in-run-404',
    title:
      'A candidate not currently listed on the run (beyond target_count, or made up) answers 404 candidate_not_in_run',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.byEndpoint, S.sandbox],
    needs: ['org'],
    async run(t) {
      let runId: string;
      const ids: bigint[] = [];
      if (t.target.environment === 'sandbox') {
        // A fixture never lists more than target_count: with 1, the next fixture id is not listed.
        ({ runId } = await t.setup.fixtureRun(FIXTURE, { targetCount: 1 }));
        const listed = await readListed(t, runId);
        if (!listed) return;
        const max = listed.candidates.reduce((m, x) => (x.id > m ? x.id : m), FIRST_FIXTURE_ID - 1n);
        ids.push(max + 1n);
      } else {
        const listed = await anyListed(t);
        if (!listed) return;
        runId = listed.runId;
      }
      // Made up, above 2^53: also proves the path id is not squeezed into a double onto a listed one.
      ids.push(TWO_POW_53 + 1n);
      for (const id of ids) {
        const res = await reveal(t, runId, id, `reveal unlisted candidate ${id}`);
        t.expect.error(res, 404, 'candidate_not_in_run', S.byEndpoint);
      }
    },
  },
  {
    id: 'reveal.unknown-run-404',
    title: 'Revealing on a run id that does not exist answers 404 run_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const res = await reveal(t, randomUUID(), FIRST_FIXTURE_ID, 'reveal on an unknown run');
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'reveal.unknown-user-404',
    title: 'Revealing with an acting_user_external_id nobody registered answers 404 user_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.reveal, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const listed = await anyListed(t);
      if (!listed) return;
      const res = await reveal(
        t,
        listed.runId,
        listed.candidates[0]!.id,
        'reveal as an unregistered user',
        t.setup.uniqueId('svc-certify-unregistered'),
      );
      t.expect.error(res, 404, 'user_not_found', S.byEndpoint);
    },
  },
  {
    id: 'reveal.other-organization-run-404',
    title: "Revealing on another organization's run answers 404 run_not_found, never 403",
    suite,
    evidence: 'input',
    spec: [S.reveal, S.byEndpoint],
    needs: ['org', 'second-org'],
    async run(t) {
      const listed = await anyListed(t);
      if (!listed) return;
      const second = await secondOrgWithRecruiter(t);
      if (!second) return;
      const { user } = second;
      const res = await t.api.post(
        revealPath(listed.runId, listed.candidates[0]!.id),
        { acting_user_external_id: user },
        {
          auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
          label: "reveal on the first organization's run",
        },
      );
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'reveal.candidate-id-above-2-53',
    title: 'A listed candidate whose id exceeds 2^53 is revealed by its exact digits (the sandbox e-mail echoes them)',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      "no candidate the shared real run listed has an id above 2^53 (the ids are the target's choice): none needs its exact digits",
    spec: [S.identifiers, S.reveal, S.sandbox],
    needs: ['sandbox', 'org'],
    timeoutMs: 10 * 60_000,
    async run(t) {
      const { final, run } = await t.setup.realRun();
      const huge = objects(obj(final.json)?.candidates)
        .map((c) => int(c.id))
        .find((id): id is bigint => id !== undefined && id > TWO_POW_53);
      if (huge === undefined)
        // Which ids a service issues is its own choice ("may exceed 2^31", Identifier conventions):
        // with none above 2^53 on the run there is no such id to carry, and nothing to judge.
        return t.skip(
          "the shared real run lists no candidate with an id above 2^53 (ids are the service's own: none that large to carry)",
          'not-applicable',
        );
      const res = await reveal(t, run.runId, huge, `reveal candidate ${huge}`);
      const b = expectRevealed(t, res, `revealing candidate ${huge}`);
      if (!b) return;
      t.expect.that(
        typeof b.email === 'string' && b.email.startsWith(`candidate-${huge}@`),
        {
          message: `the sandbox reveal of candidate ${huge} gave e-mail ${show(b.email)}; it has the shape candidate-<candidate_id>@…, with the id's exact 64-bit digits (see ${S.sandbox}, ${S.identifiers})`,
          spec: S.identifiers,
          expected: `candidate-${huge}@…`,
          received: b.email,
          pointer: '/email',
        },
        res,
      );
    },
  },
];
