/** The values of `x-svc-sandbox-simulate` (Sandbox behaviour): a leaf, read by the app and by its faults. */
export const SIMULATE_VALUES = [
  'rate_limited',
  'rate_limit_unavailable',
  'internal_error',
  'insufficient_credits',
] as const;
