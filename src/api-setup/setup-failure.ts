// When a shared setup step (redeem, register a user, create a job, start a run) fails because the
// target answered wrongly, every check that needed it FAILS with the setup exchange attached. Throwing
// keeps check code linear; the engine maps this failed step to `failed`, never to `error`.

import type { ApiResponse } from '../http/types.js';
import { FailedStep } from '../runner/failed-step.js';
import type { SpecSection } from '../spec/section-names.js';

export class SetupFailure extends FailedStep {
  override readonly name = 'SetupFailure';
  constructor(
    /** The step, e.g. "org (redeem an activation code)". */
    readonly step: string,
    /** What went wrong, one sentence. */
    readonly what: string,
    override readonly spec: SpecSection,
    response?: ApiResponse,
  ) {
    super(`setup step ${step} failed: ${what}`, spec, response);
  }
}
