// The registry of run's checks: the engine's registry (src/runner/registry.ts), told that what unlocks a
// check of the API is its input needs (needs.ts) besides what it declares itself.

import { createRegistry, type CheckRegistry } from '../runner/registry.js';
import type { CheckDefinition } from './check.js';
import { unlockOf } from './needs.js';

export function createRunRegistry(
  checks: readonly CheckDefinition[],
  suiteOrder: readonly string[],
): CheckRegistry<CheckDefinition> {
  return createRegistry(checks, suiteOrder, { unlockOf: (c) => unlockOf(c.needs, c.unlockedBy) });
}
