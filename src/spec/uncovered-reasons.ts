// Why a spec section has no check: `svc-certify list --by-spec` and the coverage map of report.html
// show these beside the sections that no check cites, so a gap in coverage is always a stated
// decision, never an accident.

import type { SpecSection } from './section-names.js';

const OPERATOR_ONLY = 'operator-only';
const OVERVIEW = 'overview; its rules are checked under the sections that state them';
const NOT_YET = 'planned, not written yet';

/** Section reference → reason it has no check. Sections that checks cite are never listed here. */
export const UNCOVERED_REASONS: Partial<Record<SpecSection, string>> = {
  'Resources and their fields': OVERVIEW,
  'Resources and their fields › Error envelope and webhook envelope': 'a pointer to Errors and Events, checked there',
  'States and transitions': OVERVIEW,
  'States and transitions › Connection state': `${OPERATOR_ONLY}: enabling and disabling is done by the service operator`,
  Endpoints: OVERVIEW,
  'Endpoints › Summary': OVERVIEW,
};

/** The reason for a section without a check (a default when none is written down). */
export function uncoveredReason(section: string): string {
  return UNCOVERED_REASONS[section as SpecSection] ?? NOT_YET;
}
