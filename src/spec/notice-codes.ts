// The spec's notice codes (Resources and their fields › Notice), said once for the suites and the
// partner judge: the codes that can occur in v1, the four known ones that cannot, and so every
// known code (anything else is an unknown code, which clients render and report all the same).

/** The codes that can occur in v1. */
export const V1_NOTICE_CODES: readonly string[] = [
  'function_error',
  'run_progress',
  'location_relaxed',
  'must_unmet_hidden',
  'paid_fallback',
  'already_shown',
  'requirement_blockers',
  'requirement_attribution',
  'run_funnel',
];

/** The spec: these four known codes "cannot occur in v1". Unknown (new) codes stay allowed. */
export const IMPOSSIBLE_IN_V1: readonly string[] = [
  'widen_hint',
  'relaxation_ladder',
  'global_relaxed',
  'lean_search_failed',
];

/** Every code the spec names. */
export const KNOWN_NOTICE_CODES: ReadonlySet<string> = new Set([...V1_NOTICE_CODES, ...IMPOSSIBLE_IN_V1]);
