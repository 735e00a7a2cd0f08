// results.json: exactly the RunResult, nothing added, so that tools (and schemas/results.schema.json)
// read one shape; the bodies of passed and skipped checks' exchanges are cut with their size and
// SHA-256 (src/runner/evidence-caps.ts): a clean embedded run's record is 2.4 MB instead of 4.4 MB.
// settleResult already cut them for every report; cutting is idempotent, and a result rendered
// without settling (a test, a tool) is cut the same way.

import { capPassedEvidence } from '../runner/evidence-caps.js';
import type { RunResult } from '../runner/results.js';
import type { Reporter, ReporterFactory } from './reporter.js';
import { writeReportFile } from './write-report-file.js';

export const JSON_FILE = 'results.json';

// JSON.stringify throws on a bigint; exchanges hold text, but a check's note or a config value could
// still carry one. A decimal string keeps the digits that a number would round away.
function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

export function renderJson(result: RunResult): string {
  return `${JSON.stringify(capPassedEvidence(result), jsonSafe, 2)}\n`;
}

export const createJsonReporter: ReporterFactory = (): Reporter => ({
  name: 'json',
  async onRunEnd(result, ctx) {
    await writeReportFile(ctx.reportDir, JSON_FILE, renderJson(result));
  },
});
