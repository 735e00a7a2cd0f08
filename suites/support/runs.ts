// Runs as checks address them: the run_id of an accepted start, the spec-time budget of waiting
// for the shared real run, the reveal path of one of its candidates.

import type { ApiResponse } from '../../src/http/types.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from './json-values.js';
import { show } from './messages.js';

/**
 * The run_id of an accepted run start; undefined, recorded as a failure, when the start did not answer
 * 202 or its 202 has no string run_id.
 */
export function acceptedRunId(t: CheckContext, res: ApiResponse, what = 'the run start'): string | undefined {
  if (!t.expect.status(res, 202, S.runsStart)) return undefined;
  const runId = obj(res.json)?.run_id;
  if (typeof runId === 'string') return runId;
  t.expect.fail(
    { message: `the 202 of ${what} has no string run_id (${show(runId)})`, spec: S.runsStart, pointer: '/run_id' },
    res,
  );
  return undefined;
}

/** Spec-time budget of a check that waits for the shared real run: 30 minutes of polling and a margin. */
export const REAL_RUN_BUDGET_MS = 32 * 60_000;

/** The reveal path of a candidate: the id as its exact decimal digits (int64, may exceed 2^53). */
export function revealPath(runId: string, candidateId: bigint | string): string {
  return `/runs/${encodeURIComponent(runId)}/candidates/${candidateId.toString()}/reveal`;
}

/** A `cert-*` job id no sandbox defines: the sandbox refuses it (422 unknown_fixture), production knows no such job. */
export const UNKNOWN_FIXTURE = 'cert-zz-svc-certify-no-such-fixture';

/** POST /runs of the shared recruiter for the unknown `cert-*` job, target 1. */
export async function startUnknownFixture(t: CheckContext, label: string): Promise<ApiResponse> {
  const user = await t.setup.user();
  return t.setup.startRun(
    { job_external_id: UNKNOWN_FIXTURE, acting_user_external_id: user.externalId, target_count: 1 },
    { label },
  );
}
