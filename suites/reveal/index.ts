// Reveal: the contact of a listed candidate, charged once per organization (production) or never
// (sandbox, synthetic contact). Sandbox checks use fixture runs, which are free of quota; the checks
// that spend production credits are in reveal-production.ts (--max-spend-credits).
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { CONTACT_STATE_CHECKS } from './contact-state.js';
import { LARGE_ID_CHECKS } from './large-ids.js';
import { NOT_FOUND_CHECKS } from './not-found.js';
import { REPEAT_REVEAL_CHECKS } from './repeat-reveal.js';
import { SANDBOX_CONTACT_CHECKS } from './sandbox-contact.js';

export const REVEAL_CHECKS: CheckDefinition[] = [
  ...SANDBOX_CONTACT_CHECKS,
  ...REPEAT_REVEAL_CHECKS,
  ...CONTACT_STATE_CHECKS,
  ...NOT_FOUND_CHECKS,
  ...LARGE_ID_CHECKS,
];
