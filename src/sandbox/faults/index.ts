import { apiFaults } from './api-faults.js';
import { engineFaults } from './engine-faults.js';
import { webhookFaults } from './webhook-faults.js';
import type { FaultDefinition } from './types.js';

export type { FaultDefinition } from './types.js';

/** Every fault the sandbox knows, sorted by id. */
export const FAULTS: readonly FaultDefinition[] = [...apiFaults, ...engineFaults, ...webhookFaults].sort((a, b) =>
  a.id.localeCompare(b.id),
);

/** The set of switched-on faults; refuses unknown ids so a typo never certifies a clean server. */
export function resolveFaults(ids: readonly string[]): ReadonlySet<string> {
  const known = new Set(FAULTS.map((f) => f.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`unknown fault id(s): ${unknown.join(', ')} (see: svc-certify serve --list-faults)`);
  return new Set(ids);
}
