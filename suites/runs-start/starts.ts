// What the runs-start checks share: the suite name, the probe fixture, and starting a run on a probe
// job or the shared job.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';

export const suite = 'runs-start';
/** Fixture validated "exactly as for a real run"; its 202s and 422s cost nothing. */
export const PROBE_FIXTURE = 'cert-notices-all';

/**
 * Job for probes that are refused (422) or that need a 202 for free: the fixture in the sandbox,
 * the shared job in production (a refusal there starts nothing either).
 */
export async function probeJob(t: CheckContext): Promise<string> {
  if (t.target.environment === 'sandbox') return PROBE_FIXTURE;
  return (await t.setup.job()).externalId;
}

export async function start(
  t: CheckContext,
  jobExternalId: string,
  requirements: unknown,
  opts: { targetCount?: number; user?: string; label?: string } = {},
): Promise<ApiResponse> {
  const user = opts.user ?? (await t.setup.user()).externalId;
  const body: Record<string, unknown> = {
    job_external_id: jobExternalId,
    acting_user_external_id: user,
    target_count: opts.targetCount ?? 3,
  };
  if (requirements !== undefined) body.requirements = requirements;
  // Through the shared setup: a start that turns out real counts in the certification's real runs.
  return t.setup.startRun(body, opts.label ? { label: opts.label } : {});
}
