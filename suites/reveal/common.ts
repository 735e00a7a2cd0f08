// What the reveal checks share: the fixture run they reveal on, listing and revealing a candidate, and
// judging a revealed contact.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import { expectNotPendingOrRefused } from '../support/error-answers.js';
import { expectRevealResult } from '../support/reveal-result.js';
import { int, obj, objects } from '../support/json-values.js';
import { revealPath } from '../support/runs.js';
import { S } from '../../src/spec/sections.js';

export const suite = 'reveal';

export const FIXTURE = 'cert-notices-all';
/** cert-notices-all lists up to 6; target 6 lists them all (memoized: shared by the reveal checks). */
export const FIXTURE_TARGET = 6;
export const FIRST_FIXTURE_ID = 990000000001n;

export interface Listed {
  runId: string;
  read: ApiResponse;
  candidates: Array<{ id: bigint; c: JsonObject }>;
}

export function runPath(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

export async function reveal(
  t: CheckContext,
  runId: string,
  candidateId: bigint | string,
  label: string,
  user?: string,
): Promise<ApiResponse> {
  const acting = user ?? (await t.setup.user()).externalId;
  return t.api.post(revealPath(runId, candidateId), { acting_user_external_id: acting }, { label });
}

export async function readListed(t: CheckContext, runId: string): Promise<Listed | undefined> {
  const read = await t.api.get(runPath(runId), { label: 'read the run' });
  if (!t.expect.status(read, 200, S.runsRead)) return undefined;
  const candidates = objects(obj(read.json)?.candidates).flatMap((c) => {
    const id = int(c.id);
    // Kept without its requirements, which no reveal check reads: a hostile candidate's million
    // requirements stayed alive in every reveal check waiting on its reveal.
    const { requirements: _unread, ...kept } = c;
    return id === undefined ? [] : [{ id, c: kept }];
  });
  return { runId, read, candidates };
}

/** The shared cert-notices-all run and its listed candidates; skips when it lists none. */
export async function fixtureListed(t: CheckContext, min = 1): Promise<Listed | undefined> {
  const { runId } = await t.setup.fixtureRun(FIXTURE, { targetCount: FIXTURE_TARGET });
  const listed = await readListed(t, runId);
  if (listed && listed.candidates.length < min) {
    t.skip(
      `${FIXTURE} (target_count ${FIXTURE_TARGET}) lists ${listed.candidates.length} candidate(s); this check needs ${min} to reveal`,
      'inconclusive',
    );
    return undefined;
  }
  return listed;
}

/**
 * A 200 with a Reveal result; records what is wrong otherwise, a 202 pending or 402 included: the sandbox
 * charges nothing and answers at once (production reveals, which may be held: reveal-production/common.ts).
 */
export function expectRevealedInSandbox(t: CheckContext, res: ApiResponse, what: string): JsonObject | undefined {
  if (!expectNotPendingOrRefused(t, res, what)) return undefined;
  return expectRevealResult(t, res, what);
}
