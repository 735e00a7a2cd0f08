// The one place that tells a dossier from a single certification. A report has two shapes: one
// certification, or a dossier of several (its head, and its parts rebuilt from the head's `checks`).
// Every reporter hands its two renderers to byShape, so none of them asks which shape a result is.

import type { RunResult } from '../runner/results.js';
import { isDossier, partsOf } from './dossier.js';

/** How a report renders each shape of result. */
interface ShapeRenderers<T> {
  run(result: RunResult): T;
  dossier(head: RunResult, parts: readonly RunResult[]): T;
}

/** A renderer of any result: the dossier's parts are rebuilt once, here, for whichever report asks. */
export function byShape<T>(renderers: ShapeRenderers<T>): (result: RunResult) => T {
  return (result) => (isDossier(result) ? renderers.dossier(result, partsOf(result)) : renderers.run(result));
}
