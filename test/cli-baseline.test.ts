// `--baseline` and `svc-certify baseline` as an operator uses them: a defective server's failures,
// adopted as a baseline, pass the gate; the same baseline against a conformant server fails as stale;
// an input the operator cannot give yet, accepted by the baseline, leaves the certification certified
// until the input is given and the check passes (then the entry is stale).

import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../src/runner/results.js';
import { freePort, provisionedRunArgs, run, start, tmp, type Ran } from './cli-support.js';
import { vendorFile } from './support/vendor-file.js';

const FAULT = 'conventions.message-not-localized';
const XSD = vendorFile('junit/junit-10.xsd');

function results(dir: string): RunResult {
  return JSON.parse(readFileSync(join(dir, 'r', 'results.json'), 'utf8')) as RunResult;
}

function expectOneLineError(ran: Ran, pattern: RegExp): void {
  expect(ran.code, ran.stdout).toBe(2);
  const lines = ran.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^svc-certify: /);
  expect(lines[0]).toMatch(pattern);
}

/** A fresh `serve --fault` for one run (activation codes are single-use: one sandbox per run). */
async function withFaultySandbox<T>(
  serveArgs: string[],
  use: (provision: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const work = tmp('svc-faulty-');
  const provisionFile = join(work, 'provision.json');
  const child = start(['serve', '--time-scale', '60', '--provision', provisionFile, '--fault', FAULT, ...serveArgs], {
    cwd: work,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  try {
    const deadline = Date.now() + 20_000;
    while (!/listening on http/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`serve did not start (exit ${child.exitCode}): ${out}${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return await use(JSON.parse(readFileSync(provisionFile, 'utf8')) as Record<string, unknown>);
  } finally {
    child.kill('SIGINT');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/** `run --suite conventions` against a fresh faulty sandbox: a selection, so at best `passed-not-certified`. */
async function runAgainstFaultySandbox(
  extra: string[],
  opts: { cwd: string; env?: Record<string, string> },
): Promise<Ran> {
  return withFaultySandbox([], (p) => {
    const target = [
      '--base-url',
      String(p.base_url),
      '--partner-key',
      String(p.partner_key),
      ...(p.activation_codes as string[]).flatMap((c) => ['--activation-code', c]),
      '--time-scale',
      '60',
      '--suite',
      'conventions',
      '--report-dir',
      'r',
    ];
    return run(['run', ...target, ...extra], opts);
  });
}

const DISABLED_KEY_CHECK = 'auth.disabled-partner-key-refused-403';

/**
 * The whole catalogue against a fresh faulty sandbox whose webhooks reach this run's receiver, with
 * every input but the disabled partner key (unless `withDisabledKey`): only that check can be left
 * needing input; --exhaust-limits, since the served sandbox provisions codes enough for the limits.
 */
async function runWholeCatalogue(extra: string[], opts: { cwd: string; withDisabledKey?: boolean }): Promise<Ran> {
  const port = await freePort();
  return withFaultySandbox(['--webhook-url', `http://127.0.0.1:${port}/hooks`, '--allow-loopback-webhooks'], (p) =>
    run(
      [
        ...provisionedRunArgs(p, opts.withDisabledKey ? [] : ['disabled_partner_key']),
        '--webhook-listen',
        `127.0.0.1:${port}`,
        '--exhaust-limits',
        '--report-dir',
        'r',
        ...extra,
      ],
      { cwd: opts.cwd },
    ),
  );
}

describe('--baseline and svc-certify baseline', () => {
  let failedIds: string[];
  let baselineFile: string;
  const work = tmp('svc-baseline-');

  beforeAll(async () => {
    // The defective server fails; its failures become the baseline in one command.
    const cwd = tmp();
    const first = await runAgainstFaultySandbox(['--reporter', 'json'], { cwd });
    expect(first.code, first.stderr).toBe(1);
    failedIds = results(cwd)
      .checks.filter((c) => c.status === 'failed')
      .map((c) => c.id);
    expect(failedIds).toContain('conventions.message-hebrew-for-lang-he');
    const adopted = await run(['baseline', join(cwd, 'r', 'results.json'), '--until', '2099-12-31'], { cwd });
    expect(adopted.code, adopted.stderr).toBe(0);
    baselineFile = join(work, 'known-failures.json');
    writeFileSync(baselineFile, adopted.stdout);
  }, 120_000);

  it('`baseline` writes every failure with a reason and the given date', () => {
    const b = JSON.parse(readFileSync(baselineFile, 'utf8')) as {
      expected_failures: Array<{ id: string; reason: string; until: string }>;
    };
    expect(b.expected_failures.map((e) => e.id)).toEqual(failedIds);
    for (const e of b.expected_failures) {
      expect(e.until).toBe('2099-12-31');
      expect(e.reason).not.toBe('');
    }
  });

  it('the defective server with its failures as the baseline passes the gate; reports show them apart', async () => {
    const cwd = tmp();
    const r = await runAgainstFaultySandbox(['--baseline', baselineFile], { cwd });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const res = results(cwd);
    // --suite conventions: a selection passes the gate (exit 0) but is never a certification.
    expect(res.verdict).toBe('passed-not-certified');
    expect(res.missing).toBeUndefined();
    expect(res.summary.failed).toBe(0);
    expect(res.summary.expected).toBe(failedIds.length);
    expect(res.baseline).toMatchObject({
      file: baselineFile,
      entries: failedIds.length,
      expected: failedIds.length,
      problems: [],
    });
    expect(res.checks.filter((c) => c.expected).map((c) => c.id)).toEqual(failedIds);

    // Console: the expected failures are marked and counted apart.
    expect(r.stdout).toMatch(new RegExp(`≈ ${failedIds[0]!.replace(/\./g, '\\.')}`));
    expect(r.stdout).toMatch(/expected failure \(baseline, until 2099-12-31\)/);
    // (The same fault leaves the Hebrew-by-default check a warning: counted, and no failure.)
    expect(r.stdout).toMatch(
      new RegExp(
        `^\\d+ passed, 0 failed, \\d+ skipped(, \\d+ warnings?)?, ${failedIds.length} expected failures? \\(baseline\\)$`,
        'm',
      ),
    );

    // JUnit: a passing testcase whose system-out starts with EXPECTED FAILURE:, valid against the XSD.
    const junit = join(cwd, 'r', 'junit.xml');
    const lint = spawnSync('xmllint', ['--noout', '--schema', XSD, junit], { encoding: 'utf8' });
    expect(lint.status, lint.stderr).toBe(0);
    const id = failedIds[0]!;
    const xpath = (expr: string): string =>
      spawnSync('xmllint', ['--xpath', expr, junit], { encoding: 'utf8' }).stdout.replace(/\n$/, '');
    expect(xpath(`count(//testcase[@name="${id}"]/failure)`)).toBe('0');
    expect(xpath(`string(//testcase[@name="${id}"]/system-out)`)).toMatch(/^EXPECTED FAILURE: /);
    expect(xpath('string(/testsuites/@failures)')).toBe('0');

    // summary.md and report.html list them in their own section.
    const md = readFileSync(join(cwd, 'r', 'summary.md'), 'utf8');
    expect(md).toMatch(
      /^# ⚠️ svc-certify: Passed, not a certification\n\n- a selection \(--suite conventions\): \d+ checks of the catalogue not run/,
    );
    expect(md).toContain('## Expected failures (baseline)');
    expect(md).not.toContain('## Failed and error checks');
    const html = readFileSync(join(cwd, 'r', 'report.html'), 'utf8');
    expect(html).toContain(`data-status="expected" data-id="${id}"`);
    expect(html).toContain('id="baseline"');
  });

  it('the same baseline against the conformant (embedded) sandbox fails the run as stale', async () => {
    const cwd = tmp();
    const r = await run(
      ['run', '--embedded', '--suite', 'conventions', '--report-dir', 'r', '--baseline', baselineFile],
      { cwd },
    );
    expect(r.code).toBe(1);
    const res = results(cwd);
    expect(res.summary.failed).toBe(0);
    expect(res.verdict).toBe('not-certified');
    expect(res.baseline!.problems.map((p) => p.kind)).toEqual(failedIds.map(() => 'stale'));
    expect(r.stdout).toContain(`baseline entry "${failedIds[0]}" is stale: the check now passes; remove the entry`);
    const junit = join(cwd, 'r', 'junit.xml');
    expect(spawnSync('xmllint', ['--noout', '--schema', XSD, junit], { encoding: 'utf8' }).status).toBe(0);
    expect(readFileSync(junit, 'utf8')).toContain(
      `<testcase name="baseline.${failedIds[0]}" classname="svc-certify.baseline"`,
    );
    expect(readFileSync(join(cwd, 'r', 'summary.md'), 'utf8')).toContain('## Baseline problems');
  });

  it('an expired entry or an unknown id fails the run and says to remove or renew it (SVC_BASELINE)', async () => {
    const cwd = tmp();
    const file = join(cwd, 'b.json');
    writeFileSync(
      file,
      JSON.stringify({
        expected_failures: [
          { id: failedIds[0], reason: 'old', until: '2020-01-01' },
          { id: 'conventions.no-such-check', reason: 'typo', until: '2099-01-01' },
        ],
      }),
    );
    const r = await runAgainstFaultySandbox(['--reporter', 'console,json'], { cwd, env: { SVC_BASELINE: file } });
    expect(r.code).toBe(1);
    const res = results(cwd);
    expect(res.baseline!.problems.map((p) => p.kind)).toEqual(['expired', 'unknown']);
    expect(r.stdout).toContain(`expired on 2020-01-01: fix the failure and remove the entry, or renew its "until"`);
    expect(r.stdout).toContain('names no check of this certification: remove it');
    // The expired entry no longer hides its failure.
    expect(res.checks.find((c) => c.id === failedIds[0])!.expected).toBeUndefined();
  });

  it('an input the operator cannot give yet is accepted in expected_skips: passed, not a certification, until the check runs, then stale', async () => {
    const entry = {
      id: DISABLED_KEY_CHECK,
      reason: 'staging has no disabled partner yet (TICKET-7)',
      until: '2099-12-31',
    };
    const failures = JSON.parse(readFileSync(baselineFile, 'utf8')) as {
      expected_failures: Array<Record<string, string>>;
    };
    const withSkip = join(work, 'with-skip.json');
    writeFileSync(withSkip, JSON.stringify({ expected_failures: failures.expected_failures, expected_skips: [entry] }));

    // Without the entry: the failures accepted, but the missing key leaves the certification incomplete (exit 3).
    const without = tmp();
    const incomplete = await runWholeCatalogue(['--baseline', baselineFile], { cwd: without });
    expect(incomplete.code, incomplete.stdout.slice(-3000)).toBe(3);
    expect(results(without).verdict).toBe('incomplete');
    expect(results(without).missing).toEqual([
      { kind: 'needs-input', what: '--disabled-partner-key', checks: [DISABLED_KEY_CHECK] },
    ]);
    expect(incomplete.stdout).toMatch(/^Incomplete: .*\n {2}--disabled-partner-key would run 1 check$/m);

    // With it: the skip is accepted until its date; nothing is missing, and the run passes (exit 0), but a
    // baseline entry applied, so it is not a certification.
    const cwd = tmp();
    const r = await runWholeCatalogue(['--baseline', withSkip], { cwd });
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    const res = results(cwd);
    expect(res.verdict).toBe('passed-not-certified');
    expect(res.uncertifiedBy).toEqual(['baseline']);
    expect(res.missing).toBeUndefined();
    expect(res.selection).toBeUndefined();
    expect(res.summary.failed).toBe(0);
    expect(res.baseline!.problems).toEqual([]);
    const skipped = res.checks.find((c) => c.id === DISABLED_KEY_CHECK)!;
    expect(skipped).toMatchObject({
      status: 'skipped',
      skipKind: 'needs-input',
      unlock: '--disabled-partner-key',
      expected: { reason: entry.reason, until: entry.until },
    });
    // Every other skip is not applicable to a sandbox: nothing else was left out.
    const otherSkips = res.checks.filter((c) => c.status === 'skipped' && c.id !== DISABLED_KEY_CHECK);
    expect(otherSkips.length).toBeGreaterThan(0);
    for (const c of otherSkips) expect(c.skipKind, c.id).toBe('not-applicable');
    expect(r.stdout).toContain(
      `skipped (needs input, accepted by the baseline until 2099-12-31): needs the key of a disabled partner`,
    );
    expect(r.stdout).toMatch(/^Passed, not a certification: /m);
    expect(r.stdout).not.toMatch(/^Certified/m);
    expect(r.stdout).toMatch(
      new RegExp(
        `^baseline .*with-skip\\.json: ${failedIds.length} expected failures?, 1 accepted skip of ${failedIds.length + 1} entries$`,
        'm',
      ),
    );
    expect(r.stdout).not.toContain('would run');
    const junit = join(cwd, 'r', 'junit.xml');
    expect(spawnSync('xmllint', ['--noout', '--schema', XSD, junit], { encoding: 'utf8' }).status).toBe(0);
    const xpath = (expr: string): string =>
      spawnSync('xmllint', ['--xpath', expr, junit], { encoding: 'utf8' }).stdout.replace(/\n$/, '');
    expect(xpath(`string(//testcase[@name="${DISABLED_KEY_CHECK}"]/skipped/@message)`)).toMatch(
      /^skipped \(needs input, accepted by the baseline until 2099-12-31\): /,
    );
    expect(readFileSync(join(cwd, 'r', 'summary.md'), 'utf8')).toMatch(
      /^# ⚠️ svc-certify: Passed, not a certification\n\n- the baseline accepted \d+ failures? and 1 skip: /,
    );

    // Once the key is given the check runs and passes: the entry is stale and fails the run (exit 1).
    const given = tmp();
    const stale = await runWholeCatalogue(['--baseline', withSkip], { cwd: given, withDisabledKey: true });
    expect(stale.code, stale.stdout.slice(-3000)).toBe(1);
    const after = results(given);
    expect(after.checks.find((c) => c.id === DISABLED_KEY_CHECK)).toMatchObject({ status: 'passed' });
    expect(after.checks.find((c) => c.id === DISABLED_KEY_CHECK)!.expected).toBeUndefined();
    expect(after.verdict).toBe('not-certified');
    expect(after.baseline!.problems).toEqual([
      {
        id: DISABLED_KEY_CHECK,
        kind: 'stale',
        message: `baseline entry "${DISABLED_KEY_CHECK}" is stale: the check now passes; remove the entry`,
      },
    ]);
    expect(stale.stdout).toContain(
      `baseline entry "${DISABLED_KEY_CHECK}" is stale: the check now passes; remove the entry`,
    );
  }, 120_000);

  it.each([
    ['missing file', null, /--baseline .*nope\.json cannot be read \(ENOENT\)/],
    ['not JSON', '{"expected_failures": [', /is not valid JSON/],
    ['wrong shape', '[]', /has no "expected_failures" array/],
    [
      'bad date',
      '{"expected_failures": [{"id": "x", "reason": "r", "until": "31.12.2026"}]}',
      /needs "until" as a date YYYY-MM-DD/,
    ],
  ])('a malformed baseline (%s) exits 2 with one line, before any check runs', async (_name, content, pattern) => {
    const cwd = tmp();
    const file = join(cwd, content === null ? 'nope.json' : 'b.json');
    if (content !== null) writeFileSync(file, content);
    const r = await run(['run', '--embedded', '--suite', 'conventions', '--report-dir', 'r', '--baseline', file], {
      cwd,
    });
    expectOneLineError(r, pattern);
  });

  it('`baseline` refuses an unreadable or foreign results file with one line', async () => {
    const cwd = tmp();
    expectOneLineError(await run(['baseline', join(cwd, 'none.json')], { cwd }), /none\.json cannot be read/);
    writeFileSync(join(cwd, 'x.json'), '{"hello": 1}');
    expectOneLineError(
      await run(['baseline', join(cwd, 'x.json')], { cwd }),
      /x\.json is not an svc-certify results\.json: at/,
    );
    expectOneLineError(
      await run(['baseline', join(cwd, 'x.json'), '--until', 'soon'], { cwd }),
      /--until must be a date YYYY-MM-DD/,
    );
  });
});
