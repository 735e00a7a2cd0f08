// Thrown by shared setup when an input is missing (no organization can be made, say) or the target left
// nothing to judge: the runner maps it to `skipped` with this reason and kind, like an unmet declared need.

import type { SkipKind } from './results.js';

export class SkipCheck extends Error {
  override readonly name = 'SkipCheck';
  constructor(
    message: string,
    readonly kind: SkipKind,
    /** needs-input: what would run it, short ("--webhook-secret"). */
    readonly unlock?: string,
  ) {
    super(message);
  }
}
