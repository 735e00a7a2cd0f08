// report.html is accessible: axe-core's WCAG 2.1 A and AA rules find nothing on the four
// kinds of report (a passing run, a failing run, a dossier, a partner report), in every state a user
// reaches (loaded, each filter pressed, a search matching nothing, every row and exchange open), in the
// light and the dark scheme, in Debian's chromium. And failures and errors come first in every kind.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../src/config/redact.js';
import { judgeAll, toCheckResult } from '../src/partner/judge.js';
import { PARTNER_SUITES, partnerRules } from '../src/partner/rules/index.js';
import type { PartnerRequest, Traffic } from '../src/partner/traffic.js';
import { mergeResults } from '../src/report/dossier.js';
import { renderHtml } from '../src/report/html.js';
import { assembleResult } from '../src/runner/assemble-result.js';
import { summarize, type CheckResult, type RunResult } from '../src/runner/results.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';
import { LONG_BODY, makePassingRunResult, makeRunResult, makeWarningRunResult } from './report-fixtures.js';
import { chromiumRunsHere, launchChromium } from './support/chromium.js';
import { specDigest } from '../src/spec/spec-digest.js';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
// Plus heading-order (a best practice, no WCAG tag): the h2 -> h4 jump a reviewer found.

/** Several failures (one with a long received value and body), an engine error, a warning, an expected failure, skips. */
function failingRun(): RunResult {
  const base = makeRunResult();
  const warned = makeWarningRunResult().checks.find((c) => c.status === 'warning')!;
  const hebrew = base.checks.find((c) => c.id === 'runs.read.hebrew-notices')!;
  const longFailure: CheckResult = {
    ...hebrew,
    id: 'runs.read.page-size',
    title: 'A page holds at most page_size candidates',
    message: 'GET /runs/r-3 returned 400 candidates; page_size was 50.',
    observations: [
      {
        message: 'GET /runs/r-3 returned 400 candidates; page_size was 50.',
        spec: 'Endpoints › GET /runs/{run_id}',
        expected: 'at most 50 items',
        received: LONG_BODY,
        pointer: '/candidates',
        exchange: 0,
      },
    ],
    exchanges: [{ ...hebrew.exchanges[0]!, response: { ...hebrew.exchanges[0]!.response!, body: LONG_BODY } }],
  };
  const accepted: CheckResult = { ...hebrew, id: 'runs.read.notice-codes', title: 'Notice codes are from the list' };
  const checks = [...base.checks, warned, longFailure, accepted];
  const sorted = checks.sort(
    (a, b) => base.suites.indexOf(a.suite) - base.suites.indexOf(b.suite) || a.id.localeCompare(b.id),
  );
  const baseline = {
    file: 'known-failures.json',
    entries: [{ id: accepted.id, reason: 'fixed in 2.4', until: '2099-01-01' }],
  };
  return resultWithVerdict(
    { ...base, checks: sorted, summary: summarize(sorted) },
    { strict: false, baseline },
    { today: '2030-01-01' },
  );
}

const KEY = `spk_live_${'a'.repeat(48)}`;
const RUN = '11111111-1111-4111-8111-111111111111';

/**
 * The partner's side judged by the real rules from recorded traffic: a client that polls a run every
 * 100 ms with its partner key in the query string (secrets and polling rules fail), the rest not exercised.
 */
function partnerResult(): RunResult {
  const requests: PartnerRequest[] = Array.from({ length: 6 }, (_, i) => ({
    id: i + 1,
    at: 1_000 + i * 100,
    answeredAt: 1_001 + i * 100,
    method: 'GET',
    path: `/v1/runs/${RUN}`,
    query: `key=${KEY}`,
    headers: { 'x-svc-partner-key': KEY, 'x-svc-org-token': `sot_${'b'.repeat(48)}` },
    bodyText: '',
    status: 200,
    lost: false,
    responseHeaders: { 'content-type': 'application/json' },
    responseText: JSON.stringify({ run_id: RUN, status: 'running', notices: [] }),
    responseJson: { run_id: RUN, status: 'running', notices: [] },
    endpoint: 'runs-read',
    runId: RUN,
  }));
  const traffic: Traffic = { requests, deliveries: [] };
  const redactor = createRedactor([{ value: KEY, envVar: 'SVC_PARTNER_KEY' }]);
  const ctx = { timeScale: 1, webhookRegistered: true, inject: true, final: true, now: 10_000 };
  const checks = judgeAll(
    partnerRules(() => [KEY]),
    traffic,
    ctx,
  ).map((j) => toCheckResult(j, traffic, { origin: 'http://127.0.0.1:8080', redactor, durationMs: 5 }));
  const assembled = assembleResult({
    spec: specDigest(),
    certification: 'partner',
    config: {},
    target: { baseUrl: 'http://127.0.0.1:8080/v1', environment: 'sandbox', embedded: true },
    startedAt: new Date(0),
    suites: PARTNER_SUITES.filter((s) => checks.some((c) => c.suite === s)),
    checks,
  });
  return redactor.value(resultWithVerdict(assembled, { strict: false }));
}

/**
 * The four kinds of report; the dossier is what `svc-certify report` writes for a clean run, a failing
 * run with a baseline (its baseline heading under its certification's) and a failing partner.
 */
const REPORTS: ReadonlyArray<{ kind: string; result: () => RunResult }> = [
  { kind: 'passing', result: makePassingRunResult },
  { kind: 'failing', result: failingRun },
  {
    kind: 'dossier',
    result: () => mergeResults([makePassingRunResult(), { ...failingRun(), title: 'Staging API' }, partnerResult()]),
  },
  { kind: 'partner', result: partnerResult },
];

/** Rows in page order by tier: failures and errors, then warnings, then expected failures, then passed and skipped. */
const TIER_OF: Record<string, number> = { failed: 0, error: 0, warning: 1, expected: 2, passed: 3, skipped: 3 };

function rowStatuses(html: string): string[] {
  return [...html.matchAll(/<li class="check [^"]*" data-status="([a-z]+)"/g)].map((m) => m[1]!);
}

describe('report.html lists failures and errors first', () => {
  it.each(REPORTS)('in the $kind report', ({ kind, result }) => {
    const statuses = rowStatuses(renderHtml(result()));
    // What the report holds: the partner's rules judged the traffic (failures with their exchanges, a warning, passes, skips).
    if (kind === 'partner') expect([...new Set(statuses)].sort()).toEqual(['failed', 'passed', 'skipped', 'warning']);
    expect(statuses.length).toBe(result().checks.length);
    const tiers = statuses.map((s) => TIER_OF[s]!);
    expect(tiers, kind).toEqual([...tiers].sort((a, b) => a - b));
    if (kind !== 'passing') expect(tiers[0]).toBe(0);
  });
});

interface Violation {
  id: string;
  nodes: Array<{ target: unknown[] }>;
}

async function axeViolations(page: Page): Promise<Violation[]> {
  // A string expression: the project compiles without the DOM lib.
  const results = await page.evaluate<{ violations: Violation[] }>(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} }, rules: { 'heading-order': { enabled: true } }, resultTypes: ['violations'] })`,
  );
  return results.violations;
}

/** Opens every row and exchange, again while opening renders new ones (the lazily rendered exchanges, on toggle). */
async function openEverything(page: Page): Promise<void> {
  const openAll = `(() => { const closed = document.querySelectorAll('details:not([open])'); closed.forEach((d) => { d.open = true; }); return closed.length; })()`;
  while ((await page.evaluate<number>(openAll)) > 0)
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
}

/** Every state a user reaches, in the order a user would reach them; `visit` is called in each. */
async function walkStates(page: Page, visit: (state: string) => Promise<void>): Promise<void> {
  await visit('loaded');
  await openEverything(page);
  await visit('every row and exchange open');
  const filters = await page
    .locator('button[data-filter]')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-filter') ?? ''));
  for (const filter of filters) {
    await page.click(`button[data-filter="${filter}"]`);
    await visit(`filter ${filter}`);
  }
  await page.click('button[data-filter="all"]');
  await page.fill('#search', 'no-such-check');
  await visit('search matching nothing');
  await page.fill('#search', '');
}

describe.skipIf(!chromiumRunsHere)('report.html has no axe-core violation (WCAG 2.1 A and AA)', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-a11y-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(kind: string, result: RunResult, colorScheme: 'light' | 'dark'): Promise<Page> {
    const file = join(dir, `${kind}.html`);
    await writeFile(file, renderHtml(result), 'utf8');
    const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.addScriptTag({ content: axe.source });
    return page;
  }

  it.each(REPORTS)(
    'the $kind report, in every state, light and dark',
    async ({ kind, result }) => {
      // Each rule once per element, however many states show it.
      const found = new Map<string, Set<string>>();
      const lines: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        const page = await open(kind, result(), scheme);
        await walkStates(page, async (state) => {
          for (const v of await axeViolations(page)) {
            const nodes = found.get(v.id) ?? new Set<string>();
            for (const node of v.nodes) nodes.add(JSON.stringify(node.target));
            found.set(v.id, nodes);
            lines.push(
              `  ${scheme}, ${state}: ${v.id} (${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'}) ${v.nodes
                .slice(0, 3)
                .map((n) => JSON.stringify(n.target))
                .join(' ')}`,
            );
          }
        });
        await page.context().close();
      }
      const nodeCount = [...found.values()].reduce((sum, nodes) => sum + nodes.size, 0);
      const rules = [...found].map(([id, nodes]) => `${id}×${nodes.size}`).sort();
      // The figure to report: rules and distinct elements per report.
      console.log(
        `axe ${kind}: ${found.size} rules, ${nodeCount} nodes${rules.length ? ` (${rules.join(', ')})` : ''}`,
      );
      expect(lines, `axe violations in the ${kind} report:\n${lines.join('\n')}`).toEqual([]);
    },
    // axe walks every state of the whole page (timeline, coverage map, every row open) in two colour
    // schemes: the guard allows a slow, shared core.
    300_000,
  );
});
