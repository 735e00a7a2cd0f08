import { apiVariants } from './api-variants.js';
import { behaviourVariants } from './behaviour-variants.js';
import { exploreVariants } from './explore-variants.js';
import type { VariantDefinition } from './types.js';
import { isOneOf } from '../must.js';

export type { VariantDefinition } from './types.js';

const BY_KIND = [apiVariants, behaviourVariants, exploreVariants] as const;

/** Every variant id, from the registry itself: a `variants.has('typo')` anywhere does not compile. */
type VariantId = (typeof BY_KIND)[number][number]['id'];

/** The switched-on variants, as every module of the sandbox receives them. */
export type VariantSet = ReadonlySet<VariantId>;

/** Every conformant variant the sandbox knows, sorted by id. */
export const VARIANTS: readonly VariantDefinition[] = BY_KIND.flat().sort((a, b) => a.id.localeCompare(b.id));

/** The set of switched-on variants; refuses unknown ids (a typo must not certify the default sandbox). */
export function resolveVariants(ids: readonly string[]): VariantSet {
  const known: readonly VariantId[] = BY_KIND.flat().map((v) => v.id);
  const unknown = ids.filter((id) => !isOneOf(known, id));
  if (unknown.length > 0)
    throw new Error(`unknown variant id(s): ${unknown.join(', ')} (see: svc-certify serve --list-variants)`);
  return new Set(ids.filter((id) => isOneOf(known, id)));
}
