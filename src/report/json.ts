// results.json: the RunResult, so that tools (and schemas/results.schema.json) read one shape; the
// bodies of passed and skipped checks' exchanges are cut with their size and SHA-256
// (src/runner/evidence-caps.ts), and an exchange such a check repeats from an earlier check is written
// once (shared-exchanges.ts; readResultsFile puts the copies back). resultWithVerdict already cut the bodies
// for every report; cutting is idempotent, and a result rendered without settling (a test, a tool) is
// cut the same way.

import { randomBytes } from 'node:crypto';
import { capPassedEvidence } from '../runner/evidence-caps.js';
import type { RunResult } from '../runner/results.js';
import { referToSharedExchanges } from './shared-exchanges.js';
import { fileReporter } from './reporter.js';
import { jsonDisplaySafe } from './terminal-safe.js';

export const JSON_FILE = 'results.json';

// JSON.stringify throws on a bigint; exchanges hold text, but a check's note or a config value could
// still carry one. A decimal string keeps the digits that a number would round away.
function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * Indented for a reader, but each exchange on one line: exchanges are most of the file (a clean run's
 * 2-space indented exchanges took 0.46 MB of 1.54), and a person reads them in report.html.
 */
export function renderJson(result: RunResult): string {
  const capped = capPassedEvidence(result);
  const checks = referToSharedExchanges(capped.checks, (exchange) => JSON.stringify(exchange, jsonSafe));
  // Each exchange is replaced by a marker string, then the marker by the exchange's compact JSON. The
  // nonce makes a marker no text of the target can forge.
  const nonce = randomBytes(8).toString('hex');
  const compact: string[] = [];
  const marked = checks.map((check) => ({
    ...check,
    exchanges: check.exchanges.map((exchange) => `${nonce}:${compact.push(JSON.stringify(exchange, jsonSafe)) - 1}`),
  }));
  const text = JSON.stringify({ ...capped, checks: marked }, jsonSafe, 2);
  const json = text.replace(new RegExp(`"${nonce}:(\\d+)"`, 'g'), (_, i: string) => compact[Number(i)] ?? 'null');
  // Bidirectional and C1 controls escaped: the same values, shown as escapes by an editor or `cat`.
  return `${jsonDisplaySafe(json)}\n`;
}

/** `--reporter json`. */
export const JSON_REPORTER = fileReporter({
  name: 'json',
  file: JSON_FILE,
  render: renderJson,
  readBy: 'other tools: the whole result, every field below',
});
