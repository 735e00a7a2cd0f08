// An org token presented with another partner's key. The spec binds the token to an organization and
// the organization to the partner that redeemed it (Authentication), without naming the answer when the
// two disagree: the default treats the token as unknown to this partner (401 invalid_org_token); the
// variants refuse it as forbidden (403) or as if the organization's resources did not exist (404).

import { ApiError } from './context.js';
import type { Route } from './routing.js';
import type { VariantSet } from './variants/index.js';

/** 404 in the words of the endpoint: what it would say of a resource another organization owns. */
const NOT_FOUND_CODE: Partial<Record<Route['name'], string>> = {
  'runs-start': 'job_not_found',
  'runs-read': 'run_not_found',
  reveal: 'run_not_found',
  decisions: 'run_not_found',
};

export function otherPartnersOrganization(route: Route['name'], variants: VariantSet): ApiError {
  if (variants.has('auth.other-partner-token-403')) return new ApiError(403, 'forbidden');
  if (variants.has('auth.other-partner-token-404')) return new ApiError(404, NOT_FOUND_CODE[route] ?? 'not_found');
  return new ApiError(401, 'invalid_org_token');
}
