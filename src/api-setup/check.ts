// A check of `run`: the engine's check model (src/runner/check.ts) given the API's shared setup
// (setup-view.ts) as what it may await. The suites define their checks with these.

import type { CheckContext as EngineCheckContext, CheckDefinition as EngineCheckDefinition } from '../runner/check.js';
import type { SharedSetup } from './setup-view.js';

export type CheckDefinition = EngineCheckDefinition<SharedSetup>;
export type CheckContext = EngineCheckContext<SharedSetup>;
