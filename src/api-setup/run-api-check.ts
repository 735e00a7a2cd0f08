// Runs one check of `run` on the engine (src/runner/run-check.ts): its context is the API's (the
// target, the operator's inputs, the API's assertions, the shared setup as the check sees it, the
// webhook receiver), built from the tools the engine gives every check.

import { TargetKeptItsLimit } from '../http/limit-kept.js';
import type { ClientFactory } from '../runner/client-factory.js';
import type { SkipDecision } from '../runner/outcome.js';
import type { CheckResult } from '../runner/results.js';
import { runCheck } from '../runner/run-check.js';
import type { CheckContext, CheckDefinition, SetupProvider, TargetInfo } from './check.js';
import { createExpect } from './expect.js';
import type { SchemaIssueLike } from './expect-schema.js';

/** What runs a check the target's own rate limit stopped: the limit it keeps, as --rate-limit. */
const RATE_LIMIT_UNLOCK = "--rate-limit at the target's limit for this partner";

export interface ApiCheckRunEnv {
  target: TargetInfo;
  inputs: CheckContext['inputs'];
  engine: ClientFactory;
  setup: SetupProvider;
  reservedCodes: string[];
  webhooks?: CheckContext['webhooks'];
  validate(schemaName: string, value: unknown): SchemaIssueLike[];
  marginMs: number;
  onProgress(id: string, message: string): void;
  /** The certification's signal (Ctrl-C). */
  signal: AbortSignal;
  /** Told when the check says it only watches from now on (CheckContext.onlyWatching). */
  onlyWatching(): void;
}

/** The target keeping its limit is set-up (--rate-limit above it), never the target's failure. */
function skipFor(error: unknown): SkipDecision | undefined {
  if (!(error instanceof TargetKeptItsLimit)) return undefined;
  return { reason: error.message, kind: 'needs-input', unlock: RATE_LIMIT_UNLOCK };
}

export function runApiCheck(check: CheckDefinition, env: ApiCheckRunEnv): Promise<CheckResult> {
  return runCheck<CheckContext>(check, {
    timeScale: env.target.timeScale,
    engine: env.engine,
    marginMs: env.marginMs,
    onProgress: env.onProgress,
    signal: env.signal,
    skipFor,
    context: (tools) => ({
      ...tools.controls,
      target: env.target,
      inputs: env.inputs,
      api: tools.api,
      setup: env.setup.forCheck(tools.attachSetup, env.reservedCodes, tools.api, tools.paused),
      expect: createExpect({
        baseUrl: env.target.baseUrl,
        validate: env.validate,
        onAssert: tools.asserted,
        observe: tools.observe,
      }),
      ...(env.webhooks ? { webhooks: env.webhooks } : {}),
      onlyWatching: env.onlyWatching,
    }),
  });
}
