// What a message adds when --environment auto decided the environment from the target's behaviour.

import type { CheckContext } from '../../src/api-setup/check.js';
import { describeEvidence } from '../../src/api-setup/environment-evidence.js';

/** "; <what the header and the behaviour said>" when --environment auto decided the environment. */
export function evidenceNote(t: CheckContext): string {
  const why = describeEvidence(t.target.environmentEvidence);
  return why ? `; ${why}` : '';
}
