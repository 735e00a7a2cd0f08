// From a finished RunResult to the one every report shows: the baseline applied, strict mode recorded,
// the verdict decided once (verdict.ts) with what is missing. The CLI's finishCertification writes the
// reports from it; `report` decides it again for merged parts with it.

import { applyBaseline, type Baseline } from './baseline.js';
import type { RunResult } from './results.js';
import { decideVerdict } from './verdict.js';
import { reshapeRedacted, type Redacted } from '../config/redacted.js';

export interface VerdictSettings {
  strict: boolean;
  baseline?: Baseline;
}

export interface VerdictOptions {
  /** Every check id the certification knows, run or not: a baseline id outside it is unknown. */
  knownIds?: Iterable<string>;
  /** YYYY-MM-DD (UTC), for tests; default today. */
  today?: string;
}

export function resultWithVerdict(
  result: Redacted<RunResult>,
  settings: VerdictSettings,
  opts?: VerdictOptions,
): Redacted<RunResult>;
export function resultWithVerdict(result: RunResult, settings: VerdictSettings, opts?: VerdictOptions): RunResult;
export function resultWithVerdict(result: RunResult, settings: VerdictSettings, opts: VerdictOptions = {}): RunResult {
  // The baseline's notes and the verdict are the tool's own words: a redacted result stays redacted.
  return reshapeRedacted(result as Redacted<RunResult>, (r) => settle(r, settings, opts));
}

function settle(result: RunResult, settings: VerdictSettings, opts: VerdictOptions): RunResult {
  const based = settings.baseline
    ? applyBaseline(result, settings.baseline, {
        ...(opts.knownIds ? { knownIds: opts.knownIds } : {}),
        ...(opts.today ? { today: opts.today } : {}),
      })
    : result;
  const { missing: _stale, uncertifiedBy: _before, ...rest } = based;
  const { verdict, missing, uncertifiedBy } = decideVerdict(rest, settings.strict);
  return {
    ...rest,
    config: { ...rest.config, strict: settings.strict },
    verdict,
    ...(missing.length > 0 ? { missing } : {}),
    ...(uncertifiedBy.length > 0 ? { uncertifiedBy } : {}),
  };
}
