import { answer, ApiError, jsonBody, requireOrg, type Reply, type RequestContext } from '../context.js';
import { newUuid } from '../ids.js';
import { upsertStatus } from './upsert-status.js';
import { emailTaken } from '../text-policy.js';

/** The User fields are strings (their requiredness is not shown): absent or a string, never null. */
function optionalString(v: unknown): v is string | undefined {
  return v === undefined || typeof v === 'string';
}

const STRICT_ROLES = ['hiring_manager', 'talent_partner'];

/** POST /users: an upsert of a recruiter by external_id within the organization. */
export function usersRoute(rc: RequestContext): Reply {
  const org = requireOrg(rc);
  const body = jsonBody(rc);
  const { external_id: externalId, email, full_name: fullName, role } = body;
  if (typeof externalId !== 'string' || externalId.trim() === '')
    throw new ApiError(422, 'invalid_user', { field: 'external_id' });
  if (!optionalString(email) || (typeof email === 'string' && !emailTaken(rc.app.config.variants, email))) {
    throw new ApiError(422, 'invalid_user', { field: 'email' });
  }
  if (!optionalString(fullName)) throw new ApiError(422, 'invalid_user', { field: 'full_name' });
  if (!optionalString(role)) throw new ApiError(422, 'invalid_user', { field: 'role' });
  // Variant users.strict-role-list: the allowed roles are "not shown"; this service has its own list.
  if (
    rc.app.config.variants.has('users.strict-role-list') &&
    typeof role === 'string' &&
    !STRICT_ROLES.includes(role)
  ) {
    throw new ApiError(422, 'invalid_user', { field: 'role' });
  }
  const users = rc.app.store.usersOf(org.id);
  const existing = users.get(externalId);
  const fields = { email: email ?? null, fullName: fullName ?? null, role: role ?? null };
  let stored = existing;
  if (stored) {
    Object.assign(stored, fields);
    // Inline, as it changes what is stored: a repeat gets a new user_id.
    if (rc.app.config.faults.has('users.repeat-new-user-id')) stored.userId = newUuid();
  } else {
    stored = { userId: newUuid(), externalId, ...fields };
    users.set(externalId, stored);
  }
  return answer(
    rc,
    { status: upsertStatus(rc, !existing), body: { user_id: stored.userId, created: !existing } },
    { created: !existing },
  );
}
