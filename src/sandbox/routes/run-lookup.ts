import { ApiError, requireOrg, type RequestContext } from '../context.js';
import type { Organization, Run } from '../store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The run named in the path, of the caller's organization; another organization's run is `404`, never `403`. */
export function lookupRun(rc: RequestContext, runId: string): { run: Run; org: Organization } {
  const org = requireOrg(rc);
  const run = UUID.test(runId) ? rc.app.store.runs.get(runId.toLowerCase()) : undefined;
  if (!run)
    throw new ApiError(
      404,
      rc.app.config.faults.has('runs-read.unknown-run-not-found-code') ? 'not_found' : 'run_not_found',
    );
  if (run.organizationId !== org.id) {
    if (rc.app.config.faults.has('runs-read.other-org-403')) throw new ApiError(403, 'forbidden');
    throw new ApiError(404, 'run_not_found');
  }
  return { run, org };
}

/** The acting recruiter, registered in the caller's organization; `anyOrg` is what an isolation fault breaks. */
export function actingUser(rc: RequestContext, org: Organization, value: unknown, anyOrg = false): string {
  if (typeof value !== 'string') throw new ApiError(422, 'invalid_request', { field: 'acting_user_external_id' });
  const known =
    rc.app.store.usersOf(org.id).has(value) || (anyOrg && [...rc.app.store.users.values()].some((m) => m.has(value)));
  if (!known) throw new ApiError(404, 'user_not_found');
  return value;
}
