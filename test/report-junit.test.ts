import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUNIT_REPORTER, junitTime, renderJunit } from '../src/report/junit.js';
import { cdata, escapeXmlAttr, stripXmlIllegal } from '../src/report/xml-text.js';
import type { RunResult } from '../src/runner/results.js';
import {
  makeIncompleteRunResult,
  makeInterruptedRunResult,
  makePassingRunResult,
  makeRunResult,
  makeSelectionRunResult,
  makeWarningRunResult,
  RAW_SECRET,
  WARNING_MESSAGE,
} from './report-fixtures.js';
import { renderInTwoWorlds } from './support/determinism.js';
import { vendorFile } from './support/vendor-file.js';
import { redacted } from './support/redacted.js';

const XSD = vendorFile('junit/junit-10.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-junit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function xpath(file: string, expr: string): string {
  return execFileSync('xmllint', ['--xpath', expr, file], { encoding: 'utf8' }).replace(/\n$/, '');
}

describe('xml text helpers', () => {
  it('shows controls as visible escapes, strips what XML 1.0 cannot carry, keeps tab, newline, CR and astral characters', () => {
    expect(stripXmlIllegal('a\u0000b\u0008c\u000bd\u000ce\u001ff\ud800g\udc00h\ufffei\uffffj')).toBe(
      'a\\x00b\\x08c\\x0Bd\\x0Ce\\x1Ffghij',
    );
    // A right-to-left override would reorder the line a CI page shows.
    expect(stripXmlIllegal('passed \u202efailed\u202c \u2066x\u2069')).toBe(
      'passed \\u202Efailed\\u202C \\u2066x\\u2069',
    );
    expect(stripXmlIllegal('t\tn\nr\r😀é')).toBe('t\tn\nr\r😀é');
  });
  it('escapes attribute values, including whitespace that normalization would flatten', () => {
    expect(escapeXmlAttr('<a href="x">&\'\n\t')).toBe("&lt;a href=&quot;x&quot;&gt;&amp;'&#10;&#9;");
  });
  it('splits ]]> across CDATA sections', () => {
    expect(cdata('a]]>b')).toBe('<![CDATA[a]]]]><![CDATA[>b]]>');
  });
  it('formats times as seconds with three fraction digits and no unit', () => {
    expect(junitTime(83_456.7891)).toBe('83.457');
    expect(junitTime(0)).toBe('0.000');
    expect(junitTime(Number.NaN)).toBe('0.000');
    expect(junitTime(-5)).toBe('0.000');
  });
});

describe('junit reporter', () => {
  it('renders the expected structure', () => {
    const xml = renderJunit(makeRunResult());
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="svc-certify" tests="7" failures="2" errors="1" time="83.457">',
      ),
    ).toBe(true);
    expect(xml).toContain('<testsuite name="auth" tests="3" failures="1" errors="0" skipped="1" time="0.061">');
    expect(xml).toContain('<testcase name="auth.wrong-org-token-401" classname="svc-certify.auth" time="0.049">');
    expect(xml).toContain(
      '<failure message="A request with an unknown org token was accepted; the spec requires 401 unauthorized." type="nonconformance">',
    );
    expect(xml).toContain(
      '<error message="Cannot read properties of undefined (reading \'status\')" type="TypeError">',
    );
    expect(xml).toContain(
      '<skipped message="skipped (needs input): needs --disabled-partner-key (SVC_DISABLED_PARTNER_KEY)"/>',
    );
    // The verdict, and what it is missing, travel with every suite: a CI test tab shows skips only.
    expect(xml).toContain('<property name="verdict" value="not-certified"/>');
    expect(xml).toContain('<property name="verdict.note" value="--disabled-partner-key would run 1 check"/>');
    expect(xml).not.toMatch(/<testcase[^>]* file=/);
    expect(xml).not.toContain(RAW_SECRET);
    // Illegal characters are gone, the escape character included.
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    // Every time attribute of a suite matches the XSD's Surefire pattern without a unit.
    const times = [...xml.matchAll(/<testsuites? [^>]*time="([^"]*)"/g)].map((m) => m[1]);
    expect(times.length).toBeGreaterThan(1);
    for (const time of times) expect(time).toMatch(/^\d+\.\d{3}$/);
  });

  it('gives every testcase a unique name, even when ids repeat', () => {
    const result = makeRunResult();
    const [first] = result.checks;
    if (!first) throw new Error('the fixture has checks');
    result.checks.push({ ...first });
    const names = [...renderJunit(result).matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('auth.missing-partner-key-401 (2)');
  });

  it('is deterministic: the same result renders the same under another clock, zone and random source', async () => {
    const [a, b] = await renderInTwoWorlds(() => renderJunit(makeRunResult()));
    expect(a).toBe(b);
  });

  it('validates against the vendored junit-10.xsd and keeps the hostile text intact', async () => {
    expect(existsSync(XSD)).toBe(true);
    const reportDir = join(dir, 'nested', 'reports');
    await JUNIT_REPORTER.create().onRunEnd(redacted(makeRunResult()), { reportDir });
    const file = join(reportDir, 'junit.xml');
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
    expect(lint.stderr).toContain('validates');
    expect(lint.status).toBe(0);

    const out = xpath(file, 'string(//testcase[@name="auth.wrong-org-token-401"]/system-out)');
    expect(out).toContain('"weird":"ends ]]> here","also":"]]]]>"');
    expect(out).toContain('<script>window.__pwned = 1; alert(1)</script>');
    expect(out).toContain('HTTP 202');
    expect(out).toContain('POST https://partner.example.test/v1/runs');
    const failure = xpath(file, 'string(//testcase[@name="auth.wrong-org-token-401"]/failure)');
    expect(failure).toContain('expected: 401');
    expect(failure).toContain('received: 200');
    expect(failure).toContain('spec: Authentication');
    expect(failure).toContain('pointer: /name');
    expect(failure).toContain('Reproduce with:');
    expect(failure).toContain('-H "x-svc-partner-key: $SVC_PARTNER_KEY"');
    const hebrew = xpath(file, 'string(//testcase[@name="runs.read.hebrew-notices"]/system-out)');
    expect(hebrew).toContain('תיאור המשרה כללי מדי');
    // Controls shown as escapes (a CI page is not driven by them), what XML cannot carry removed.
    expect(hebrew).toContain('"ctl":"a\\x00b\\x07c\\x1B[31mRED\\x1B[0m\\x0Bd\\x0Cefgh"');
    // Lean JUnit: a passed check carries no exchanges (results.json and report.html keep them).
    expect(xpath(file, 'count(//testcase[@name="runs.read.long-body"]/system-out)').trim()).toBe('0');
    expect(xpath(file, 'string(//testcase[@name="runs.read.unknown-run-404"]/error)')).toContain(
      'at run (suites/runs-read.ts:42:17)',
    );
    expect(xpath(file, 'count(//testsuite)').trim()).toBe('3');
    expect(xpath(file, 'string(//testcase[@name="auth.disabled-partner-key-403"]/skipped/@message)')).toBe(
      'skipped (needs input): needs --disabled-partner-key (SVC_DISABLED_PARTNER_KEY)',
    );
  });

  it('shows the exchanges of a check that did not pass, a truncated body marked as such', async () => {
    const result = makeRunResult();
    const long = result.checks.find((c) => c.id === 'runs.read.long-body')!;
    long.status = 'failed';
    long.observations = [{ message: 'too long', spec: 'Endpoints' }];
    const reportDir = join(dir, 'long-failed');
    await JUNIT_REPORTER.create().onRunEnd(redacted(result), { reportDir });
    expect(xpath(join(reportDir, 'junit.xml'), 'string(//testcase[@name="runs.read.long-body"]/system-out)')).toContain(
      '[body truncated; 1048576 bytes in all]',
    );
  });

  it('validates a clean run too', async () => {
    const reportDir = join(dir, 'clean');
    await JUNIT_REPORTER.create().onRunEnd(redacted(makePassingRunResult()), { reportDir });
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, join(reportDir, 'junit.xml')], { encoding: 'utf8' });
    expect(lint.status, lint.stderr).toBe(0);
    expect(await readFile(join(reportDir, 'junit.xml'), 'utf8')).not.toContain('<failure');
  });

  it('shows a warning as a passing testcase whose system-out starts with WARNING:, XSD-valid', async () => {
    const reportDir = join(dir, 'warning');
    await JUNIT_REPORTER.create().onRunEnd(redacted(makeWarningRunResult()), { reportDir });
    const file = join(reportDir, 'junit.xml');
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
    expect(lint.status, lint.stderr).toBe(0);
    const testcase = '//testcase[@name="runs.read.counts-are-integers"]';
    // Passing: no failure, error or skipped child.
    expect(xpath(file, `count(${testcase}/*[self::failure or self::error or self::skipped])`)).toBe('0');
    const out = xpath(file, `string(${testcase}/system-out)`);
    expect(out.startsWith(`WARNING: ${WARNING_MESSAGE}`)).toBe(true);
    expect(out).toContain('spec: Resources and their fields › Run');
    expect(out).toContain('GET https://partner.example.test/v1/runs/r-9');
    expect(xpath(file, 'string(/testsuites/@failures)')).toBe('0');
  });

  const verdicts: Array<[string, () => RunResult, string[], Record<string, string>]> = [
    [
      'incomplete',
      makeIncompleteRunResult,
      ['--webhook-secret (with --webhook-public-url) would run 2 checks', '--disabled-partner-key would run 1 check'],
      {
        'auth.disabled-partner-key-403':
          'skipped (needs input): needs the key of a disabled partner: --disabled-partner-key or SVC_DISABLED_PARTNER_KEY',
        'runs.read.production-wallet':
          'skipped (not applicable): applies to production only; the target is the sandbox (x-svc-environment: sandbox, or --environment / SVC_ENVIRONMENT)',
      },
    ],
    [
      'interrupted',
      makeInterruptedRunResult,
      ['interrupted by SIGINT: the checks not ended are recorded as interrupted, nothing is blamed on the target'],
      {
        'runs.read.long-body':
          'skipped (interrupted): the certification was stopped (SIGINT/SIGTERM) before this check ended',
      },
    ],
    [
      'passed-not-certified',
      makeSelectionRunResult,
      ['a selection (--suite auth,webhooks): 170 checks of the catalogue not run; this is not a certification'],
      {},
    ],
  ];
  it.each(verdicts)(
    'renders a %s certification XSD-valid: no failure, its skips by kind, the verdict and its notes as properties',
    async (verdict, make, notes, skips) => {
      const result = make();
      expect(result.verdict).toBe(verdict);
      const reportDir = join(dir, `verdict-${verdict}`);
      await JUNIT_REPORTER.create().onRunEnd(redacted(result), { reportDir });
      const file = join(reportDir, 'junit.xml');
      const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
      expect(lint.status, lint.stderr).toBe(0);
      expect(xpath(file, 'string(/testsuites/@failures)')).toBe('0');
      expect(xpath(file, 'string(/testsuites/@errors)')).toBe('0');
      expect(xpath(file, 'count(//failure | //error)')).toBe('0');
      expect(xpath(file, 'sum(//testsuite/@skipped)')).toBe(String(result.summary.skipped));
      for (const [id, message] of Object.entries(skips))
        expect(xpath(file, `string(//testcase[@name="${id}"]/skipped/@message)`)).toBe(message);
      // Every suite carries the verdict and the notes under it, in order.
      const suites = Number(xpath(file, 'count(//testsuite)'));
      expect(suites).toBe(result.suites.length);
      expect(xpath(file, `count(//testsuite/properties/property[@name="verdict" and @value="${verdict}"])`)).toBe(
        String(suites),
      );
      const firstNotes = xpath(file, '//testsuite[1]/properties/property[@name="verdict.note"]/@value')
        .split('\n')
        .map((line) => line.trim().replace(/^value="(.*)"$/, '$1'))
        .filter(Boolean);
      expect(firstNotes).toEqual(notes);
    },
  );

  it('gives a certified run the verdict property and no note', async () => {
    const xml = renderJunit(makePassingRunResult());
    expect(xml).toContain('<property name="verdict" value="certified"/>');
    expect(xml).not.toContain('verdict.note');
  });

  // Validation is the point of these tests: a machine without xmllint fails here with the fix, never skips.
  it('has xmllint to validate with (apt-get install libxml2-utils; .ci/run installs it)', () => {
    expect(hasXmllint).toBe(true);
  });
});
