// The fresh organization of limits.sandbox-run-quota: its quota is known to be untouched, and the
// primary organization keeps its own.

import type { RequestAuth } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import { roleField } from '../support/recruiters.js';

/** A fresh organization with a recruiter and a job, ready to start real runs; undefined once judged or skipped. */
export async function quotaOrganization(
  t: CheckContext,
): Promise<{ auth: RequestAuth; userId: string; jobId: string } | undefined> {
  const code = t.setup.plannedCode('fresh');
  if (code === undefined) {
    t.skip(t.setup.codeShortage('fresh'));
    return undefined;
  }
  const redeem = await t.api.post(
    '/activations/redeem',
    { code, external_id: t.setup.uniqueId('svc-certify-quota-org') },
    { auth: 'partner', label: 'redeem a code for a fresh organization' },
  );
  const token = obj(redeem.json)?.org_token;
  if (
    !t.expect.status(redeem, 200, S.redeem) ||
    !t.expect.that(typeof token === 'string', { message: 'the redeem answer has no org_token', spec: S.redeem }, redeem)
  )
    return undefined;
  const auth: RequestAuth = { partnerKey: t.inputs.partnerKey, orgToken: token as string };
  const userId = t.setup.uniqueId('svc-certify-quota-recruiter');
  const jobId = t.setup.uniqueId('svc-certify-quota-job');
  const { role } = await t.setup.user();
  const user = await t.api.post(
    '/users',
    { external_id: userId, email: 'quota-recruiter@example.com', full_name: 'Noa Cohen', ...roleField(role) },
    { auth, label: 'register a recruiter' },
  );
  if (!t.expect.status(user, '2xx', S.users)) return undefined;
  const job = await t.api.post(
    '/jobs',
    {
      external_id: jobId,
      title: 'Backend Developer',
      description_text: 'Build Node.js and PostgreSQL services for a hiring platform.',
      location_text: 'Tel Aviv, Israel',
    },
    { auth, label: 'create a job' },
  );
  if (!t.expect.status(job, '2xx', S.jobs)) return undefined;
  return { auth, userId, jobId };
}
