/** Spec, Events, delivery rule 1 and Limits. Unscaled milliseconds. */
export const ACK_TIMEOUT_MS = 10_000;
const MAX_ATTEMPTS = 8;
/** Wait before attempt n+1 after attempt n failed: 1 min, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h. */
const RETRY_DELAYS_MS: readonly number[] = [1, 2, 5, 15, 30, 60, 120, 240].map((m) => m * 60_000);
export const RETENTION_MS = 7 * 24 * 60 * 60_000;

/**
 * "Up to 8 attempts … (after 1 min, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h)" reads two ways: 8
 * attempts in all, the first included (the default: the 4 h wait is never reached), or 8 retries
 * after the first, one per listed wait (9 in all, the last 4 h after the eighth).
 */
export type RetryReading = 'eight-in-all' | 'eight-retries';

/** Delay before the next attempt once `attemptsMade` have failed, or null when no attempt is left. */
export function retryDelay(attemptsMade: number, reading: RetryReading = 'eight-in-all'): number | null {
  if (attemptsMade >= MAX_ATTEMPTS + (reading === 'eight-retries' ? 1 : 0)) return null;
  return RETRY_DELAYS_MS[attemptsMade - 1] ?? null;
}

/** The faults' schedules: every retry one minute after the last, or four more after the eighth, a minute apart. */
export function faultyRetryDelay(attemptsMade: number, fault: 'flat' | 'past-eighth'): number | null {
  if (fault === 'flat') return attemptsMade >= MAX_ATTEMPTS ? null : 60_000;
  if (attemptsMade >= MAX_ATTEMPTS + 4) return null;
  return attemptsMade >= MAX_ATTEMPTS ? 60_000 : (RETRY_DELAYS_MS[attemptsMade - 1] ?? null);
}
