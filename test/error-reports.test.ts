import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAgainst } from '../src/schema/validator.js';
import { vendorFile } from './support/vendor-file.js';
import { ERROR_REPORT_FILES, renderErrorReport } from '../src/report/error-reports.js';
import { errorResult } from '../src/runner/error-result.js';
import { specDigestIfReadable } from '../src/spec/spec-digest.js';

const REASON = 'no target in CI: set SVC_BASE_URL (or --base-url) to the deployment to certify; <b>&"]]>';
const result = errorResult({
  spec: specDigestIfReadable(),
  certification: 'run',
  reason: REASON,
  startedAt: new Date(),
});

describe('the reports of an exit 2', () => {
  it('results.json is a results document (schemas/results.schema.json) with verdict error, the reason and no check', () => {
    const json = JSON.parse(renderErrorReport('json', result)) as Record<string, unknown>;
    expect(validateAgainst('results', json)).toEqual([]);
    expect(json).toMatchObject({ verdict: 'error', error: { reason: REASON }, checks: [], certification: 'run' });
  });

  it('junit.xml holds one errored testcase carrying the reason, valid against the JUnit XSD', () => {
    const xml = renderErrorReport('junit', result);
    expect(xml.match(/<testcase /g)).toHaveLength(1);
    expect(xml).toMatch(
      /<error message="no target in CI: set SVC_BASE_URL[^"]*&lt;b&gt;&amp;&quot;\]\]&gt;" type="usage">/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'error-junit-'));
    writeFileSync(join(dir, ERROR_REPORT_FILES.junit), xml);
    const lint = spawnSync(
      'xmllint',
      ['--noout', '--schema', vendorFile('junit/junit-10.xsd'), join(dir, 'junit.xml')],
      {
        encoding: 'utf8',
      },
    );
    expect(lint.status, lint.stderr).toBe(0);
  });

  it('summary.md and report.html lead with the error and show the reason as text, never markup', () => {
    const md = renderErrorReport('markdown', result);
    expect(md.split('\n')[0]).toBe('# ❌ svc-certify: Error: the certification did not start (exit 2)');
    expect(md).toContain('&lt;b&gt;');
    const html = renderErrorReport('html', result);
    expect(html).toContain('<h1>Error: the certification did not start (exit 2)</h1>');
    expect(html).toContain('&lt;b&gt;&amp;&quot;]]&gt;');
    expect(html).not.toContain('<b>');
  });
});
