import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/report/html-escape.js';
import { mergeResults } from '../src/report/dossier.js';
import { HTML_REPORTER, HTML_CSP, renderHtml } from '../src/report/html.js';
import { HTML_STYLE } from '../src/report/html-style.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';
import {
  makeIncompleteRunResult,
  makeInterruptedRunResult,
  makePassingRunResult,
  makeRunResult,
  makeSelectionRunResult,
  makeWarningRunResult,
  RAW_SECRET,
  REDACTED_SECRET,
} from './report-fixtures.js';
import { renderInTwoWorlds } from './support/determinism.js';
import { redacted } from './support/redacted.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-html-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('html reporter (static)', () => {
  const html = renderHtml(makeRunResult());

  it('is one self-contained file with the CSP and no external URL in any src, href or url()', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${HTML_CSP.replace(/'/g, '&#39;')}">`);
    expect(html).not.toMatch(/<[a-z][^>]*\s(?:src|href|action|poster|srcset|formaction)\s*=/i);
    expect(html).not.toMatch(/url\(|@import/i);
    // One executable script; the others are inert JSON (the exchanges of closed rows, rendered on open).
    expect(html.match(/<script>/g)?.length).toBe(1);
    const inert = html.match(/<script\b[^>]*>/g)!.filter((tag) => tag !== '<script>');
    expect(inert.length).toBeGreaterThan(0);
    expect(inert).toEqual(['<script type="application/json" id="exchange-store">']);
    expect(html.match(/<style\b/g)?.length).toBe(1);
  });

  it('keeps the exchange store inert: no "<" inside its script element, the escaped markup inside the JSON', () => {
    const result = makeRunResult();
    const passed = result.checks.find((c) => c.status === 'passed' && c.exchanges.length > 0)!;
    passed.exchanges[0]!.response!.body = '</script><script>window.__pwned = 3</script><!-- ]]>';
    const page = renderHtml(result);
    const bodies = [...page.matchAll(/<script type="application\/json" id="exchange-store">([\s\S]*?)<\/script>/g)].map(
      (m) => m[1]!,
    );
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toContain('<');
    const markup = (JSON.parse(bodies[0]!) as Array<[string, string]>).flat().join('');
    expect(markup).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned = 3&lt;/script&gt;&lt;!-- ]]&gt;');
    expect(markup).not.toContain('<script');
  });

  it('escapes every target-controlled string', () => {
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).toContain('&lt;script&gt;window.__pwned = 1; alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;/pre&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(escapeHtml(`<a b="c" d='e'>&`)).toBe('&lt;a b=&quot;c&quot; d=&#39;e&#39;&gt;&amp;');
  });

  it('keeps secrets in their redacted form only', () => {
    expect(html).not.toContain(RAW_SECRET);
    expect(html).toContain(REDACTED_SECRET);
    expect(html).toContain('$SVC_PARTNER_KEY');
  });

  it('marks RTL-capable blocks with dir="auto" and shows the Hebrew text', () => {
    expect(html).toContain('תיאור המשרה כללי מדי');
    const pres = html.match(/<pre\b[^>]*>/g) ?? [];
    expect(pres.length).toBeGreaterThan(5);
    for (const tag of pres) expect(tag).toContain('dir="auto"');
  });

  it('opens failures and errors, and keeps passed checks closed', () => {
    expect(html).toMatch(/data-id="auth\.wrong-org-token-401"><details open>/);
    expect(html).toMatch(/data-id="runs\.read\.unknown-run-404"><details open>/);
    expect(html).toMatch(/data-id="auth\.missing-partner-key-401"><details>/);
  });

  it("lists the checks in tiers, failures and errors first: each tier an h2 over its suite groups h3, a row's headings h4", () => {
    const tiers = [
      ...html.matchAll(
        /<section class="tier" data-tier="([a-z]+)" aria-labelledby="tier-\1"><h2 id="tier-\1">([^<]+) <small>(\d+) checks?<\/small><\/h2>/g,
      ),
    ].map((m) => [m[1], m[2], m[3]]);
    expect(tiers).toEqual([
      ['attention', 'Failed and error checks', '3'],
      ['rest', 'Passed and skipped checks', '4'],
    ]);
    expect([...html.matchAll(/data-id="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'auth.wrong-org-token-401',
      'runs.read.hebrew-notices',
      'runs.read.unknown-run-404',
      'auth.missing-partner-key-401',
      'auth.disabled-partner-key-403',
      'runs.read.long-body',
      'webhooks.signature.valid',
    ]);
    expect(html).toContain('<section class="suite" data-suite="runs-read"><h3>runs-read <small>2 checks</small></h3>');
    // No heading skips a level: h1, then h2 tiers, h3 groups, h4 in a row, h5 in an exchange.
    const levels = [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
    levels.forEach((level, i) => expect(level - (levels[i - 1] ?? 0), `heading ${i}`).toBeLessThanOrEqual(1));
  });

  it("lists a dossier's failures before any pass of any certification, each group named with its certification", () => {
    const page = renderHtml(mergeResults([makePassingRunResult(), { ...makeRunResult(), title: 'Staging API' }]));
    const groups = [
      ...page.matchAll(/<section class="(tier|suite)" data-[a-z]+="([^"]+)"[^>]*><h[23][^>]*>([^<]+)/g),
    ].map((m) => `${m[1]} ${m[3]!.trim()}`);
    expect(groups).toEqual([
      'tier Failed and error checks',
      'suite Staging API › auth',
      'suite Staging API › runs-read',
      'tier Passed and skipped checks',
      'suite Service API › auth',
      'suite Service API › runs-read',
      'suite Service API › webhooks',
      'suite Staging API › auth',
      'suite Staging API › runs-read',
      'suite Staging API › webhooks',
    ]);
    // The certifications' facts stay above, one h2 each.
    expect(page.match(/<h2 class="cert-title">/g)).toHaveLength(2);
    expect(page.indexOf('<h2 class="cert-title">')).toBeLessThan(page.indexOf('<section class="tier"'));
  });

  it('makes every block a focusable region named for what it holds, so the keyboard reaches and scrolls it', () => {
    const pres = html.match(/<pre\b[^>]*>/g) ?? [];
    expect(pres.length).toBeGreaterThan(5);
    for (const tag of pres) expect(tag).toMatch(/ tabindex="0" role="region" aria-label="[^"]+"/);
    expect(html).toContain(
      '<pre dir="auto" class="body" tabindex="0" role="region" aria-label="Response body of GET /v1/runs/r-1">',
    );
    expect(html).toContain(
      '<pre dir="auto" class="received" tabindex="0" role="region" aria-label="Received, observation 2 of auth.wrong-org-token-401">',
    );
    expect(html).toContain('aria-label="Stack trace of runs.read.unknown-run-404"');
  });

  it('shows a verdict for a clean run', () => {
    expect(renderHtml(makePassingRunResult())).toContain(
      '<span class="verdict certified" id="verdict">Certified</span>',
    );
  });

  it('shows a warning apart: its own icon, filter, count and an open row with a badge', () => {
    const page = renderHtml(makeWarningRunResult());
    expect(page).toContain('<span class="verdict certified" id="verdict">Certified</span>');
    expect(page).toContain(
      '<button type="button" data-filter="warning" aria-pressed="false">Warning<span class="c">1</span></button>',
    );
    expect(page).toContain('<span class="n" data-count="warning">1</span>warning');
    expect(page).toMatch(
      /<li class="check s-warning" data-status="warning" data-id="runs\.read\.counts-are-integers"><details open><summary><span class="icon" role="img" aria-label="warning">⚠<\/span>/,
    );
    expect(page).toContain(
      '<li class="obs obs-warning"><p class="obs-msg"><span class="badge">warning</span> GET /runs/r-9 answered',
    );
    expect(renderHtml(makeWarningRunResult(true))).toContain(
      '<span class="verdict not-certified" id="verdict">Not certified</span>',
    );
  });

  it('says the kind of every skip, and what is missing under a not-certified verdict', () => {
    expect(html).toContain(
      '<span class="reason">— skipped (needs input): needs --disabled-partner-key (SVC_DISABLED_PARTNER_KEY)</span>',
    );
    expect(html).toContain(
      '<ul class="verdict-notes" id="verdict-notes"><li>--disabled-partner-key would run 1 check</li></ul>',
    );
    expect(renderHtml(makePassingRunResult())).not.toContain('<ul class="verdict-notes"');
  });

  it.each([
    [
      'incomplete',
      'Incomplete',
      makeIncompleteRunResult,
      ['--webhook-secret (with --webhook-public-url) would run 2 checks', '--disabled-partner-key would run 1 check'],
    ],
    [
      'interrupted',
      'Interrupted',
      makeInterruptedRunResult,
      ['interrupted by SIGINT: the checks not ended are recorded as interrupted, nothing is blamed on the target'],
    ],
    [
      'passed-not-certified',
      'Passed, not a certification',
      makeSelectionRunResult,
      ['a selection (--suite auth,webhooks): 170 checks of the catalogue not run; this is not a certification'],
    ],
  ] as const)(
    'shows the %s verdict, neither green nor red, with the notes that say why',
    (verdict, label, make, notes) => {
      const page = renderHtml(make());
      expect(page).toContain(
        `<span class="verdict ${verdict}" id="verdict">${label}</span></h1><ul class="verdict-notes" id="verdict-notes">${notes.map((n) => `<li>${n}</li>`).join('')}</ul>`,
      );
      expect(page).toContain(`<title>${label}: https://partner.example.test/v1 — svc-certify</title>`);
      // Styled like a skip: not the pass (green) nor the fail (red) colours.
      const rule = HTML_STYLE.split('\n').find((line) => line.includes(`.verdict.${verdict}`))!;
      expect(rule).toContain('var(--skip)');
      expect(rule).not.toMatch(/--pass|--fail/);
    },
  );

  it('shows each skip of an incomplete or interrupted run with its kind', () => {
    const incomplete = renderHtml(makeIncompleteRunResult());
    expect(incomplete).toContain(
      '<span class="reason">— skipped (needs input): needs the key of a disabled partner: --disabled-partner-key or SVC_DISABLED_PARTNER_KEY</span>',
    );
    expect(incomplete).toContain('<span class="reason">— skipped (not applicable): applies to production only;');
    const interrupted = renderHtml(makeInterruptedRunResult());
    expect(interrupted).toContain(
      '<span class="reason">— skipped (interrupted): the certification was stopped (SIGINT/SIGTERM) before this check ended</span>',
    );
    expect(interrupted).not.toContain('data-status="failed"');
  });

  it('a missing input the baseline accepts: certified, the skip and the baseline section say so', () => {
    const entries = [{ id: 'auth.disabled-partner-key-403', reason: 'not in staging yet', until: '2099-12-31' }];
    const withKey = resultWithVerdict(
      makeIncompleteRunResult(),
      { strict: false, baseline: { file: 'known.json', entries } },
      { today: '2030-01-01' },
    );
    // The webhook inputs are still missing: incomplete, and only they are listed.
    expect(withKey.verdict).toBe('incomplete');
    const page = renderHtml(withKey);
    expect(page).toContain(
      '<ul class="verdict-notes" id="verdict-notes"><li>--webhook-secret (with --webhook-public-url) would run 2 checks</li></ul>',
    );
    expect(page).toContain(
      '<span class="reason">— skipped (needs input, accepted by the baseline until 2099-12-31): needs the key of a disabled partner',
    );
    expect(page).toContain('<code>known.json</code>: 0 expected failures, 1 accepted skip of 1 entry</small>');
  });

  it('is deterministic: the same result renders the same under another clock, zone and random source', async () => {
    const [a, b] = await renderInTwoWorlds(() => renderHtml(makeRunResult()));
    expect(a).toBe(b);
  });

  it('is written into the report dir', async () => {
    const reportDir = join(dir, 'deep', 'er');
    await HTML_REPORTER.create().onRunEnd(redacted(makeRunResult()), { reportDir });
    expect(await readFile(join(reportDir, 'report.html'), 'utf8')).toBe(renderHtml(makeRunResult()));
  });
});
