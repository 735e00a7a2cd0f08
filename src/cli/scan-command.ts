// `svc-certify scan PATH…`: scans the files, turns the findings into the two checks and the
// `findings` of results.json, then writes the reports through the shared report options. The paths
// are repeated in the reports and in an error line: a key in a path shows its first 12 characters only.

import { assembleResult } from '../runner/assemble-result.js';
import type { Reporter } from '../report/reporter.js';
import type { CheckResult, RunResult } from '../runner/results.js';
import { truncateSecrets } from '../scan/redact.js';
import { SCAN_CHECKS, SCAN_SUITE, scanCheckResults } from '../scan/scan-checks.js';
import { ScanPathError } from '../scan/scan-file.js';
import { scanPaths } from '../scan/scan-paths.js';
import { createSettingsReporters, finishCertification, prepareReports, resolveReportSettings } from './report-options.js';
import { UsageError } from './usage-error.js';

export async function scanCommand(paths: string[], flags: Record<string, unknown>): Promise<number> {
  if (paths.length === 0) throw new UsageError('scan: name at least one file or folder, e.g. svc-certify scan dist/ session.har');
  const settings = await resolveReportSettings(flags);
  await prepareReports(settings);
  const reporters = await createSettingsReporters(settings);
  const startedAt = new Date();
  let outcome;
  try {
    outcome = await scanPaths(paths);
  } catch (e) {
    if (e instanceof ScanPathError) throw new UsageError(`scan: ${truncateSecrets(e.message)}`);
    throw e;
  }
  const { checks, findings } = scanCheckResults(outcome, Date.now() - startedAt.getTime());
  const shown = paths.map(truncateSecrets);
  replay(reporters, checks, shown.join(' '));
  const result: RunResult = {
    ...assembleResult({
      certification: 'scan',
      config: { paths: shown, files: outcome.files, bytes: outcome.bytes, reportDir: settings.reportDir, reporters: settings.reporters },
      target: { baseUrl: shown.join(' '), environment: 'unknown', embedded: false },
      startedAt,
      suites: [SCAN_SUITE],
      checks,
    }),
    findings,
  };
  return finishCertification(result, settings, { reporters, knownIds: SCAN_CHECKS.map((c) => c.id) });
}

/** The checks were decided in one pass: the console shows them as a run would, then the summary. */
function replay(reporters: Reporter[], checks: CheckResult[], target: string): void {
  for (const r of reporters) {
    r.onRunStart?.({ checks: checks.map((c) => ({ id: c.id, title: c.title, suite: c.suite })), suites: [SCAN_SUITE], target: { baseUrl: target, environment: 'unknown', embedded: false } });
  }
  for (const c of checks) {
    for (const r of reporters) {
      r.onCheckStart?.(c.id);
      r.onCheckEnd?.(c);
    }
  }
}
