// results.sarif validated against the vendored OASIS SARIF 2.1.0 schema: from a real scan (one rule
// per check, one result per finding) and from a run without findings (one result per check that
// did not pass).

import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSarif } from '../src/report/sarif.js';
import { assembleResult } from '../src/runner/assemble-result.js';
import type { RunResult } from '../src/runner/results.js';
import { scanCheckResults } from '../src/scan/scan-checks.js';
import { scanPaths } from '../src/scan/scan-paths.js';
import { makeRunResult } from './report-fixtures.js';
import { specDigest } from '../src/spec/spec-digest.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const schema = JSON.parse(
  readFileSync(new URL('./vendor/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

interface SarifLog {
  version: string;
  runs: Array<{
    tool: { driver: { rules: Array<{ id: string }> } };
    results: Array<{
      ruleId: string;
      message: { text: string };
      locations?: Array<{
        physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number } };
      }>;
    }>;
  }>;
}

let dir: string;
let scanResult: RunResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sarif-'));
  await writeFile(join(dir, 'app #1.js'), `const a = 1;\nconst k = "spk_live_${'ab'.repeat(24)}"; // sot_\n`);
  await writeFile(
    join(dir, 'session.har'),
    JSON.stringify({ log: { entries: [{ request: { url: `https://x/?t=sot_${'cd'.repeat(24)}` } }] } }),
  );
  const started = new Date();
  const outcome = await scanPaths([relative(process.cwd(), dir)]);
  const { checks, findings } = scanCheckResults(outcome, 1);
  scanResult = {
    ...assembleResult({
      spec: specDigest(),
      certification: 'scan',
      config: {},
      target: { baseUrl: dir, environment: 'unknown', embedded: false },
      startedAt: started,
      suites: ['scan'],
      checks,
    }),
    findings,
  };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SARIF reporter', () => {
  it('writes a valid SARIF 2.1.0 log for a scan: one rule per check, one result per finding', () => {
    const log = JSON.parse(renderSarif(scanResult)) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).toEqual([
      'scan.no-partner-key-string',
      'scan.no-org-token-string',
    ]);
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toEqual([
      'scan.no-partner-key-string',
      'scan.no-org-token-string',
      'scan.no-org-token-string',
    ]);
    const first = log.runs[0]!.results[0]!.locations![0]!.physicalLocation;
    expect(first.artifactLocation.uri).toMatch(/app%20%231\.js$/);
    expect(first.region).toEqual({ startLine: 2, startColumn: 12 });
    // A HAR finding has no region of the file: its line and column belong to the HAR part.
    const har = log.runs[0]!.results.find((r) =>
      r.locations![0]!.physicalLocation.artifactLocation.uri.endsWith('session.har'),
    )!;
    expect(har.locations![0]!.physicalLocation.region).toBeUndefined();
    expect(renderSarif(scanResult)).not.toContain('ab'.repeat(8));
  });

  it('writes a valid log for a certification without findings: a result per check that did not pass', () => {
    const run = makeRunResult();
    const log = JSON.parse(renderSarif(run)) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const notPassed = run.checks
      .filter((c) => c.status === 'failed' || c.status === 'error' || c.status === 'warning')
      .map((c) => c.id);
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toEqual(notPassed);
    expect(log.runs[0]!.tool.driver.rules).toHaveLength(run.checks.length);
  });

  it('names the string a bare finding found from the finding itself, whatever its check is called', () => {
    const bare = scanResult.findings!.filter((f) => f.kind === 'prefix');
    expect(bare.map((f) => f.prefix)).toEqual(['sot_']);
    const renamed: RunResult = {
      ...scanResult,
      findings: bare.flatMap((f) => [
        { ...f, check: 'scan.renamed-a', prefix: 'spk_' as const },
        { ...f, check: 'scan.renamed-partner-key', prefix: 'sot_' as const },
      ]),
    };
    const texts = (JSON.parse(renderSarif(renamed)) as SarifLog).runs[0]!.results.filter((r) =>
      r.ruleId.startsWith('scan.renamed'),
    ).map((r) => r.message.text);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/^The string spk_ reaches the browser/);
    expect(texts[1]).toMatch(/^The string sot_ reaches the browser/);
  });

  it('names both strings for a bare finding of results written before findings named their string', () => {
    const bare = scanResult.findings!.filter((f) => f.kind === 'prefix');
    const older: RunResult = { ...scanResult, findings: bare.map(({ prefix: _prefix, ...f }) => f) };
    const log = JSON.parse(renderSarif(older)) as SarifLog;
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const texts = log.runs[0]!.results.filter((r) => r.ruleId === bare[0]!.check).map((r) => r.message.text);
    expect(texts).toHaveLength(bare.length);
    expect(texts[0]).toMatch(/^The string spk_ or sot_ reaches the browser/);
  });

  it('the schema is the real one: it refuses a log without version', () => {
    expect(validate({ runs: [] })).toBe(false);
  });
});
