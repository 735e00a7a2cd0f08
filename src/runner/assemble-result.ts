// A RunResult from finished checks: `certify()` (which adds its request statistics) and the
// partner-side commands `scan` and `receiver`, which judge files and a webhook endpoint, not an API
// target: same shape, same summary, so every reporter, the results schema and the exit code treat
// them alike.

import { toolVersion } from './tool-files.js';
import {
  CERTIFICATION_TITLES,
  summarize,
  type CertificationKind,
  type CheckResult,
  type RunResult,
} from './results.js';

export interface AssembleInput {
  certification: CertificationKind;
  /** The spec the checks judged against (its title and digest): the command's. */
  spec: RunResult['spec'];
  config: Record<string, unknown>;
  target: RunResult['target'];
  startedAt: Date;
  suites: string[];
  checks: CheckResult[];
}

export function assembleResult(input: AssembleInput): RunResult {
  const finishedAt = new Date();
  return {
    certification: input.certification,
    title: CERTIFICATION_TITLES[input.certification],
    tool: { name: 'svc-certify', version: toolVersion() },
    spec: input.spec,
    config: input.config,
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - input.startedAt.getTime(),
    summary: summarize(input.checks),
    suites: input.suites,
    checks: input.checks,
  };
}
