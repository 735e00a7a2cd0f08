// Recruiters beyond the shared one: the role the shared setup's recruiter was accepted with, and the
// second organization with that recruiter registered in it too.

import type { CheckContext } from '../../src/api-setup/check.js';

/**
 * The second organization with the shared recruiter's external_id registered in it too, so that an
 * isolation check's request can only be refused for the run; undefined after `t.skip` with the reason.
 */
export async function secondOrgWithRecruiter(t: CheckContext): Promise<{ orgToken: string; user: string } | undefined> {
  const second = await t.setup.secondOrg();
  if (!second) {
    t.skip(t.setup.codeShortage('typed'));
    return undefined;
  }
  const { externalId: user, role } = await t.setup.user();
  const reg = await t.api.post(
    '/users',
    { external_id: user, email: 'recruiter@example.com', full_name: 'Dana Levi', ...roleField(role) },
    {
      auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
      label: 'register the recruiter in the second organization',
    },
  );
  if (reg.status < 200 || reg.status > 299) {
    t.skip(`registering the recruiter in the second organization answered ${reg.status}`, 'inconclusive');
    return undefined;
  }
  return { orgToken: second.orgToken, user };
}

/**
 * `{role}` as the shared setup's recruiter was accepted with (--user-role, or the certifier's guess),
 * or nothing when it was registered without one: the allowed roles are not shown in the spec, so no
 * check registers a recruiter with a role the target has not already accepted.
 */
export function roleField(role: string | undefined): { role?: string } {
  return role !== undefined ? { role } : {};
}
