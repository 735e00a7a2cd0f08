// The sandbox's rolling 24-hour quota of real runs per organization.
import { seconds } from './rate-limit.js';
import type { Organization } from './store.js';

export const SANDBOX_RUN_QUOTA = 20;
const WINDOW_MS = 86_400_000;

/** undefined when a run may start, else the whole seconds until the oldest counted run leaves the window. */
export function quotaRetryAfter(org: Organization, now: number, timeScale: number): number | undefined {
  const window = WINDOW_MS / timeScale;
  const starts = org.realRunStarts;
  while (starts.length > 0 && now - starts[0] >= window) starts.shift();
  if (starts.length < SANDBOX_RUN_QUOTA) return undefined;
  return Math.max(1, seconds(starts[0] + window - now));
}

export function recordRealRun(org: Organization, now: number): void {
  org.realRunStarts.push(now);
}
