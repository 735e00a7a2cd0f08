// `svc-certify report`: one dossier from several certifications' results, and a single results.json
// re-rendered byte for byte as its run wrote it.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { capPassedEvidence } from '../src/runner/evidence-caps.js';
import type { RunResult } from '../src/runner/results.js';
import { REPORT_FILES, run, tmp } from './cli-support.js';
import { makeIncompleteRunResult, makeInterruptedRunResult } from './report-fixtures.js';
import { vendorFile } from './support/vendor-file.js';

const XSD = vendorFile('junit/junit-10.xsd');
const KEY = `spk_live_${'0123456789abcdef'.repeat(3)}`;

function read(dir: string, file: string): string {
  return readFileSync(join(dir, file), 'utf8');
}

function expectSameReports(a: string, b: string): void {
  for (const file of REPORT_FILES) expect(read(b, file), file).toBe(read(a, file));
}

describe('svc-certify report', () => {
  const cwd = tmp('svc-report-');

  beforeAll(async () => {
    // The service (the embedded sandbox, whole catalogue: it provisions every input) is certified; a
    // selection of it only passes as a selection; a partner bundle that holds a key fails the scan.
    const service = await run(['run', '--embedded', '--report-dir', 'service'], { cwd });
    expect(service.code, service.stdout.slice(-2000)).toBe(0);
    const selection = await run(['run', '--embedded', '--suite', 'conventions,auth', '--report-dir', 'selection'], {
      cwd,
    });
    expect(selection.code, selection.stderr).toBe(0);
    // Verdicts a run cannot be made to reach on demand here, as results.json files (written as the CLI writes them).
    writeFileSync(join(cwd, 'incomplete.json'), `${JSON.stringify(makeIncompleteRunResult(), null, 2)}\n`);
    writeFileSync(join(cwd, 'interrupted.json'), `${JSON.stringify(makeInterruptedRunResult(), null, 2)}\n`);
    mkdirSync(join(cwd, 'web'));
    writeFileSync(join(cwd, 'web', 'app.js'), `const key = "${KEY}";\n`);
    const scan = await run(['scan', 'web', '--report-dir', 'scan'], { cwd });
    expect(scan.code, scan.stderr).toBe(1);
  }, 120_000);

  it('re-renders a single results.json byte-identical to the reports of its run, with its exit code', async () => {
    const service = JSON.parse(read(join(cwd, 'service'), 'results.json')) as RunResult;
    expect(service.verdict).toBe('certified');
    const r = await run(['report', 'service/results.json', '--report-dir', 'again'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expectSameReports(join(cwd, 'service'), join(cwd, 'again'));
    const sel = await run(['report', 'selection/results.json', '--report-dir', 'selection-again'], { cwd });
    expect(sel.code, sel.stderr).toBe(0);
    expectSameReports(join(cwd, 'selection'), join(cwd, 'selection-again'));
    const s = await run(['report', 'scan/results.json', '--report-dir', 'scan-again'], { cwd });
    expect(s.code, s.stderr).toBe(1);
    expectSameReports(join(cwd, 'scan'), join(cwd, 'scan-again'));
  });

  it('gives a re-rendered incomplete result exit 3 and an interrupted one 130, reports written', async () => {
    const i = await run(['report', 'incomplete.json', '--report-dir', 'incomplete'], { cwd });
    expect(i.code, i.stderr).toBe(3);
    expect(i.stdout).toMatch(
      /^Incomplete: .*\n {2}--webhook-secret \(with --webhook-public-url\) would run 2 checks\n {2}--disabled-partner-key would run 1 check\n/m,
    );
    expect(read(join(cwd, 'incomplete'), 'summary.md').split('\n')[0]).toBe('# ⚠️ svc-certify: Incomplete');
    expect(JSON.parse(read(join(cwd, 'incomplete'), 'results.json'))).toEqual(
      capPassedEvidence(makeIncompleteRunResult()),
    );
    const x = await run(['report', 'interrupted.json', '--report-dir', 'interrupted'], { cwd });
    expect(x.code, x.stderr).toBe(130);
    expect(x.stdout).toMatch(/^Interrupted: .*\n {2}interrupted by SIGINT: /m);
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, join(cwd, 'interrupted', 'junit.xml')], {
      encoding: 'utf8',
    });
    expect(lint.status, lint.stderr).toBe(0);
  });

  it('a dossier takes the worst verdict of its parts, and its exit code', async () => {
    // A certified service and a passed selection: a selection, not a certification (exit 0).
    const sel = await run(['report', 'service/results.json', 'selection/results.json', '--report-dir', 'd-selection'], {
      cwd,
    });
    expect(sel.code, sel.stderr).toBe(0);
    const dossier = JSON.parse(read(join(cwd, 'd-selection'), 'results.json')) as RunResult;
    expect(dossier.verdict).toBe('passed-not-certified');
    expect(dossier.parts!.map((p) => p.verdict)).toEqual(['certified', 'passed-not-certified']);
    expect(sel.stdout).toMatch(/^Passed, not a certification \(dossier of 2 certifications\)$/m);
    expect(sel.stdout).toMatch(
      /^ {2}a selection \(--suite conventions,auth\): \d+ checks of the catalogue not run; this is not a certification$/m,
    );
    const md = read(join(cwd, 'd-selection'), 'summary.md');
    expect(md.split('\n')[0]).toBe('# ⚠️ svc-certify dossier: Passed, not a certification');
    expect(md).toMatch(/^\| Service API \| .* \| Passed, not a certification \| \d+ passed, 0 failed, 0 skipped \|$/m);
    expect(md).toMatch(
      /^## ⚠️ Service API: Passed, not a certification\n\n- a selection \(--suite conventions,auth\)/m,
    );
    const html = read(join(cwd, 'd-selection'), 'report.html');
    expect(html).toContain(
      '<h1>svc-certify dossier <span class="verdict passed-not-certified" id="verdict">Passed, not a certification</span></h1>',
    );
    expect(html).toMatch(
      /<h2 class="cert-title">Service API <span class="verdict passed-not-certified">Passed, not a certification<\/span><\/h2><ul class="verdict-notes"><li>a selection \(--suite conventions,auth\)/,
    );
    // An incomplete part makes the dossier incomplete (3); an interrupted one, interrupted (130); a failure wins over incomplete.
    const inc = await run(['report', 'service/results.json', 'incomplete.json', '--report-dir', 'd-incomplete'], {
      cwd,
    });
    expect(inc.code, inc.stderr).toBe(3);
    expect((JSON.parse(read(join(cwd, 'd-incomplete'), 'results.json')) as RunResult).verdict).toBe('incomplete');
    expect(inc.stdout).toMatch(/^Incomplete \(dossier of 2 certifications\)$/m);
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, join(cwd, 'd-incomplete', 'junit.xml')], {
      encoding: 'utf8',
    });
    expect(lint.status, lint.stderr).toBe(0);
    expect(read(join(cwd, 'd-incomplete'), 'junit.xml')).toContain('<property name="verdict" value="incomplete"/>');
    const int = await run(['report', 'incomplete.json', 'interrupted.json', '--report-dir', 'd-interrupted'], { cwd });
    expect(int.code, int.stderr).toBe(130);
    const worst = await run(['report', 'incomplete.json', 'scan/results.json', '--report-dir', 'd-failed'], { cwd });
    expect(worst.code, worst.stderr).toBe(1);
    // Re-rendered, each dossier is itself, exit code included.
    const again = await run(['report', 'd-incomplete/results.json', '--report-dir', 'd-incomplete-again'], { cwd });
    expect(again.code).toBe(3);
    expectSameReports(join(cwd, 'd-incomplete'), join(cwd, 'd-incomplete-again'));
  });

  it('merges several certifications into one dossier: a section each, one verdict', async () => {
    const r = await run(['report', 'service/results.json', 'scan/results.json', '--report-dir', 'dossier'], { cwd });
    expect(r.code).toBe(1);
    const dir = join(cwd, 'dossier');
    const service = JSON.parse(read(join(cwd, 'service'), 'results.json')) as RunResult;
    const scan = JSON.parse(read(join(cwd, 'scan'), 'results.json')) as RunResult;
    const dossier = JSON.parse(read(dir, 'results.json')) as RunResult;
    expect(dossier.certification).toBe('dossier');
    expect(dossier.verdict).toBe('not-certified');
    expect(dossier.parts!.map((p) => [p.certification, p.verdict, p.checkCount])).toEqual([
      ['run', 'certified', service.checks.length],
      ['scan', 'not-certified', scan.checks.length],
    ]);
    expect(dossier.checks.map((c) => c.id)).toEqual([...service.checks, ...scan.checks].map((c) => c.id));
    expect(dossier.summary.total).toBe(service.summary.total + scan.summary.total);
    expect(dossier.summary.failed).toBe(scan.summary.failed);
    expect(dossier.findings).toEqual(scan.findings);

    // One JUnit, valid, each certification's suites named after it.
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, join(dir, 'junit.xml')], { encoding: 'utf8' });
    expect(lint.status, lint.stderr).toBe(0);
    const junit = read(dir, 'junit.xml');
    expect(junit).toContain(
      `<testsuites name="svc-certify" tests="${dossier.summary.total}" failures="${dossier.summary.failed}"`,
    );
    expect(junit).toContain('<testsuite name="Service API › conventions"');
    expect(junit).toContain('<testsuite name="Partner bundles and traffic › scan"');

    // One HTML: a section per certification under one verdict.
    const html = read(dir, 'report.html');
    expect(html).toContain(
      '<h1>svc-certify dossier <span class="verdict not-certified" id="verdict">Not certified</span></h1>',
    );
    expect(html.match(/<section class="certification"/g)).toHaveLength(2);
    expect(html).toContain('<h2 class="cert-title">Service API <span class="verdict certified">Certified</span></h2>');
    expect(html).toContain(
      '<h2 class="cert-title">Partner bundles and traffic <span class="verdict not-certified">Not certified</span></h2>',
    );
    expect(html).not.toContain(KEY);

    // One summary.md: the verdict, a row per certification, then each one's summary.
    const md = read(dir, 'summary.md');
    expect(md.split('\n')[0]).toBe('# ❌ svc-certify dossier: Not certified');
    // The service's skips are all not applicable to a sandbox: certified regardless.
    expect(md).toMatch(/^\| Service API \| .* \| Certified \| \d+ passed, 0 failed, \d+ skipped \|$/m);
    expect(md).toMatch(/^## ✅ Service API: Certified$/m);
    expect(md).toMatch(/^## ❌ Partner bundles and traffic: Not certified$/m);
    expect(md.match(/^# /gm)).toHaveLength(1);
    expect(r.stdout).toMatch(/^Not certified \(dossier of 2 certifications\)$/m);

    // The dossier re-rendered is the dossier.
    const again = await run(['report', 'dossier/results.json', '--report-dir', 'dossier-again'], { cwd });
    expect(again.code).toBe(1);
    expectSameReports(dir, join(cwd, 'dossier-again'));
  });

  it('names the suites of two certifications of one kind apart in the JUnit', async () => {
    const r = await run(
      ['report', 'service/results.json', 'service/results.json', '--reporter', 'junit', '--report-dir', 'twice'],
      { cwd },
    );
    expect(r.code).toBe(0);
    const junit = read(join(cwd, 'twice'), 'junit.xml');
    expect(junit).toContain('<testsuite name="Service API › conventions"');
    expect(junit).toContain('<testsuite name="Service API (2) › conventions"');
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, join(cwd, 'twice', 'junit.xml')], {
      encoding: 'utf8',
    });
    expect(lint.status, lint.stderr).toBe(0);
  });

  it('takes --baseline over the whole dossier: the scan failure accepted, the gate passes, not certified', async () => {
    const adopted = await run(['baseline', 'dossier/results.json', '--until', '2099-01-01'], { cwd });
    expect(adopted.code, adopted.stderr).toBe(0);
    writeFileSync(join(cwd, 'known.json'), adopted.stdout);
    const r = await run(
      ['report', 'service/results.json', 'scan/results.json', '--baseline', 'known.json', '--report-dir', 'accepted'],
      { cwd },
    );
    expect(r.code, r.stdout.slice(-2000)).toBe(0);
    const dossier = JSON.parse(read(join(cwd, 'accepted'), 'results.json')) as RunResult;
    // An accepted failure passes the gate but is no certificate: only honest green is `certified`.
    expect(dossier.verdict).toBe('passed-not-certified');
    expect(dossier.uncertifiedBy).toEqual(['baseline']);
    expect(dossier.summary.expected).toBe(1);
    expect(dossier.parts!.map((p) => p.baseline?.problems.length)).toEqual([0, 0]);
  });

  it('refuses an input that is not a results.json with one line (exit 2)', async () => {
    writeFileSync(join(cwd, 'junk.json'), '{"checks": 1}');
    for (const args of [
      ['report', 'missing.json'],
      ['report', 'junk.json'],
      ['report', 'service/results.json', 'junk.json'],
    ]) {
      const r = await run(args, { cwd });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        /^svc-certify: (missing\.json cannot be read|junk\.json is not an svc-certify results\.json)/,
      );
    }
  });

  it('refuses a results.json whose exchange reference names no earlier exchange, with one line (exit 2)', async () => {
    const data = JSON.parse(readFileSync(join(cwd, 'service', 'results.json'), 'utf8')) as {
      checks: Array<{ exchanges: unknown[] }>;
    };
    data.checks[0]!.exchanges.push({ sameAs: { check: 3, exchange: 0 } });
    writeFileSync(join(cwd, 'bad-ref.json'), JSON.stringify(data));
    const r = await run(['report', 'bad-ref.json'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^svc-certify: bad-ref\.json is not an svc-certify results\.json: checks\[0\]\.exchanges\[\d+\] refers to checks\[3\]\.exchanges\[0\], which is no earlier exchange$/,
      ),
    ]);
  });
});
