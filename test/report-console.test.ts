import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsoleReporter, resolveConsoleOptions } from '../src/report/console.js';
import { formatGroupedSummary, makeChalk, oneLine } from '../src/report/console-format.js';
import { terminalSafe } from '../src/report/terminal-safe.js';
import { createPlainConsoleReporter } from '../src/report/console-plain.js';
import type { RunStartInfo } from '../src/report/reporter.js';
import type { RunResult } from '../src/runner/results.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';
import { baselineMarker } from '../src/runner/baseline.js';
import {
  makeIncompleteRunResult,
  makeInterruptedRunResult,
  makePassingRunResult,
  makeRunResult,
  makeSelectionRunResult,
  makeWarningRunResult,
  WARNING_MESSAGE,
} from './report-fixtures.js';
import { renderInTwoWorlds } from './support/determinism.js';
import { redacted } from './support/redacted.js';

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/;

function capture(tty = false): { stream: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  if (tty) {
    stream.isTTY = true;
    stream.columns = 100;
  }
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return { stream, text: () => chunks.join('') };
}

function startInfo(result: RunResult): RunStartInfo {
  return {
    checks: result.checks.map(({ id, title, suite }) => ({ id, title, suite })),
    suites: result.suites,
    target: result.target,
  };
}

async function drive(reporter: ReturnType<typeof createConsoleReporter>, result: RunResult): Promise<void> {
  reporter.onRunStart?.(startInfo(result));
  for (const check of result.checks) {
    reporter.onCheckStart?.(check.id);
    reporter.onCheckEnd?.(check);
  }
  await reporter.onRunEnd(redacted(result), { reportDir: '/nonexistent/never-written' });
}

describe('console reporter, plain mode', () => {
  it('prints each check once, when it ends, with its reasons; the end adds the verdict and counts (snapshot)', async () => {
    const out = capture();
    const result = makeRunResult();
    await drive(createConsoleReporter({ stream: out.stream, interactive: false, color: false }), result);
    const text = out.text();
    expect(text).not.toMatch(ANSI);
    await expect(text).toMatchFileSnapshot('./__snapshots__/report-console-plain.txt');
    expect(text.split('\n')[0]).toBe('✓ auth.missing-partner-key-401  Missing partner key is refused with 401 (12 ms)');
    // A CI log is read top to bottom: a check printed twice (as it ended, then grouped) doubles it.
    for (const check of result.checks) expect(text.split(`${check.id}  `).length - 1, check.id).toBe(1);
    expect(text).toContain(
      '✗ auth.wrong-org-token-401  A wrong org token is refused with 401 (49 ms)\n    A request with an unknown org token was accepted',
    );
  });

  it('--quiet: only failures, errors and warnings, no progress, then the verdict and counts', async () => {
    const out = capture();
    const reporter = createConsoleReporter({ stream: out.stream, interactive: false, color: false, quiet: true });
    reporter.onCheckProgress?.('runs.read.long-body', 'cert-slow: 1/10 confirmed, 0:03 left');
    await drive(reporter, makeRunResult());
    const lines = out.text().trimEnd().split('\n');
    const checkLines = lines.filter((line) => /^[✓✗○!⚠] /.test(line));
    expect(checkLines.map((line) => line.split(' ')[1])).toEqual([
      'auth.wrong-org-token-401',
      'runs.read.hebrew-notices',
      'runs.read.unknown-run-404',
    ]);
    expect(out.text()).not.toContain('cert-slow');
    expect(lines.at(-1)).toBe('3 passed, 2 failed, 1 skipped, 1 error');
    expect(lines).toContain('Not certified: https://partner.example.test/v1 (sandbox, 1 min 23 s)');
  });

  it('--quiet on a terminal is plain too: no live task list to hide the few lines', () => {
    const out = capture(true);
    const reporter = createConsoleReporter({ stream: out.stream, interactive: true, color: false, quiet: true });
    reporter.onRunStart?.(startInfo(makePassingRunResult()));
    expect(out.text()).toBe('');
  });

  it('a result with no check events (a merged dossier, `report`) is listed whole at the end', async () => {
    const out = capture();
    const reporter = createConsoleReporter({ stream: out.stream, interactive: false, color: false });
    await reporter.onRunEnd(redacted(makeRunResult()), { reportDir: '/nonexistent/never-written' });
    expect(out.text()).toBe(`\n${formatGroupedSummary(makeRunResult(), makeChalk(false))}`);
  });

  it('shows a failure the baseline accepts as ≈ when it ends, as the reports will', async () => {
    const out = capture();
    const result = makeRunResult();
    const reporter = createConsoleReporter({
      stream: out.stream,
      interactive: false,
      color: false,
      markBaselined: baselineMarker({
        file: 'b.json',
        entries: [{ id: 'auth.wrong-org-token-401', reason: 'ticket 12', until: '2999-01-01' }],
      }),
    });
    await drive(reporter, result);
    expect(out.text()).toContain('≈ auth.wrong-org-token-401');
    expect(out.text()).toContain('expected failure (baseline, until 2999-01-01): ticket 12');
  });

  it('ends with the count line CI parsers read, and adds errors only when there are some', async () => {
    const out = capture();
    await drive(createConsoleReporter({ stream: out.stream, interactive: false, color: false }), makeRunResult());
    const lines = out.text().trimEnd().split('\n');
    expect(lines.at(-1)).toBe('3 passed, 2 failed, 1 skipped, 1 error');

    const clean = capture();
    await drive(
      createConsoleReporter({ stream: clean.stream, interactive: false, color: false }),
      makePassingRunResult(),
    );
    expect(clean.text().trimEnd().split('\n').at(-1)).toBe('3 passed, 0 failed, 0 skipped');
  });

  it('indents the first observation, expected and received under a failure', () => {
    const text = formatGroupedSummary(makeRunResult(), makeChalk(false));
    expect(text).toContain(
      [
        '  ✗ auth.wrong-org-token-401  A wrong org token is refused with 401 (49 ms)',
        '      A request with an unknown org token was accepted; the spec requires 401 unauthorized.',
        '      expected: 401',
        '      received: 200',
        '      spec: Authentication',
        '      +1 more observation in report.html',
      ].join('\n'),
    );
    // The skip says its kind: a missing input, which (failures aside) would leave the run incomplete.
    expect(text).toContain(
      '  ○ auth.disabled-partner-key-403  A disabled partner key is refused (0 ms)\n      skipped (needs input): needs --disabled-partner-key',
    );
    expect(text).toContain(
      "  ! runs.read.unknown-run-404  An unknown run id is 404 not_found (3 ms)\n      engine error: TypeError: Cannot read properties of undefined (reading 'status')",
    );
  });

  it('marks a warning with its own symbol and message, counts it, and certifies unless strict', () => {
    const text = formatGroupedSummary(makeWarningRunResult(), makeChalk(false));
    expect(text).toContain(
      [
        '  ⚠ runs.read.counts-are-integers  Counts are JSON integers (20 ms)',
        `      warning: ${WARNING_MESSAGE}`,
        '      expected: integer',
        '      received: 3.0',
        '      at: /candidate_count',
        '      spec: Resources and their fields › Run',
      ].join('\n'),
    );
    expect(text).toContain('runs-read (1/2 passed, 1 with a warning)');
    expect(text).toMatch(/^Certified: /m);
    expect(text.trimEnd().split('\n').at(-1)).toBe('3 passed, 0 failed, 0 skipped, 1 warning');
    expect(formatGroupedSummary(makeWarningRunResult(true), makeChalk(false))).toMatch(/^Not certified: /m);
  });

  it('colours only when asked, and never the count line', async () => {
    const out = capture();
    await drive(createConsoleReporter({ stream: out.stream, interactive: false, color: true }), makeRunResult());
    const text = out.text();
    expect(text).toMatch(ANSI);
    expect(text.trimEnd().split('\n').at(-1)).toBe('3 passed, 2 failed, 1 skipped, 1 error');
  });

  it('neutralizes terminal escapes a target put in a body', () => {
    expect(terminalSafe('a\u001b[31mb\u0007c\u009bd')).toBe('a\\x1B[31mb\\x07c\\x9Bd');
    expect(oneLine('x'.repeat(500)).length).toBe(200);
    const result = makeRunResult();
    const observation = result.checks[1]?.observations[0];
    if (!observation) throw new Error('the fixture has a second check with an observation');
    observation.received = '\u001b]0;owned\u0007 200';
    expect(formatGroupedSummary(result, makeChalk(false))).not.toMatch(/\u001b/);
  });

  it('prints throttled progress lines for long waits', () => {
    const out = capture();
    let t = 0;
    const reporter = createPlainConsoleReporter({ stream: out.stream, chalk: makeChalk(false), now: () => t });
    reporter.onCheckProgress?.('runs.cert-slow', 'cert-slow: 7/10 confirmed, 1:12 left');
    t = 5_000;
    reporter.onCheckProgress?.('runs.cert-slow', 'cert-slow: 8/10 confirmed, 1:02 left');
    t = 16_000;
    reporter.onCheckProgress?.('runs.cert-slow', 'cert-slow: 9/10 confirmed, 0:30 left');
    expect(out.text()).toBe(
      '… runs.cert-slow: cert-slow: 7/10 confirmed, 1:12 left\n… runs.cert-slow: cert-slow: 9/10 confirmed, 0:30 left\n',
    );
  });

  it('is deterministic: the same result prints the same under another clock, zone and random source', async () => {
    const [a, b] = await renderInTwoWorlds(async () => {
      const out = capture();
      await drive(createConsoleReporter({ stream: out.stream, interactive: false, color: false }), makeRunResult());
      return out.text();
    });
    expect(a).toBe(b);
  });

  it('defaults to plain, uncoloured output on a non-TTY stream', () => {
    const out = capture();
    expect(resolveConsoleOptions({ stream: out.stream })).toMatchObject({ interactive: false, color: false });
  });
});

describe('console reporter, verdicts that are neither certified nor not certified', () => {
  const plain = makeChalk(false);
  const verdictLine = (text: string): string =>
    text.split('\n').find((line) => line.includes('https://partner.example.test/v1 ('))!;

  it('incomplete: the skip kinds, then what is missing grouped by the input that would run it', () => {
    const result = makeIncompleteRunResult();
    expect(result.verdict).toBe('incomplete');
    const text = formatGroupedSummary(result, plain);
    expect(text).toContain(
      '  ○ auth.disabled-partner-key-403  A disabled partner key is refused (0 ms)\n      skipped (needs input): needs the key of a disabled partner',
    );
    expect(text).toContain(
      '  ○ runs.read.production-wallet  A reveal is charged to the wallet (0 ms)\n      skipped (not applicable): applies to production only',
    );
    expect(text).toContain(
      [
        'Incomplete: https://partner.example.test/v1 (sandbox, 1 min 23 s)',
        '  --webhook-secret (with --webhook-public-url) would run 2 checks',
        '  --disabled-partner-key would run 1 check',
        '3 passed, 0 failed, 4 skipped',
      ].join('\n'),
    );
    expect(text).not.toMatch(/Certified/);
  });

  it('interrupted: the signal named, the checks it stopped skipped (interrupted), nothing failed', () => {
    const result = makeInterruptedRunResult();
    expect(result.verdict).toBe('interrupted');
    const text = formatGroupedSummary(result, plain);
    expect(text).toContain(
      '  ○ runs.read.long-body  A large page of candidates is readable (30.0 s)\n      skipped (interrupted): the certification was stopped (SIGINT/SIGTERM) before this check ended',
    );
    expect(text).toContain(
      [
        'Interrupted: https://partner.example.test/v1 (sandbox, 1 min 23 s)',
        '  interrupted by SIGINT: the checks not ended are recorded as interrupted, nothing is blamed on the target',
        '1 passed, 0 failed, 2 skipped',
      ].join('\n'),
    );
    expect(text).not.toContain('✗');
  });

  it('passed-not-certified: never printed as "Certified", and says what the selection left out', () => {
    const result = makeSelectionRunResult();
    expect(result.verdict).toBe('passed-not-certified');
    const text = formatGroupedSummary(result, plain);
    expect(verdictLine(text)).toBe(
      'Passed, not a certification: https://partner.example.test/v1 (sandbox, 1 min 23 s)',
    );
    expect(text).toContain(
      '\n  a selection (--suite auth,webhooks): 170 checks of the catalogue not run; this is not a certification\n2 passed, 0 failed, 0 skipped\n',
    );
    expect(text).not.toMatch(/^Certified/m);
  });

  it('colours only certified green and not-certified red; the others yellow', () => {
    const colour = makeChalk(true);
    const GREEN = '\u001b[32m';
    const RED = '\u001b[31m';
    const YELLOW = '\u001b[33m';
    const lineOf = (result: RunResult): string =>
      formatGroupedSummary(result, colour)
        .split('\n')
        .find((l) => l.includes('https://partner.example.test/v1'))!;
    expect(lineOf(resultWithVerdict(makePassingRunResult(), { strict: false })).startsWith(GREEN)).toBe(true);
    expect(lineOf(makeRunResult()).startsWith(RED)).toBe(true);
    for (const result of [makeIncompleteRunResult(), makeInterruptedRunResult(), makeSelectionRunResult()]) {
      const line = lineOf(result);
      expect(line.startsWith(YELLOW), line).toBe(true);
      expect(line).not.toContain(GREEN);
      expect(line).not.toContain(RED);
    }
  });

  it('a results.json written before skip kinds reads its skips as needs-input: incomplete, and says why', () => {
    const legacy = makeIncompleteRunResult();
    delete legacy.verdict;
    delete legacy.missing;
    for (const check of legacy.checks) {
      delete check.skipKind;
      delete check.unlock;
    }
    const text = formatGroupedSummary(legacy, plain);
    expect(verdictLine(text)).toMatch(/^Incomplete: /);
    expect(text).toContain('skipped (needs input): applies to production only');
    // Without an unlock, the reason names what would run the checks.
    expect(text).toContain(
      '  needs a webhook receiver: --webhook-secret or SVC_WEBHOOK_SECRET, with --webhook-public-url or SVC_WEBHOOK_PUBLIC_URL reaching --webhook-listen would run 2 checks',
    );
  });

  it('a missing input the baseline accepts: passed, not a certification, the skip marked accepted until its date', () => {
    const result = resultWithVerdict(
      makeIncompleteRunResult(),
      {
        strict: false,
        baseline: {
          file: 'known.json',
          entries: [
            { id: 'auth.disabled-partner-key-403', reason: 'no disabled partner in staging', until: '2099-12-31' },
            { id: 'webhooks.redirect-not-followed', reason: 'receiver not reachable from CI', until: '2099-12-31' },
            { id: 'webhooks.retried-after-failure', reason: 'receiver not reachable from CI', until: '2099-12-31' },
          ],
        },
      },
      { today: '2030-01-01' },
    );
    expect(result.verdict).toBe('passed-not-certified');
    const text = formatGroupedSummary(result, plain);
    expect(text).toContain(
      'skipped (needs input, accepted by the baseline until 2099-12-31): needs the key of a disabled partner',
    );
    expect(verdictLine(text)).toMatch(/^Passed, not a certification: /);
    expect(text).toContain(
      'the baseline accepted 3 skips: what it accepts was not judged as passing; this is not a certification',
    );
    expect(text).toContain('\nbaseline known.json: 0 expected failures, 3 accepted skips of 3 entries\n');
    expect(text).not.toContain('would run');
    // Not applicable is never a baseline matter.
    expect(text).toContain('skipped (not applicable): applies to production only');
  });

  it('--strict makes a missing input fail the certification, and still says what is missing', () => {
    const result = resultWithVerdict(makeIncompleteRunResult(), { strict: true });
    expect(result.verdict).toBe('not-certified');
    const text = formatGroupedSummary(result, plain);
    expect(text).toContain(
      'Not certified: https://partner.example.test/v1 (sandbox, 1 min 23 s)\n  --webhook-secret (with --webhook-public-url) would run 2 checks\n',
    );
  });
});

describe('console reporter, interactive mode (listr2)', () => {
  it('shows suites with live progress and ends with the grouped summary', async () => {
    const out = capture(true);
    const result = makeRunResult();
    const reporter = createConsoleReporter({ stream: out.stream, interactive: true, color: false });
    reporter.onRunStart?.(startInfo(result));
    reporter.onCheckStart?.('runs.read.long-body');
    reporter.onCheckProgress?.('runs.read.long-body', 'cert-slow: 7/10 confirmed, 1:12 left');
    // Wait until the renderer has drawn a frame with the progress in it (it draws on its own timer).
    const drawn = Date.now() + 10_000;
    while (!out.text().includes('cert-slow: 7/10 confirmed, 1:12 left')) {
      if (Date.now() > drawn) throw new Error(`no frame showed the progress: ${out.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const check of result.checks) {
      reporter.onCheckStart?.(check.id);
      reporter.onCheckEnd?.(check);
    }
    await reporter.onRunEnd(redacted(result), { reportDir: '/nonexistent/never-written' });
    const text = out.text();
    expect(text).toContain('runs.read.long-body: cert-slow: 7/10 confirmed, 1:12 left');
    expect(text).toContain('auth  3/3');
    expect(text).toContain(formatGroupedSummary(result, makeChalk(false)));
    expect(text.trimEnd().split('\n').at(-1)).toBe('3 passed, 2 failed, 1 skipped, 1 error');
  });

  it('closes every row when the run ends early', async () => {
    const out = capture(true);
    const result = makeRunResult();
    const reporter = createConsoleReporter({ stream: out.stream, interactive: true, color: false });
    reporter.onRunStart?.(startInfo(result));
    const ended = Promise.resolve(reporter.onRunEnd(redacted(result), { reportDir: '/nonexistent/never-written' }));
    await expect(
      Promise.race([ended.then(() => 'done'), new Promise((r) => setTimeout(() => r('hung'), 5000))]),
    ).resolves.toBe('done');
    expect(out.text().trimEnd().split('\n').at(-1)).toBe('3 passed, 2 failed, 1 skipped, 1 error');
  });
});

describe('console: where the observations it leaves out can be read', () => {
  it('names report.html only when it is written', () => {
    const c = makeChalk(false);
    const result = makeRunResult();
    expect(
      formatGroupedSummary({ ...result, config: { ...result.config, reporters: ['console', 'html'] } }, c),
    ).toMatch(/more observations? in report\.html/);
    const consoleOnly = formatGroupedSummary({ ...result, config: { ...result.config, reporters: ['console'] } }, c);
    expect(consoleOnly).not.toMatch(/in report\.html/);
    expect(consoleOnly).toMatch(/more observations? not shown \(--reporter html writes them all\)/);
    expect(
      formatGroupedSummary({ ...result, config: { ...result.config, reporters: ['console', 'json'] } }, c),
    ).toMatch(/more observations? in results\.json/);
  });
});

describe('console: the verdict line', () => {
  it('names the environment only when there is one (not "unknown" for scan and receiver)', () => {
    const c = makeChalk(false);
    const result = makeRunResult();
    const scan = formatGroupedSummary({ ...result, target: { ...result.target, environment: 'unknown' } }, c);
    expect(scan).not.toMatch(/\(unknown, /);
    expect(formatGroupedSummary({ ...result, target: { ...result.target, environment: 'sandbox' } }, c)).toMatch(
      /\(sandbox, /,
    );
  });
});
