// The RunResult of a certification that never began (exit 2): no check, verdict `error` and the
// reason. Built here, beside assembleResult, because it carries the same tool and spec digest; the
// files are rendered by src/report/error-reports.ts.

import type { CertificationKind, RunResult } from './results.js';
import { CERTIFICATION_TITLES, summarize } from './results.js';
import { toolVersion } from './tool-files.js';

/** results.json of a certification stopped before it began: the RunResult shape, no checks, and the reason. */
export type ErrorResult = Omit<RunResult, 'verdict'> & { verdict: 'error'; error: { reason: string } };

export interface ErrorReportInput {
  certification: CertificationKind;
  /** The spec's title and digest, empty when the copy could not be read. */
  spec: RunResult['spec'];
  /** The one line the command printed, already scrubbed of secrets. */
  reason: string;
  /** The target as given, when the command had one (`run --base-url`). */
  baseUrl?: string;
  startedAt: Date;
}

export function errorResult(input: ErrorReportInput): ErrorResult {
  const finishedAt = new Date();
  return {
    certification: input.certification,
    title: CERTIFICATION_TITLES[input.certification],
    tool: { name: 'svc-certify', version: toolVersion() },
    spec: input.spec,
    config: {},
    target: { baseUrl: input.baseUrl ?? '', environment: 'unknown', embedded: false },
    startedAt: input.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: Math.max(0, finishedAt.getTime() - input.startedAt.getTime()),
    summary: summarize([]),
    suites: [],
    checks: [],
    verdict: 'error',
    error: { reason: input.reason },
  };
}
