// Users: registering a recruiter is an upsert on external_id. The success status is not shown (any
// 2xx), nor are the conditions of 422 invalid_user, so no check provokes it: it stays uncovered.

import type { ApiResponse } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/runner/check.js';
import { S } from './spec-refs.js';
import { obj, roleField } from './support.js';

const suite = 'users';

/**
 * The role the shared recruiter was accepted with (none when refused: the check then skips with a
 * reason naming --user-role), so nothing here fails on a guessed value of `role`.
 */
function register(t: CheckContext, externalId: string, role: string | undefined, label: string): Promise<ApiResponse> {
  return t.api.post('/users', { external_id: externalId, email: `${externalId}@example.com`, full_name: 'Noa Cohen', ...roleField(role) }, { label });
}

export const USERS_CHECKS: CheckDefinition[] = [
  {
    id: 'users.register-new-user',
    title: 'Registering a new recruiter answers 2xx with a uuid user_id and created: true',
    suite,
    spec: [S.users, S.user],
    needs: ['org'],
    async run(t) {
      const { role } = await t.setup.user();
      const res = await register(t, t.setup.uniqueId('svc-certify-user'), role, 'register a new recruiter');
      if (!t.expect.status(res, '2xx', S.users)) return;
      if (!t.expect.schema(res.json, 'user-response', S.users, res)) return;
      // `created` is false on a repeat; a first call with an external_id never seen creates the user.
      t.expect.equal(obj(res.json)?.created, true, '`created` of the first registration of a fresh external_id', S.user, res);
    },
  },
  {
    id: 'users.upsert-repeat-same-user',
    title: 'Repeating a registration returns the same user_id with created: false',
    suite,
    spec: [S.users, S.user],
    needs: ['org'],
    async run(t) {
      const { role } = await t.setup.user();
      const externalId = t.setup.uniqueId('svc-certify-user');
      const first = await register(t, externalId, role, 'register');
      if (!t.expect.status(first, '2xx', S.users)) return;
      const second = await register(t, externalId, role, 'register again, same body');
      if (!t.expect.status(second, '2xx', S.users)) return;
      if (!t.expect.schema(second.json, 'user-response', S.users, second)) return;
      const firstId = obj(first.json)?.user_id;
      const b = obj(second.json);
      t.expect.equal(b?.user_id, firstId, '`user_id` of the repeat (against the first call\'s)', S.users, second);
      t.expect.equal(b?.created, false, '`created` of the repeat', S.users, second);
    },
  },
];
