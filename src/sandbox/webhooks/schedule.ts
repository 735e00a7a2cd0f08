/** Spec, Events, delivery rule 1 and Limits. Unscaled milliseconds. */
export const ACK_TIMEOUT_MS = 10_000;
export const MAX_ATTEMPTS = 8;
/** Wait before attempt n+1 after attempt n failed: 1 min, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h. */
export const RETRY_DELAYS_MS: readonly number[] = [1, 2, 5, 15, 30, 60, 120, 240].map((m) => m * 60_000);
export const RETENTION_MS = 7 * 24 * 60 * 60_000;

/** Delay before the next attempt once `attemptsMade` have failed, or null when no attempt is left. */
export function retryDelay(attemptsMade: number): number | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  return RETRY_DELAYS_MS[attemptsMade - 1] ?? null;
}
