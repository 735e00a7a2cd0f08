// A candidate id above 2^53 on the shared real run: the input of every check that carries such an id.

import type { CheckContext } from '../../src/api-setup/check.js';
import type { RunHandle } from '../../src/api-setup/setup-view.js';
import type { JsonValue } from '../../src/json/lossless.js';
import { int, obj, objects, TWO_POW_53 } from './json-values.js';

/**
 * The one candidate of a run read that the large-id checks carry: the first listed above 2^53. Only it
 * is spent (revealed) by them, so a check that needs other candidates of the shared run left alone
 * leaves out exactly this one, compared as a bigint.
 */
export function firstIdAbove2Pow53(runBody: JsonValue | undefined): bigint | undefined {
  return objects(obj(runBody)?.candidates)
    .map((c) => int(c.id))
    .find((id): id is bigint => id !== undefined && id > TWO_POW_53);
}

/**
 * The shared real run and the first candidate it lists whose id exceeds 2^53; undefined, the check
 * skipped as not applicable, when it lists none.
 */
export async function candidateAbove2Pow53(t: CheckContext): Promise<{ run: RunHandle; huge: bigint } | undefined> {
  const { run, final } = await t.setup.realRun();
  const huge = firstIdAbove2Pow53(final.json);
  if (huge === undefined) {
    // Which ids a service issues is its own choice ("may exceed 2^31", Identifier conventions):
    // with none above 2^53 on the run there is no such id to carry, and nothing to judge.
    t.skip(
      "the shared real run lists no candidate with an id above 2^53 (ids are the service's own: none that large to carry)",
      'not-applicable',
    );
    return undefined;
  }
  return { run, huge };
}
