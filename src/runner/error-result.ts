// The RunResult of a certification that never began (exit 2): no check, verdict `error` and the
// reason. Built here, beside assembleResult, because it carries the same tool and spec digest; the
// files are rendered by src/report/error-reports.ts.

import type { CertificationKind, RunResult } from './results.js';
import { CERTIFICATION_TITLES, summarize } from './results.js';
import { toolVersion } from './tool-files.js';
import { loadSpec } from '../spec/spec-file.js';

/** results.json of a certification stopped before it began: the RunResult shape, no checks, and the reason. */
export type ErrorResult = Omit<RunResult, 'verdict'> & { verdict: 'error'; error: { reason: string } };

export interface ErrorReportInput {
  certification: CertificationKind;
  /** The one line the command printed, already scrubbed of secrets. */
  reason: string;
  /** The target as given, when the command had one (`run --base-url`). */
  baseUrl?: string;
  startedAt: Date;
}

export function errorResult(input: ErrorReportInput): ErrorResult {
  const finishedAt = new Date();
  // The spec copy may be what is missing; the digest is then left empty rather than hiding the reason.
  let spec = { title: 'Partner Candidate-Matching API (v1) Specification', sha256: '' };
  try {
    const loaded = loadSpec();
    spec = { title: loaded.title, sha256: loaded.sha256 };
  } catch {
    // keep the placeholder
  }
  return {
    certification: input.certification,
    title: CERTIFICATION_TITLES[input.certification],
    tool: { name: 'svc-certify', version: toolVersion() },
    spec,
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
