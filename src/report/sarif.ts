// results.sarif (SARIF 2.1.0), for code-scanning tabs: one rule per check, one result per scan
// finding (file, line, column); for a certification without findings, one result per check that
// did not pass. Deterministic for a given RunResult.

import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckResult, RunResult, ScanFinding } from '../runner/results.js';
import { fileReporter } from './reporter.js';
import { ORG_TOKEN, PARTNER_KEY, SECRET_BODY_LENGTH } from '../secret-shapes.js';
import { jsonDisplaySafe, terminalSafe } from './terminal-safe.js';

const SARIF_FILE = 'results.sarif';
const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

type Json = Record<string, unknown>;

/** A file path as a URI reference: relative paths stay relative (code scanning resolves them against the checkout). */
function pathToUri(path: string): string {
  if (isAbsolute(path)) return pathToFileURL(path).href;
  const posix = path.split(sep).join('/');
  return encodeURI(posix).replace(/[?#]/g, (c) => encodeURIComponent(c));
}

const KIND_TEXT: Record<ScanFinding['kind'], string> = {
  'partner-key': `A partner key (${PARTNER_KEY.prefix} + ${SECRET_BODY_LENGTH} hex)`,
  'org-token': `An org token (${ORG_TOKEN.prefix} + ${SECRET_BODY_LENGTH} hex)`,
  prefix: 'The string',
  'not-scanned': 'Content not scanned within the bounds of svc-certify scan (it may hold the string)',
};

function findingResult(f: ScanFinding, ruleIndex: number): Json {
  const what = f.kind === 'prefix' ? `${KIND_TEXT.prefix} ${f.prefix ?? 'spk_ or sot_'}` : KIND_TEXT[f.kind];
  const where = f.location ? ` in ${f.location}, line ${f.line}, column ${f.column}` : '';
  const physical: Json = { artifactLocation: { uri: pathToUri(f.file) } };
  // Line and column are the file's own only for plain text; inside a HAR part or a source they are the part's.
  if (f.location === null) physical.region = { startLine: f.line, startColumn: f.column };
  return {
    ruleId: terminalSafe(f.check),
    ruleIndex,
    level: 'error',
    kind: 'fail',
    message: { text: terminalSafe(`${what} reaches the browser${where}: ${f.excerpt}`) },
    locations: [
      { physicalLocation: physical, ...(f.location ? { logicalLocations: [{ fullyQualifiedName: f.location }] } : {}) },
    ],
    properties: { kind: f.kind, line: f.line, column: f.column, ...(f.location ? { location: f.location } : {}) },
  };
}

function checkResult(c: CheckResult, ruleIndex: number): Json {
  return {
    ruleId: terminalSafe(c.id),
    ruleIndex,
    level: c.status === 'warning' ? 'warning' : 'error',
    kind: 'fail',
    message: { text: terminalSafe(c.message || c.title) },
  };
}

export function renderSarif(result: RunResult): string {
  const rules = result.checks.map((c) => ({
    id: terminalSafe(c.id),
    name: terminalSafe(c.id),
    shortDescription: { text: terminalSafe(c.title) },
    fullDescription: { text: terminalSafe(`${c.title} (spec: ${c.spec.join('; ')})`) },
    defaultConfiguration: { level: 'error' },
    properties: { spec: c.spec, tags: [c.suite] },
  }));
  const index = new Map(result.checks.map((c, i) => [c.id, i]));
  const results: Json[] = [];
  for (const f of result.findings ?? []) results.push(findingResult(f, index.get(f.check) ?? 0));
  const withFindings = new Set((result.findings ?? []).map((f) => f.check));
  for (const c of result.checks) {
    const notPassed = c.status === 'failed' || c.status === 'error' || c.status === 'warning';
    if (notPassed && !withFindings.has(c.id)) results.push(checkResult(c, index.get(c.id) ?? 0));
  }
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: { name: result.tool.name, version: result.tool.version, semanticVersion: result.tool.version, rules },
        },
        invocations: [{ executionSuccessful: true, startTimeUtc: result.startedAt, endTimeUtc: result.finishedAt }],
        columnKind: 'unicodeCodePoints',
        results,
      },
    ],
  };
  // Ids and message texts show controls as visible escapes (a code-scanning page renders them); the
  // rest keeps its values, JSON-escaped.
  return `${jsonDisplaySafe(JSON.stringify(log, null, 2))}\n`;
}

/** `--reporter sarif`. */
export const SARIF_REPORTER = fileReporter({
  name: 'sarif',
  file: SARIF_FILE,
  render: renderSarif,
  readBy:
    'only with `--reporter …,sarif`: SARIF 2.1.0 for code-scanning tabs (one rule per check, one result per `scan` finding or per check that did not pass)',
});
