// Users: registering a recruiter is an upsert on external_id. The success status is not shown (any
// 2xx), nor are the conditions of 422 invalid_user, so no check provokes it: it stays uncovered.

import type { ApiResponse } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { int, obj, objects } from './support/json-values.js';
import { show } from './support/messages.js';
import { roleField, secondOrgWithRecruiter } from './support/recruiters.js';
import { acceptedRunId, revealPath } from './support/runs.js';

const suite = 'users';

/** A fixture every sandbox organization may start, listing candidates at once (no real run spent). */
const FIXTURE = 'cert-notices-all';

/**
 * The role the shared recruiter was accepted with (none when refused: the check then skips with a
 * reason naming --user-role), so nothing here fails on a guessed value of `role`.
 */
function register(t: CheckContext, externalId: string, role: string | undefined, label: string): Promise<ApiResponse> {
  return t.api.post(
    '/users',
    { external_id: externalId, email: `${externalId}@example.com`, full_name: 'Noa Cohen', ...roleField(role) },
    { label },
  );
}

/**
 * The second organization (with its own recruiter) and a recruiter only the first organization
 * registered: what the isolation checks of users need. Undefined when a step failed (already judged).
 */
async function recruiterOfFirstOrgOnly(t: CheckContext) {
  const { role } = await t.setup.user();
  const second = await secondOrgWithRecruiter(t);
  if (!second) return undefined;
  const asSecond = (label: string) => ({ auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken }, label });
  const externalId = t.setup.uniqueId('svc-certify-user');
  const mine = await register(t, externalId, role, 'register a recruiter in the first organization only');
  if (!t.expect.status(mine, '2xx', S.users)) return undefined;
  return { role, second, asSecond, externalId, mine };
}

/**
 * A check that registers recruiters in the primary organization (provoked): `judge` gets the role
 * the setup's recruiter has, so each registration carries one the target accepts.
 */
function registrationCheck(
  def: Pick<CheckDefinition, 'id' | 'title'>,
  judge: (t: CheckContext, role: string | undefined) => Promise<void>,
): CheckDefinition {
  return {
    ...def,
    suite,
    evidence: 'provoked',
    spec: [S.users, S.user],
    needs: ['org'],
    async run(t) {
      const { role } = await t.setup.user();
      await judge(t, role);
    },
  };
}

export const USERS_CHECKS: CheckDefinition[] = [
  registrationCheck(
    {
      id: 'users.register-new-user',
      title: 'Registering a new recruiter answers 2xx with a uuid user_id and created: true',
    },
    async (t, role) => {
      const res = await register(t, t.setup.uniqueId('svc-certify-user'), role, 'register a new recruiter');
      if (!t.expect.status(res, '2xx', S.users)) return;
      if (!t.expect.schema(res.json, 'user-response', S.users, res)) return;
      // `created` is false on a repeat; a first call with an external_id never seen creates the user.
      t.expect.equal(
        obj(res.json)?.created,
        true,
        '`created` of the first registration of a fresh external_id',
        S.user,
        res,
      );
    },
  ),
  registrationCheck(
    {
      id: 'users.upsert-repeat-same-user',
      title: 'Repeating a registration returns the same user_id with created: false',
    },
    async (t, role) => {
      const externalId = t.setup.uniqueId('svc-certify-user');
      const first = await register(t, externalId, role, 'register');
      if (!t.expect.status(first, '2xx', S.users)) return;
      const second = await register(t, externalId, role, 'register again, same body');
      if (!t.expect.status(second, '2xx', S.users)) return;
      if (!t.expect.schema(second.json, 'user-response', S.users, second)) return;
      const firstId = obj(first.json)?.user_id;
      const b = obj(second.json);
      t.expect.equal(b?.user_id, firstId, "`user_id` of the repeat (against the first call's)", S.users, second);
      t.expect.equal(b?.created, false, '`created` of the repeat', S.users, second);
    },
  ),
  {
    id: 'users.external-id-per-organization',
    title:
      "A user's external_id is unique per organization: a recruiter registered only in another organization is user_not_found, and one registered in both is two users",
    suite,
    evidence: 'input',
    spec: [S.identifiers, S.users, S.runsStart, S.byEndpoint],
    needs: ['org', 'second-org'],
    async run(t) {
      const setup = await recruiterOfFirstOrgOnly(t);
      if (!setup) return;
      const { role, asSecond, externalId, mine } = setup;
      // The second organization's own job, so that only the acting user can be unknown to it.
      const job = t.setup.uniqueId('svc-certify-job');
      const created = await t.api.post(
        '/jobs',
        {
          external_id: job,
          title: 'Data Analyst',
          description_text:
            'We are hiring a data analyst to turn product and sales data into decisions. You will write SQL, build dashboards and present findings to managers.',
          location_text: 'Haifa, Israel',
        },
        asSecond('create a job in the second organization'),
      );
      if (!t.expect.status(created, '2xx', S.jobs)) return;
      const foreign = await t.setup.startRun(
        { job_external_id: job, acting_user_external_id: externalId, target_count: 1 },
        asSecond("start a run in the second organization acting as the first organization's recruiter"),
      );
      if (!t.expect.error(foreign, 404, 'user_not_found', S.byEndpoint)) return;
      // The same external_id registered in the second organization too is another user.
      const theirs = await t.api.post(
        '/users',
        { external_id: externalId, email: `${externalId}@example.com`, full_name: 'Noa Cohen', ...roleField(role) },
        asSecond('register the same external_id in the second organization'),
      );
      if (!t.expect.status(theirs, '2xx', S.users)) return;
      const firstId = obj(mine.json)?.user_id;
      const secondId = obj(theirs.json)?.user_id;
      t.expect.that(
        typeof secondId === 'string' && secondId !== firstId,
        {
          message: `the second organization's registration of the first organization's recruiter external_id answered user_id ${show(secondId)} (the first organization's: ${show(firstId)}); external_id is unique per organization, so it is another user`,
          spec: S.identifiers,
          expected: `a user_id other than ${show(firstId)}`,
          received: secondId,
          pointer: '/user_id',
        },
        theirs,
      );
    },
  },
  {
    id: 'users.other-organization-recruiter-on-reveal-and-decisions',
    title:
      "A recruiter registered only in another organization is user_not_found on reveal and on decisions too (404), in a run of the caller's own organization",
    suite,
    evidence: 'input',
    spec: [S.identifiers, S.reveal, S.decisions, S.byEndpoint],
    needs: ['sandbox', 'org', 'second-org'],
    async run(t) {
      const setup = await recruiterOfFirstOrgOnly(t);
      if (!setup) return;
      const { second, asSecond, externalId } = setup;
      // The second organization's own fixture run, so that only the acting user can be unknown to it.
      const started = await t.setup.startRun(
        { job_external_id: FIXTURE, acting_user_external_id: second.user, target_count: 6 },
        asSecond(`start a ${FIXTURE} run in the second organization`),
      );
      const runId = acceptedRunId(t, started);
      if (runId === undefined) return;
      const read = await t.api.get(
        `/runs/${encodeURIComponent(runId)}`,
        asSecond("read the second organization's run"),
      );
      if (!t.expect.status(read, 200, S.runsRead)) return;
      // A listed candidate: what a candidate not in the run answers first is not shown.
      const candidate = objects(obj(read.json)?.candidates)
        .map((c) => int(c.id))
        .find((id) => id !== undefined);
      if (candidate === undefined) {
        t.skip(`the second organization's ${FIXTURE} run lists no candidate`, 'inconclusive');
        return;
      }
      const asForeign = { acting_user_external_id: externalId };
      const revealed = await t.api.post(
        revealPath(runId, candidate),
        asForeign,
        asSecond(`reveal candidate ${candidate} acting as the first organization's recruiter`),
      );
      t.expect.error(revealed, 404, 'user_not_found', S.byEndpoint);
      const decided = await t.api.post(
        `/runs/${encodeURIComponent(runId)}/decisions`,
        {
          ...asForeign,
          decisions: [{ candidate_id: candidate, decision: 'shortlisted', occurred_at: t.setup.occurredAt() }],
        },
        asSecond(`report a decision on candidate ${candidate} acting as the first organization's recruiter`),
      );
      t.expect.error(decided, 404, 'user_not_found', S.byEndpoint);
    },
  },
];
