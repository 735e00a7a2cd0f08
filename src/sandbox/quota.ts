// The sandbox's rolling 24-hour quota of real runs per organization.
import { seconds } from './rate-limit.js';
import type { Organization } from './store.js';

export const SANDBOX_RUN_QUOTA = 20;
const WINDOW_MS = 86_400_000;

/** undefined when a run may start, else the whole seconds until the oldest counted run leaves the window. */
export function quotaRetryAfter(org: Organization, now: number, timeScale: number): number | undefined {
  const window = WINDOW_MS / timeScale;
  const starts = org.realRunStarts;
  for (let oldest = starts[0]; oldest !== undefined && now - oldest >= window; oldest = starts[0]) starts.shift();
  const oldest = starts[0];
  if (oldest === undefined || starts.length < SANDBOX_RUN_QUOTA) return undefined;
  return Math.max(1, seconds(oldest + window - now));
}

export function recordRealRun(org: Organization, now: number): void {
  org.realRunStarts.push(now);
}
