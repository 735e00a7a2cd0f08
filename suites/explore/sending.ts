// Sending generated requests: each property's share of the budget, shrinking a failing case, what was
// sent.

import fc from 'fast-check';
import type { ApiResponse } from '../../src/http/types.js';
import { isJsonObject } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { ExploreInputs } from '../../src/api-setup/check.js';
import type { CaseClass, Mutation } from '../../src/schema/explore-cases.js';
import { mismatchSweep, unusualSweep } from '../../src/schema/explore-sweep.js';
import { onExploreBudget } from './spare-budget.js';
import { type Endpoint, ENDPOINTS, type Prepared } from './endpoints.js';

export type Property = 'mismatch' | 'valid' | 'schema' | 'stored';

/** How the request cap left after the sweeps is shared: weight per check of each property (stored: two requests a case). */
const WEIGHT: Record<Property, number> = { mismatch: 12, valid: 8, schema: 4, stored: 6 };
const STORED_ENDPOINTS: ReadonlyArray<Endpoint['name']> = ['jobs', 'decisions'];

/** Whether the exploration has a check of this property on this endpoint (the two lists of index.ts). */
export function explores(ep: Endpoint, property: Property): boolean {
  if (property === 'schema') return ep.neverSucceeds !== true;
  if (property === 'stored') return STORED_ENDPOINTS.includes(ep.name);
  return true;
}

const PROPERTIES: readonly Property[] = ['mismatch', 'valid', 'schema', 'stored'];

/** The fixed cases a check sends before its random ones (src/schema/explore-sweep.ts). */
export function sweepOf(ep: Endpoint, property: Property): Mutation[] {
  switch (property) {
    case 'mismatch':
      return mismatchSweep(ep.shape);
    case 'valid':
      return unusualSweep(ep.shape);
    case 'schema':
      return unusualSweep(ep.shape, { textOnly: true });
    case 'stored':
      return [];
  }
}

const CHECKS = ENDPOINTS.flatMap((ep) => PROPERTIES.filter((p) => explores(ep, p)).map((p) => ({ ep, p })));
const TOTAL_WEIGHT = CHECKS.reduce((n, c) => n + WEIGHT[c.p], 0);

/**
 * Requests of the cap kept for what the checks send besides their cases: the fixture run each decisions
 * and reveal check starts to explore on (7), and a second attempt confirming a 5xx.
 */
const PREPARE_RESERVE = 8;

/**
 * Requests every check gets in the first round, however small the cap: its sweep, and never fewer than
 * one case of its own (a stored case is two requests). The mismatch sweep is breadth first, so its first
 * cases try every field's wrong type.
 */
const FIRST_ROUND_MIN = 2;
const firstRoundOf = (ep: Endpoint, property: Property): number =>
  Math.max(sweepOf(ep, property).length, FIRST_ROUND_MIN);
const FIRST_ROUND_TOTAL = CHECKS.reduce((n, c) => n + firstRoundOf(c.ep, c.p), 0);

/**
 * This check's share of the cap: its first round, then the rest by weight. A cap too small for every
 * first round cuts each in proportion, so a larger cap never gives a check less. The same for a given
 * cap whatever else is selected, so a seed replays alike.
 */
export function shareOf(ex: ExploreInputs, ep: Endpoint, property: Property): number {
  if (!explores(ep, property)) return 0;
  const avail = Math.max(0, ex.requests - PREPARE_RESERVE);
  const first = firstRoundOf(ep, property);
  if (avail < FIRST_ROUND_TOTAL) return Math.floor((first * avail) / FIRST_ROUND_TOTAL);
  return first + Math.floor(((avail - FIRST_ROUND_TOTAL) * WEIGHT[property]) / TOTAL_WEIGHT);
}

/** Shrinking stops after this many candidates (each one request or two), within the check's share. */
export const MIN_SHRINK_TRIES = 8;

/** The first class of the response-schema property: the valid body as it is. */
export const PLAIN: CaseClass = { kind: 'plain', arb: fc.constant<Mutation>({ kind: 'plain', op: 'none' }) };

export interface Sent {
  res: ApiResponse;
  body: unknown;
}

/**
 * Every generated request, shrinking steps and second attempts included, goes out on the exploration's
 * budget (spare while another check runs, then the grace: spare-budget.ts). Unsent: 'unsent'.
 */
export function send(
  t: CheckContext,
  x: { ep: Endpoint; p: Prepared; ex: ExploreInputs },
  body: unknown,
  label: string,
): Promise<ApiResponse | 'unsent'> {
  const { ep, p, ex } = x;
  const auth = ep.partnerOnly ? { auth: 'partner' as const } : {};
  return onExploreBudget(t, ex, label, (opts) =>
    // A run start goes through startRun, which counts any real run a 2xx would mean (none is meant).
    ep.name === 'runs-start' && isJsonObject(body)
      ? t.setup.startRun(body, { ...opts, ...auth })
      : t.api.post(ep.path(p), body, { ...opts, ...auth }),
  );
}
