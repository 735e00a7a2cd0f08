// results.json: the RunResult, so that tools (and schemas/results.schema.json) read one shape; the
// bodies of passed and skipped checks' exchanges are cut with their size and SHA-256
// (src/runner/evidence-caps.ts), and an exchange such a check repeats from an earlier check is written
// once (shared-exchanges.ts; readResultsFile puts the copies back). The bodies are cut once, for every report,
// by writeReports and writeDossierReports (finish-certification.ts) before any reporter reads the result.

import { createHash, randomBytes } from 'node:crypto';
import type { RunResult } from '../runner/results.js';
import { exchangeReferrer, referToSharedExchanges } from './shared-exchanges.js';
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
  const checks = referToSharedExchanges(result.checks, (exchange) => JSON.stringify(exchange, jsonSafe));
  // Each exchange is replaced by a marker string, then the marker by the exchange's compact JSON. The
  // nonce makes a marker no text of the target can forge.
  const nonce = randomBytes(8).toString('hex');
  const compact: string[] = [];
  const marked = checks.map((check) => ({
    ...check,
    exchanges: check.exchanges.map((exchange) => `${nonce}:${compact.push(JSON.stringify(exchange, jsonSafe)) - 1}`),
  }));
  const text = JSON.stringify({ ...result, checks: marked }, jsonSafe, 2);
  const json = text.replace(new RegExp(`"${nonce}:(\\d+)"`, 'g'), (_, i: string) => compact[Number(i)] ?? 'null');
  // Bidirectional and C1 controls escaped: the same values, shown as escapes by an editor or `cat`.
  return `${jsonDisplaySafe(json)}\n`;
}

/** The exchanges of a check as markers, then the markers as each exchange's compact JSON (see renderJson). */
function checkText(check: ReturnType<ReturnType<typeof exchangeReferrer>>, nonce: string): string {
  const compact: string[] = [];
  const marked = {
    ...check,
    exchanges: check.exchanges.map((exchange) => `${nonce}:${compact.push(JSON.stringify(exchange, jsonSafe)) - 1}`),
  };
  // An element of the top level's `checks`: two levels in, as JSON.stringify indents the whole.
  const text = JSON.stringify(marked, jsonSafe, 2).replace(/^/gm, '    ');
  return text.replace(new RegExp(`"${nonce}:(\\d+)"`, 'g'), (_, i: string) => compact[Number(i)] ?? 'null');
}

/** A top-level array of `count` elements, as JSON.stringify(…, 2) writes it, an element at a time. */
function* arrayText(count: number, elements: Iterable<string>): Generator<string> {
  if (count === 0) {
    yield '[]';
    return;
  }
  let first = true;
  for (const element of elements) {
    yield `${first ? '[\n' : ',\n'}${element}`;
    first = false;
  }
  yield '\n  ]';
}

function* partChecks(parts: Iterable<RunResult>, nonce: string): Generator<string> {
  // Positions in `checks` run on across parts: a reference may name an exchange of an earlier part.
  // Keyed by the exchange's digest, so a first copy costs a few bytes however large it is.
  const refer = exchangeReferrer((exchange) =>
    createHash('sha256').update(JSON.stringify(exchange, jsonSafe)).digest('base64'),
  );
  for (const part of parts) for (const check of part.checks) yield checkText(refer(check), nonce);
}

function* partFindings(parts: Iterable<RunResult>): Generator<string> {
  for (const part of parts)
    for (const finding of part.findings ?? []) yield JSON.stringify(finding, jsonSafe, 2).replace(/^/gm, '    ');
}

/**
 * results.json of a dossier in pieces (Reporter.onDossierEnd): the text renderJson writes for the
 * merged dossier, its checks written a part at a time and its findings on a second pass.
 */
function* renderDossierJson(head: RunResult, parts: Iterable<RunResult>): Generator<string> {
  const nonce = randomBytes(8).toString('hex');
  const checkCount = (head.parts ?? []).reduce((n, p) => n + p.checkCount, 0);
  const findingCount = (head.parts ?? []).reduce((n, p) => n + p.findingCount, 0);
  const placed = {
    ...head,
    checks: `${nonce}:checks`,
    ...(head.findings ? { findings: `${nonce}:findings` } : {}),
  };
  const text = JSON.stringify(placed, jsonSafe, 2);
  const [beforeChecks = '', afterChecks = ''] = text.split(`"${nonce}:checks"`);
  const [between = '', rest = ''] = head.findings ? afterChecks.split(`"${nonce}:findings"`) : [afterChecks, ''];
  yield jsonDisplaySafe(beforeChecks);
  for (const piece of arrayText(checkCount, partChecks(parts, nonce))) yield jsonDisplaySafe(piece);
  yield jsonDisplaySafe(between);
  if (head.findings) {
    for (const piece of arrayText(findingCount, partFindings(parts))) yield jsonDisplaySafe(piece);
    yield jsonDisplaySafe(rest);
  }
  yield '\n';
}

/** `--reporter json`. */
export const JSON_REPORTER = fileReporter({
  name: 'json',
  file: JSON_FILE,
  render: renderJson,
  renderDossier: renderDossierJson,
  readBy: 'other tools: the whole result, every field below',
});
