// Operator experience: what a newcomer trips over first (issue "Operator experience").

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FILES, run, tmp } from './cli-support.js';

describe('svc-certify as a newcomer meets it', () => {
  it('a bare `svc-certify` shows the help on stderr and exits 2 (no command ran)', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Usage: svc-certify/);
    expect(r.stderr).toMatch(/no command given/);
  });

  it('`list --grep` matching nothing is exit 2, like `run --grep`', async () => {
    const list = await run(['list', '--grep', 'zzz-no-such-check']);
    const runGrep = await run(['run', '--embedded', '--grep', 'zzz-no-such-check']);
    expect(list.code).toBe(2);
    expect(runGrep.code).toBe(2);
    expect(list.stderr).toMatch(/matches no check/);
  });

  it('`--reporter console` writes no file and creates no report folder', async () => {
    const cwd = tmp();
    const r = await run(['run', '--embedded', '--grep', 'cert-empty', '--reporter', 'console'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(cwd, 'reports'))).toBe(false);
  });
});

describe('the console in CI, --quiet, and machine output', () => {
  it('a CI log (stdout not a terminal) prints each check once, then the verdict, counts and report paths', async () => {
    const cwd = tmp();
    const r = await run(['run', '--embedded'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(cwd, 'reports', 'results.json'), 'utf8')) as {
      checks: Array<{ id: string; status: string }>;
    };
    for (const { id } of results.checks) expect(r.stdout.split(`${id}  `).length - 1, id).toBe(1);
    // A clean run's record for tools stays small (it was 3.9-5.3 MB with every exchange in full; 0.75 MB
    // before the exploration, whose 17 checks keep the ~200 requests they generate, about 0.2 MB; the
    // three rate-limit bursts keep 2 × (limit + 1) exchanges each, about 0.75 MB, and the timeline 15 KB).
    expect(statSync(join(cwd, 'reports', 'results.json')).size).toBeLessThan(2_000_000);
    const lines = r.stdout.trimEnd().split('\n');
    // One line per check, a reason line under each that did not pass, a progress line now and then (at
    // most one a check in a CI log: the long waits and the exploration's cases), a blank line and the
    // ending lines.
    const notPassed = results.checks.filter((c) => c.status !== 'passed').length;
    const progress = lines.filter((l) => l.startsWith('… ')).length;
    expect(progress).toBeLessThanOrEqual(30);
    expect(lines.length).toBeLessThan(results.checks.length + notPassed + progress + 10);
    expect(lines.at(-1)).toBe(
      'reports: reports/junit.xml, reports/report.html, reports/results.json, reports/summary.md',
    );
    expect(lines.at(-2)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
    for (const file of REPORT_FILES) expect(existsSync(join(cwd, 'reports', file)), file).toBe(true);
  });

  it('--quiet and SVC_QUIET=1 print only what needs attention, the verdict, counts and report paths', async () => {
    const ways: Array<{ args: string[]; env: Record<string, string> }> = [
      { args: ['--quiet'], env: {} },
      { args: [], env: { SVC_QUIET: '1' } },
    ];
    for (const how of ways) {
      const cwd = tmp();
      const r = await run(['run', '--embedded', '--grep', 'cert-empty', ...how.args], { cwd, env: how.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^Passed, not a certification: http:\/\/127\.0\.0\.1:\d+\/v1 \(sandbox, .+\)$/),
        expect.stringMatching(/^ {2}a selection \(--grep "cert-empty"\): \d+ checks of the catalogue not run/),
        expect.stringMatching(/^\d+ passed, 0 failed, 0 skipped$/),
        'reports: reports/junit.xml, reports/report.html, reports/results.json, reports/summary.md',
      ]);
    }
    const bad = await run(['run', '--embedded', '--grep', 'cert-empty'], { env: { SVC_QUIET: 'yes' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/SVC_QUIET must be 1, 0, true or false/);
  });

  it('--reporter json:- writes results.json to stdout for a pipe, and no file; with console, the console goes to stderr', async () => {
    const cwd = tmp();
    const piped = await run(['run', '--embedded', '--grep', 'cert-empty', '--reporter', 'json:-'], { cwd });
    expect(piped.code, piped.stderr).toBe(0);
    const result = JSON.parse(piped.stdout) as { verdict: string; checks: unknown[] };
    expect(result.verdict).toBe('passed-not-certified');
    expect(result.checks.length).toBeGreaterThan(0);
    expect(existsSync(join(cwd, 'reports'))).toBe(false);

    const both = await run(['run', '--embedded', '--grep', 'cert-empty', '--reporter', 'console,json:-'], { cwd });
    expect(both.code, both.stderr).toBe(0);
    expect((JSON.parse(both.stdout) as { verdict: string }).verdict).toBe('passed-not-certified');
    expect(both.stderr).toMatch(/^Passed, not a certification:/m);
    expect(both.stderr).toMatch(/^✓ fixtures\.cert-empty\./m);

    for (const [list, message] of [
      ['json:-,junit:-', /would interleave on stdout/],
      ['console:-', /console:- is the console itself/],
    ] as const) {
      const refused = await run(['run', '--embedded', '--reporter', list], { cwd });
      expect(refused.code, list).toBe(2);
      expect(refused.stderr).toMatch(message);
    }
  });

  it("`list` shows every command's checks; --json gives them to tools; --suite receiver and --command work", async () => {
    const json = await run(['list', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const { checks } = JSON.parse(json.stdout) as {
      checks: Array<{
        command: string;
        suite: string;
        id: string;
        title: string;
        spec: string[];
        needs: string[];
        evidence: string;
        warns: string[];
      }>;
    };
    const commands = new Set(checks.map((c) => c.command));
    expect([...commands]).toEqual(['run', 'partner', 'receiver', 'scan']);
    for (const c of checks) {
      expect(c.id.startsWith(`${c.suite}.`), c.id).toBe(true);
      expect(c.title.length).toBeGreaterThan(0);
      expect(c.spec.length, c.id).toBeGreaterThan(0);
      expect(Array.isArray(c.needs)).toBe(true);
      // How the check gets its evidence, and what may make it warn (empty: it cannot).
      expect(['provoked', 'conditional', 'input'], c.id).toContain(c.evidence);
      expect(Array.isArray(c.warns)).toBe(true);
    }
    expect(new Set(checks.map((c) => `${c.command} ${c.id}`)).size).toBe(checks.length);
    expect(checks.some((c) => c.id === 'receiver.url-is-deliverable')).toBe(true);
    expect(checks.some((c) => c.id === 'scan.no-org-token-string')).toBe(true);

    const receiver = await run(['list', '--suite', 'receiver']);
    expect(receiver.code, receiver.stderr).toBe(0);
    expect(receiver.stdout).toContain('receiver.acknowledges-run-completed');
    expect(receiver.stdout).not.toContain('auth.');
    expect(receiver.stdout).toContain('evidence: provoked');
    expect(receiver.stdout).toContain('evidence: input (unlocked by --url');
    expect(receiver.stdout).toMatch(
      /may warn: the delivery and a plain one naming the same organization and run are both refused/,
    );

    const partner = await run(['list', '--command', 'partner', '--json']);
    const partnerChecks = (JSON.parse(partner.stdout) as { checks: Array<{ command: string }> }).checks;
    expect(partnerChecks.length).toBe(checks.filter((c) => c.command === 'partner').length);
    expect(partnerChecks.every((c) => c.command === 'partner')).toBe(true);

    const unknown = await run(['list', '--command', 'serve']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--command: unknown command "serve"; choose from run, partner, receiver, scan/);
  });
});

describe('--help names every reporter', () => {
  it('run --help lists sarif beside the defaults, and NAME:- for stdout', async () => {
    const r = await run(['run', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /--reporter <list>\s+console,junit,html,json,markdown\s+\(default\s+all\),\s+or\s+sarif;\s+NAME:-\s+writes\s+that\s+report\s+to\s+stdout/,
    );
  });
});
