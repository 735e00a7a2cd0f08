import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKDOWN_REPORTER, mdCell, renderMarkdown } from '../src/report/markdown.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';
import { loadSpec } from '../src/spec/spec-file.js';
import {
  makeIncompleteRunResult,
  makeInterruptedRunResult,
  makePassingRunResult,
  makeRunResult,
  makeSelectionRunResult,
  makeWarningRunResult,
  RAW_SECRET,
} from './report-fixtures.js';
import { renderInTwoWorlds } from './support/determinism.js';
import { redacted } from './support/redacted.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-md-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('markdown reporter', () => {
  it('matches the snapshot', async () => {
    await expect(renderMarkdown(makeRunResult())).toMatchFileSnapshot('./__snapshots__/report-summary.md');
  });

  it('neutralises control characters a target wrote (ESC, OSC 52, OSC 8, NUL, C1), as the console does', () => {
    const hostile =
      'x\u001b]52;c;ZWNobyBwd25lZA==\u0007 \u001b]8;;https://e.vil\u0007link\u001b]8;;\u0007 \u0000 \u009b31m \u001b[2J y';
    const result = makeRunResult();
    const failed = result.checks.find((c) => c.status === 'failed');
    if (!failed) throw new Error('the fixture has a failed check');
    failed.message = hostile;
    for (const o of failed.observations) o.message = hostile;
    result.title = `title ${hostile}`;
    const md = renderMarkdown(result);
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(md).toContain('\\x1B');
  });

  it('puts the verdict first and lists failed and error checks with spec and message', () => {
    const md = renderMarkdown(makeRunResult());
    expect(md.split('\n')[0]).toBe('# ❌ svc-certify: Not certified');
    expect(md).toContain('**3 passed, 2 failed, 1 skipped, 1 error**');
    expect(md).toContain(
      '| `auth.wrong-org-token-401` | ✗ failed | Authentication | A request with an unknown org token was accepted; the spec requires 401 unauthorized. |',
    );
    expect(md).toContain('| `runs.read.unknown-run-404` | ! error |');
    expect(md).toMatch(
      /<details>\n<summary>1 skipped check<\/summary>[\s\S]*needs --disabled-partner-key[\s\S]*<\/details>/,
    );
    expect(md).not.toMatch(/\]\(|https?:\/\/[^`\s]*[^`]\s/); // no markdown link, and the URL sits in a code span
    expect(md).not.toContain(RAW_SECRET);
  });

  it('says certified for a clean run and leaves out empty sections', () => {
    const md = renderMarkdown(makePassingRunResult());
    expect(md.split('\n')[0]).toBe('# ✅ svc-certify: Certified');
    expect(md).not.toContain('Failed and error checks');
    expect(md).not.toContain('<details>');
  });

  it('lists warnings apart from failures; certified unless strict', () => {
    const md = renderMarkdown(makeWarningRunResult());
    expect(md.split('\n')[0]).toBe('# ✅ svc-certify: Certified');
    expect(md).toContain('| ⚠ warning | 1 |');
    expect(md).toContain('**3 passed, 0 failed, 0 skipped, 1 warning**');
    expect(md).toMatch(
      /## Warnings\n[\s\S]*\| `runs.read.counts-are-integers` \| Resources and their fields › Run \| GET \/runs\/r-9 answered "3.0"/,
    );
    expect(md).not.toContain('Failed and error checks');
    expect(renderMarkdown(makeWarningRunResult(true)).split('\n')[0]).toBe('# ❌ svc-certify: Not certified');
    // No warning, no warning row.
    expect(renderMarkdown(makePassingRunResult())).not.toContain('warning');
  });

  it('incomplete: neither green nor red, what is missing under the verdict, each skip with its kind', () => {
    const md = renderMarkdown(makeIncompleteRunResult());
    expect(md.split('\n').slice(0, 5)).toEqual([
      '# ⚠️ svc-certify: Incomplete',
      '',
      '- --webhook-secret (with --webhook-public-url) would run 2 checks',
      '- --disabled-partner-key would run 1 check',
      '',
    ]);
    expect(md).toContain('**3 passed, 0 failed, 4 skipped**');
    expect(md).toContain(
      '| `auth.disabled-partner-key-403` | skipped (needs input): needs the key of a disabled partner: --disabled-partner-key or SVC\\_DISABLED\\_PARTNER\\_KEY |',
    );
    expect(md).toContain('| `runs.read.production-wallet` | skipped (not applicable): applies to production only;');
    expect(md).not.toContain('Failed and error checks');
    expect(md).not.toMatch(/✅|❌/);
  });

  it('interrupted: the signal under the verdict, the stopped checks skipped (interrupted)', () => {
    const md = renderMarkdown(makeInterruptedRunResult());
    expect(md.split('\n').slice(0, 3)).toEqual([
      '# ⚠️ svc-certify: Interrupted',
      '',
      '- interrupted by SIGINT: the checks not ended are recorded as interrupted, nothing is blamed on the target',
    ]);
    expect(md).toContain(
      '| `runs.read.long-body` | skipped (interrupted): the certification was stopped (SIGINT/SIGTERM) before this check ended |',
    );
    expect(md).not.toMatch(/✅|❌/);
  });

  it('passed-not-certified: never "Certified", and says what the selection left out', () => {
    const md = renderMarkdown(makeSelectionRunResult());
    expect(md.split('\n').slice(0, 3)).toEqual([
      '# ⚠️ svc-certify: Passed, not a certification',
      '',
      '- a selection (--suite auth,webhooks): 170 checks of the catalogue not run; this is not a certification',
    ]);
    expect(md).not.toMatch(/✅|❌|Certified/);
  });

  it('a missing input the baseline accepts: passed, not a certification, the skip marked accepted until its date', () => {
    const entries = [
      'auth.disabled-partner-key-403',
      'webhooks.redirect-not-followed',
      'webhooks.retried-after-failure',
    ].map((id) => ({ id, reason: 'not in staging yet', until: '2099-12-31' }));
    const md = renderMarkdown(
      resultWithVerdict(
        makeIncompleteRunResult(),
        { strict: false, baseline: { file: 'known.json', entries } },
        { today: '2030-01-01' },
      ),
    );
    expect(md.split('\n')[0]).toBe('# ⚠️ svc-certify: Passed, not a certification');
    expect(md).toContain('- the baseline accepted 3 skips: what it accepts was not judged as passing');
    expect(md).toContain(
      '| `auth.disabled-partner-key-403` | skipped (needs input, accepted by the baseline until 2099-12-31): needs the key of a disabled partner',
    );
    expect(md).not.toContain('would run');
  });

  it('escapes cells so untrusted text cannot break the table or inject markup', () => {
    expect(mdCell('a|b\n<script>x</script> [l](u)')).toBe('a\\|b &lt;script&gt;x&lt;/script&gt; \\[l\\](u)');
    expect(mdCell('see https://evil.example and www.evil.example')).toBe(
      'see https:\\/\\/evil.example and www\\.evil.example',
    );
  });

  it('is deterministic: the same result renders the same under another clock, zone and random source', async () => {
    const [a, b] = await renderInTwoWorlds(() => renderMarkdown(makeRunResult()));
    expect(a).toBe(b);
  });

  it('writes summary.md into the report dir', async () => {
    const reportDir = join(dir, 'x');
    await MARKDOWN_REPORTER.create().onRunEnd(redacted(makeRunResult()), { reportDir });
    expect(await readFile(join(reportDir, 'summary.md'), 'utf8')).toBe(renderMarkdown(makeRunResult()));
  });
});

describe('the spec coverage line of summary.md', () => {
  it('counts the sections checked and names those holding a failure, a hostile section name as text', () => {
    const base = makeRunResult();
    const hostile = { ...base.checks[1]!, spec: ['| <img src=x> [x](https://evil.example)'] };
    const md = renderMarkdown({ ...base, checks: [...base.checks, hostile] });
    const line = md.split('\n').find((l) => l.startsWith('Spec coverage: '));
    const sections = loadSpec().sections.length;
    expect(line).toBe(
      `Spec coverage: 6 of ${sections} sections checked; failed or errored under Resources and their fields › Notice; ` +
        'Authentication; Errors › Cross-cutting errors (any endpoint); Errors › Errors by endpoint; ' +
        '\\| &lt;img src=x&gt; \\[x\\](https:\\/\\/evil.example).',
    );
    const clean = renderMarkdown(makePassingRunResult()).split('\n');
    expect(clean.find((l) => l.startsWith('Spec coverage: '))).toMatch(
      new RegExp(`^Spec coverage: \\d+ of ${sections} sections checked\\.$`),
    );
  });
});
