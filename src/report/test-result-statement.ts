// The certification as an in-toto Statement v1 (github.com/in-toto/attestation, spec/v1/statement.md)
// with the Test Result predicate (spec/predicates/test-result.md, v0.1): what `--sign-key` signs and
// `svc-certify verify` reads. Subjects are the target and results.json; Statement v1 requires a digest
// on every subject, and a deployment is an address rather than bytes, so the target's digest is the
// SHA-256 of its identity text (the base URL, then a space and its `x-svc-build` where one was seen),
// which a verifier can recompute from the subject's name and annotations.

import { createHash } from 'node:crypto';
import type { CheckResult, RunResult } from '../runner/results.js';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1';
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const RESULTS_SUBJECT = 'results.json';
/** The response header a deployment may name its build with; recorded with the target when seen. */
const BUILD_HEADER = 'x-svc-build';

/** The predicate's `result`: PASSED with no warning, WARNED with some, FAILED for every other verdict. */
export type TestResult = 'PASSED' | 'WARNED' | 'FAILED';

export interface ResourceDescriptor {
  name: string;
  digest?: Record<string, string>;
  uri?: string;
  annotations?: Record<string, unknown>;
}

export interface TestResultStatement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof TEST_RESULT_PREDICATE;
  predicate: {
    result: TestResult;
    configuration: ResourceDescriptor[];
    passedTests: string[];
    warnedTests: string[];
    failedTests: string[];
  };
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** Only `certified` is a pass: an incomplete, selected or interrupted certification is not one. */
export function testResultOf(result: Pick<RunResult, 'verdict' | 'summary'>): TestResult {
  if (result.verdict !== 'certified') return 'FAILED';
  return result.summary.warning > 0 ? 'WARNED' : 'PASSED';
}

/** The first `x-svc-build` a response of the target carried, if any. */
export function buildOf(checks: readonly CheckResult[]): string | undefined {
  for (const check of checks)
    for (const exchange of check.exchanges) {
      const headers = exchange.response?.headers ?? {};
      const key = Object.keys(headers).find((name) => name.toLowerCase() === BUILD_HEADER);
      if (key !== undefined && headers[key]) return headers[key];
    }
  return undefined;
}

/** The text the target subject's digest is taken over (see the top of this file). */
function targetIdentity(name: string, build: string | undefined): string {
  return build === undefined ? name : `${name} ${build}`;
}

/** Seed and profile as the result records them: the exploration's seed, the config's profile when it names one. */
function settingsOf(result: RunResult): Record<string, unknown> {
  const seed = result.exploration?.seed ?? result.config['seed'];
  const profile = result.config['profile'];
  return {
    ...(seed !== undefined ? { seed } : {}),
    profile: typeof profile === 'string' ? profile : result.selection ? 'selection' : 'certification',
  };
}

/** The statement of a settled result (its verdict decided) and the bytes of its results.json. */
export function buildStatement(result: RunResult, resultsJson: Buffer): TestResultStatement {
  const name = result.target.baseUrl || `svc-certify:${result.certification}`;
  const build = buildOf(result.checks);
  const ids = (keep: (c: CheckResult) => boolean): string[] => result.checks.filter(keep).map((c) => c.id);
  return {
    _type: STATEMENT_TYPE,
    subject: [
      {
        name,
        digest: { sha256: sha256(targetIdentity(name, build)) },
        annotations: {
          environment: result.target.environment,
          ...(build !== undefined ? { [BUILD_HEADER]: build } : {}),
        },
      },
      {
        name: RESULTS_SUBJECT,
        digest: { sha256: sha256(resultsJson) },
        annotations: {
          certification: result.certification,
          verdict: result.verdict,
          startedAt: result.startedAt,
          finishedAt: result.finishedAt,
        },
      },
    ],
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result: testResultOf(result),
      configuration: [
        {
          name: result.tool.name,
          uri: `pkg:npm/${result.tool.name}@${result.tool.version}`,
          annotations: { version: result.tool.version, command: result.certification, ...settingsOf(result) },
        },
        { name: result.spec.title, digest: { sha256: result.spec.sha256 } },
      ],
      passedTests: ids((c) => c.status === 'passed'),
      warnedTests: ids((c) => c.status === 'warning'),
      // An engine error is no pass either.
      failedTests: ids((c) => c.status === 'failed' || c.status === 'error'),
    },
  };
}
