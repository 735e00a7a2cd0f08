import type { RequestContext } from '../context.js';

/** The success status of POST /users and POST /jobs ("not shown"): the configured one, or 201/200 (variant). */
export function upsertStatus(rc: RequestContext, created: boolean): number {
  if (rc.app.config.variants.has('status.upserts-201-on-create')) return created ? 201 : 200;
  return rc.app.config.createdStatus;
}
