// contact_state after a reveal: revealed on the next read, per organization.

import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { int, obj, objects } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { secondOrgWithRecruiter } from '../support/recruiters.js';
import { acceptedRunId } from '../support/runs.js';
import { S } from '../../src/spec/sections.js';
import {
  expectRevealedInSandbox,
  FIRST_FIXTURE_ID,
  FIXTURE,
  FIXTURE_TARGET,
  fixtureListed,
  type Listed,
  readListed,
  reveal,
  runPath,
  suite,
} from './common.js';

function candidateIn(listed: Listed | undefined, id: bigint): JsonObject | undefined {
  return listed?.candidates.find((x) => x.id === id)?.c;
}

/**
 * Another run of the same organization: "already revealed for the organization", so free and revealed.
 * False when the check cannot go on (a step failed or was judged failed).
 */
async function sameOrganizationOtherRun(t: CheckContext, user: string): Promise<boolean> {
  // Another run of the same organization: "already revealed for the organization", so free and revealed.
  const again = await t.setup.startRun(
    { job_external_id: FIXTURE, acting_user_external_id: user, target_count: FIXTURE_TARGET },
    { label: `start another ${FIXTURE} run in the first organization` },
  );
  const againId = acceptedRunId(t, again);
  if (againId === undefined) return false;
  // Read the other run before revealing anything in it: a service that keeps the contact state per
  // run would show locked here, and a reveal made first would hide that.
  const ours = await readListed(t, againId);
  if (!ours) return false;
  const mine = candidateIn(ours, FIRST_FIXTURE_ID);
  if (
    !t.expect.that(
      mine?.contact_state === 'revealed',
      {
        message: `candidate ${FIRST_FIXTURE_ID}, revealed by this organization in another run, has contact_state ${show(mine?.contact_state ?? '(not listed)')} on the first read of a second run of the same organization, before any reveal in it; the contact state is "already revealed for the organization" (revealed), not per run`,
        spec: S.contactState,
        expected: 'revealed',
        received: mine?.contact_state ?? '(not listed)',
      },
      ours.read,
    )
  )
    return false;
  const repeat = await reveal(
    t,
    againId,
    FIRST_FIXTURE_ID,
    `reveal candidate ${FIRST_FIXTURE_ID} again, in the other run of the first organization`,
  );
  const rb = expectRevealedInSandbox(
    t,
    repeat,
    `revealing candidate ${FIRST_FIXTURE_ID} in another run of the same organization`,
  );
  if (!rb) return false;
  t.expect.equal(
    int(rb.credits_charged),
    0n,
    `\`credits_charged\` of revealing candidate ${FIRST_FIXTURE_ID} again in another run of the organization that already revealed it`,
    S.contactState,
    repeat,
  );
  return true;
}

type SecondOrg = NonNullable<Awaited<ReturnType<typeof secondOrgWithRecruiter>>>;

/** The second organization's own run of the same fixture: it never revealed the candidate. */
async function otherOrganizationRun(t: CheckContext, second: SecondOrg): Promise<void> {
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
}

export const CONTACT_STATE_CHECKS: CheckDefinition[] = [
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
      if (!expectRevealedInSandbox(t, res, `revealing candidate ${target.id}`)) return;
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
      "A reveal is per organization: the candidate reads locked in another organization's run, and revealed in another run of the same organization on its first read (a repeat reveal there free)",
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
      if (!expectRevealedInSandbox(t, first, `revealing candidate ${FIRST_FIXTURE_ID}`)) return;
      if (!(await sameOrganizationOtherRun(t, user))) return;
      await otherOrganizationRun(t, second);
    },
  },
];
