// `svc-certify scan PATH…`: scans the files, turns the findings into the two checks and the
// `findings` of results.json, then writes the reports through the shared report options. The paths
// are repeated in the reports and in an error line: a key in a path shows its first 12 characters only.

import { assembleResult } from '../runner/assemble-result.js';
import type { Reporter } from '../report/reporter.js';
import type { CheckResult, RunResult } from '../runner/results.js';
import { truncateSecrets } from '../scan/redact.js';
import { SCAN_REGISTRY, SCAN_SUITE, scanCheckResults } from '../scan/scan-checks.js';
import { ScanPathError } from '../scan/scan-file.js';
import { scanPaths, type ScanOutcome } from '../scan/scan-paths.js';
import {
  createSettingsReporters,
  finishCertification,
  prepareReports,
  resolveReportSettings,
} from './report-options.js';
import { watchSignals, type StopSignal } from './signals.js';
import { UsageError } from './usage-error.js';
import { specDigest } from '../spec/spec-digest.js';
import { readerRedactor } from './read-results.js';

export async function scanCommand(paths: string[], flags: Record<string, unknown>): Promise<number> {
  if (paths.length === 0)
    throw new UsageError('scan: name at least one file or folder, e.g. svc-certify scan dist/ session.har');
  const settings = await resolveReportSettings(flags);
  await prepareReports(settings);
  const reporters = await createSettingsReporters(settings);
  const startedAt = new Date();
  let outcome;
  // The first signal stops the scan at its next chunk; the reports then say what was read.
  const controller = new AbortController();
  const signals = watchSignals();
  void signals.first.then(() => controller.abort());
  try {
    outcome = await scanPaths(paths, { signal: controller.signal });
  } catch (e) {
    signals.dispose();
    if (e instanceof ScanPathError) throw new UsageError(`scan: ${truncateSecrets(e.message)}`);
    throw e;
  }
  const signal = signals.received();
  const decided = scanCheckResults(outcome, Date.now() - startedAt.getTime());
  const findings = decided.findings;
  const checks = signal ? decided.checks.map((c) => interruptedCheck(c, signal, outcome)) : decided.checks;
  const shown = paths.map(truncateSecrets);
  replay(reporters, checks, shown.join(' '));
  const result: RunResult = {
    ...assembleResult({
      spec: specDigest(),
      certification: 'scan',
      config: {
        paths: shown,
        files: outcome.files,
        bytes: outcome.bytes,
        reportDir: settings.reportDir,
        reporters: settings.reporters,
      },
      target: { baseUrl: shown.join(' '), environment: 'unknown', embedded: false },
      startedAt,
      suites: [SCAN_SUITE],
      checks,
    }),
    findings,
    ...(signal ? { interrupted: { signal } } : {}),
  };
  try {
    // Findings are cut to their first characters (truncateSecrets); the environment's own secrets are
    // taken out too, by the redaction every written result goes through.
    return await finishCertification(readerRedactor().value(result), settings, {
      reporters,
      knownIds: SCAN_REGISTRY.checks.map((c) => c.id),
    });
  } finally {
    signals.dispose();
  }
}

/** A scan a signal cut short judges nothing: its checks are interrupted, the findings so far kept. */
function interruptedCheck(c: CheckResult, signal: StopSignal, outcome: ScanOutcome): CheckResult {
  const read = `${outcome.files} file(s) and ${(outcome.bytes / (1 << 20)).toFixed(1)} MiB read`;
  return {
    ...c,
    status: 'skipped',
    skipKind: 'interrupted',
    message: `interrupted by ${signal} before the scan ended (${read}): not judged`,
  };
}

/** The checks were decided in one pass: the console shows them as a run would, then the summary. */
function replay(reporters: Reporter[], checks: CheckResult[], target: string): void {
  for (const r of reporters) {
    r.onRunStart?.({
      checks: checks.map((c) => ({ id: c.id, title: c.title, suite: c.suite })),
      suites: [SCAN_SUITE],
      target: { baseUrl: target, environment: 'unknown', embedded: false },
    });
  }
  for (const c of checks) {
    for (const r of reporters) {
      r.onCheckStart?.(c.id);
      r.onCheckEnd?.(c);
    }
  }
}
