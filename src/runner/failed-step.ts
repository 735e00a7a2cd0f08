// The one deliberate exception to "a thrown exception is an engine error": a step the check depends on
// failed because the target answered wrongly. The engine records it as the check's first failure
// observation, with the answer attached, and the check ends `failed`, never `error`. A command names
// its own steps and sections (the API's: src/api-setup/setup-failure.ts).

import type { ApiResponse } from '../http/types.js';

export class FailedStep extends Error {
  constructor(
    message: string,
    /** The section the answer broke. */
    readonly spec: string,
    readonly response?: ApiResponse,
  ) {
    super(message);
  }
}
