// `partner --duration`: a real time such as 90s, 15m, 1h or 2d, at most 30 days.

import { ConfigError } from './config-error.js';
import type { Sourced } from './option-spec.js';

/** The longest session --duration accepts: 30 days (a Node timer overflows past 24.8 days, so long waits are chained). */
export const MAX_DURATION_MS = 30 * 24 * 3_600_000;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "90", "90s", "1500ms", "5m", "1h", "2d": real time in ms; undefined when not a positive time. */
function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!m) return undefined;
  const unit = m[2] === 'ms' || m[2] === 'm' || m[2] === 'h' || m[2] === 'd' ? UNIT_MS[m[2]] : UNIT_MS.s;
  const ms = Number(m[1]) * unit;
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}

export function validateDuration(s: Sourced<string>): number {
  const ms = parseDuration(s.value);
  if (ms === undefined)
    throw new ConfigError(`${s.source} must be a positive time such as 90s, 15m, 1h or 2d (got "${s.value}")`);
  if (ms > MAX_DURATION_MS)
    throw new ConfigError(`${s.source} ${s.value} is longer than the 30 days a session may last; give 30d or less`);
  return ms;
}
