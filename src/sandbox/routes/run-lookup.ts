import { ApiError, refuse, requireOrg, type RequestContext } from '../context.js';
import type { Organization, Run } from '../store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The run named in the path, of the caller's organization; an unknown run and another organization's run
 * are both `404 run_not_found`, never `403`. Undefined only when a fault lets the request through.
 */
export function findRun(rc: RequestContext, runId: string): { run: Run; org: Organization } | undefined {
  const org = requireOrg(rc);
  const run = UUID.test(runId) ? rc.app.store.runs.get(runId.toLowerCase()) : undefined;
  if (run && run.organizationId === org.id) return { run, org };
  refuse(rc, { cause: 'run-not-found', foreign: run !== undefined }, new ApiError(404, 'run_not_found'));
  return undefined;
}

/** The run named in the path, of the caller's organization (see findRun). */
export function lookupRun(rc: RequestContext, runId: string): { run: Run; org: Organization } {
  const found = findRun(rc, runId);
  if (!found) throw new ApiError(404, 'run_not_found');
  return found;
}

/** The acting recruiter, registered in the caller's organization. */
export function actingUser(rc: RequestContext, org: Organization, value: unknown): string {
  if (typeof value !== 'string') {
    refuse(
      rc,
      { cause: 'acting-user-not-string' },
      new ApiError(422, 'invalid_request', { field: 'acting_user_external_id' }),
    );
    return String(value);
  }
  if (!rc.app.store.usersOf(org.id).has(value)) {
    const elsewhere = () => [...rc.app.store.users.values()].some((m) => m.has(value));
    refuse(rc, { cause: 'unknown-user', elsewhere }, new ApiError(404, 'user_not_found'));
  }
  return value;
}
