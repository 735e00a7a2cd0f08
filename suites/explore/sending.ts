// Sending generated requests: each property's share of the budget, shrinking a failing case, what was
// sent.

import fc from 'fast-check';
import type { ApiResponse, RequestSpec } from '../../src/http/types.js';
import { isJsonObject } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { ExploreInputs } from '../../src/runner/check.js';
import type { CaseClass, Mutation } from '../../src/schema/explore-cases.js';
import { type Endpoint, ENDPOINTS, type Prepared } from './endpoints.js';

export type Property = 'mismatch' | 'valid' | 'schema' | 'stored';

/** How the request cap is shared: weight per check of each property (stored: two requests a case). */
const WEIGHT: Record<Property, number> = { mismatch: 12, valid: 8, schema: 4, stored: 6 };
const STORED_ENDPOINTS = ['jobs', 'decisions'] as const;
const TOTAL_WEIGHT =
  ENDPOINTS.length * (WEIGHT.mismatch + WEIGHT.valid + WEIGHT.schema) + STORED_ENDPOINTS.length * WEIGHT.stored;

/**
 * Requests of the cap kept for what the checks send besides their cases: the fixture run each decisions
 * and reveal check starts to explore on (7), and a second attempt confirming a 5xx.
 */
const PREPARE_RESERVE = 8;

/** This check's share of the cap: the same for a given cap whatever else is selected, so a seed replays alike. */
export function shareOf(ex: ExploreInputs, property: Property): number {
  return Math.floor((Math.max(0, ex.requests - PREPARE_RESERVE) * WEIGHT[property]) / TOTAL_WEIGHT);
}

/** Shrinking stops after this many candidates (each one request or two), within the check's share. */
export const MIN_SHRINK_TRIES = 8;

/** The first class of the response-schema property: the valid body as it is. */
export const PLAIN: CaseClass = { kind: 'plain', arb: fc.constant<Mutation>({ kind: 'plain', op: 'none' }) };

export interface Sent {
  res: ApiResponse;
  body: unknown;
}

export async function send(
  t: CheckContext,
  ep: Endpoint,
  p: Prepared,
  body: unknown,
  opts: Omit<RequestSpec, 'method' | 'path' | 'body'>,
): Promise<ApiResponse> {
  // A run start goes through startRun, which counts any real run a 2xx would mean (none is meant).
  if (ep.name === 'runs-start' && isJsonObject(body)) return t.setup.startRun(body, opts);
  return t.api.post(ep.path(p), body, opts);
}
