import { activationFaults } from './activation-faults.js';
import { authFaults } from './auth-faults.js';
import { conventionsFaults } from './conventions-faults.js';
import { decisionsFaults } from './decisions-faults.js';
import { exploreFaults } from './explore-faults.js';
import { fixturesFaults } from './fixtures-faults.js';
import { jobsFaults } from './jobs-faults.js';
import { limitsFaults } from './limits-faults.js';
import { productionFaults } from './production-faults.js';
import { revealFaults } from './reveal-faults.js';
import { runsReadFaults } from './runs-read-faults.js';
import { runsStartFaults } from './runs-start-faults.js';
import { sandboxFaults } from './sandbox-faults.js';
import { usersFaults } from './users-faults.js';
import { webhooksFaults } from './webhooks-faults.js';
import type { FaultDefinition } from './types.js';
import { composePoints, type Points } from './points.js';
import { isOneOf } from '../must.js';

export type { FaultDefinition } from './types.js';
export type { Points, RouteName, Settings } from './points.js';

const BY_AREA = [
  activationFaults,
  authFaults,
  conventionsFaults,
  decisionsFaults,
  exploreFaults,
  fixturesFaults,
  jobsFaults,
  limitsFaults,
  productionFaults,
  revealFaults,
  runsReadFaults,
  runsStartFaults,
  sandboxFaults,
  usersFaults,
  webhooksFaults,
] as const;

/** Every fault id, from the registry itself: a mistyped id asked of a fault set anywhere in the sandbox does not compile. */
export type FaultId = (typeof BY_AREA)[number][number]['id'];

/** The switched-on faults, as every module of the sandbox receives them. */
export type FaultSet = ReadonlySet<FaultId>;

/** Every fault the sandbox knows, sorted by id. */
export const FAULTS: readonly FaultDefinition[] = BY_AREA.flat().sort((a, b) => a.id.localeCompare(b.id));

/** The set of switched-on faults; refuses unknown ids so a typo never certifies a clean server. */
export function resolveFaults(ids: readonly string[]): FaultSet {
  const known: readonly FaultId[] = BY_AREA.flat().map((f) => f.id);
  const unknown = ids.filter((id) => !isOneOf(known, id));
  if (unknown.length > 0)
    throw new Error(`unknown fault id(s): ${unknown.join(', ')} (see: svc-certify serve --list-faults)`);
  return new Set(ids.filter((id) => isOneOf(known, id)));
}

/** The points of a sandbox with these faults on: each point, the chain of their transforms in id order. */
export function pointsOf(faults: FaultSet): Points {
  const on: ReadonlySet<string> = faults;
  return composePoints(FAULTS.flatMap((f) => (f.acts && on.has(f.id) ? [f.acts] : [])));
}
