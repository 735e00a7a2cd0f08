// The notice codes the spec lists (its table of notice codes), as the sandbox reads it: what the service
// may put in a run's `notices` and what a partner's `notices_shown` may name without being unknown.

export const KNOWN_NOTICE_CODES: readonly string[] = [
  'requirement_blockers',
  'widen_hint',
  'already_shown',
  'relaxation_ladder',
  'location_relaxed',
  'global_relaxed',
  'paid_fallback',
  'lean_search_failed',
  'requirement_attribution',
  'run_funnel',
  'run_progress',
  'function_error',
  'must_unmet_hidden',
];
