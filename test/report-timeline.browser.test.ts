// The timeline of report.html in a real browser (Debian's chromium through playwright-core): drawn for
// an embedded run, a failed run and a partner session, visible with the page's own script off (it is
// SVG the report wrote), its tables reached by keyboard, axe-core finding nothing, and a screenshot of
// each for a person to look at.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeAll, toCheckResult } from '../src/partner/judge.js';
import { PARTNER_SUITES, partnerRules } from '../src/partner/rules/index.js';
import { partnerTimeline } from '../src/partner/session.js';
import type { PartnerRequest, Traffic } from '../src/partner/traffic.js';
import { renderHtml } from '../src/report/html.js';
import { assembleResult } from '../src/runner/assemble-result.js';
import { createRedactor } from '../src/config/redact.js';
import type { RunResult } from '../src/runner/results.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';
import { certifySandbox } from './support/certify-sandbox.js';
import { chromiumRunsHere, launchChromium } from './support/chromium.js';
import { specDigest } from '../src/spec/spec-digest.js';

/** Screenshots land here so a person can look at the page the test saw (docs/report-timeline.png is one). */
const SCREENSHOT_DIR = join(tmpdir(), 'svc-certify-report-shots');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** An embedded run of the fixtures (cert-slow's 3 minutes among them) and the webhooks, with deliveries and their retries. */
function embeddedRun(faults: string[] = []): Promise<RunResult> {
  return certifySandbox({ suites: ['fixtures', 'webhooks'], timeScale: 600, faults }).then((r) =>
    resultWithVerdict(r, { strict: false }),
  );
}

/** A partner session's traffic: a client polling a run, one request answered by an injection. */
function partnerSession(): RunResult {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const requests: PartnerRequest[] = Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    at: start + 200 + i * 150,
    answeredAt: start + 201 + i * 150,
    method: i === 0 ? 'POST' : 'GET',
    path: i === 0 ? '/v1/users' : '/v1/runs/11111111-1111-4111-8111-111111111111',
    query: '',
    headers: {},
    bodyText: '',
    status: i === 0 ? 429 : 200,
    lost: false,
    responseHeaders: {},
    responseText: '',
    endpoint: i === 0 ? 'users' : 'runs-read',
    ...(i === 0 ? { injected: 'rate-limited-429' as const } : {}),
  }));
  const traffic: Traffic = {
    requests,
    deliveries: [
      {
        eventId: 'evt-1',
        event: 'run_completed',
        runId: '11111111-1111-4111-8111-111111111111',
        attempt: 1,
        url: 'https://partner.example/hook',
        wrongSignature: false,
        status: 200,
        startedAt: start + 4_000,
        answeredAt: start + 4_300,
        ackTimeoutMs: 10_000,
      },
    ],
  };
  const redactor = createRedactor([]);
  const ctx = { timeScale: 60, webhookRegistered: true, inject: true, final: true, now: start + 6_500 };
  const checks = judgeAll(
    partnerRules(() => []),
    traffic,
    ctx,
  ).map((j) => toCheckResult(j, traffic, { origin: 'http://127.0.0.1:8080', redactor, durationMs: 6_500 }));
  const assembled = assembleResult({
    spec: specDigest(),
    certification: 'partner',
    config: { rateLimit: 120, timeScale: 60 },
    target: { baseUrl: 'http://127.0.0.1:8080/v1', environment: 'sandbox', embedded: true },
    startedAt: new Date(start),
    suites: PARTNER_SUITES.filter((s) => checks.some((c) => c.suite === s)),
    checks,
  });
  return resultWithVerdict(
    { ...assembled, durationMs: 6_500, timeline: partnerTimeline(traffic, start, start + 6_500, 60) },
    { strict: false },
  );
}

describe.skipIf(!chromiumRunsHere)('the timeline of report.html in chromium', () => {
  let browser: Browser;
  let dir: string;
  const reports: Array<{ kind: string; result: RunResult }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-timeline-'));
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    // One after the other: the machine's cores are shared.
    reports.push({ kind: 'embedded', result: await embeddedRun() });
    reports.push({ kind: 'failed', result: await embeddedRun(['fixtures.any-acting-user']) });
    reports.push({ kind: 'partner', result: partnerSession() });
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(kind: string, result: RunResult, javaScriptEnabled = true): Promise<Page> {
    const file = join(dir, `${kind}.html`);
    await writeFile(file, renderHtml(result), 'utf8');
    const context = await browser.newContext({
      colorScheme: 'light',
      viewport: { width: 1280, height: 900 },
      javaScriptEnabled,
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    return page;
  }

  it('an embedded run: a bar per check that ran, the critical path ending with the last check, deliveries, requests per window', async () => {
    const { result } = reports.find((r) => r.kind === 'embedded')!;
    const ran = result.checks.filter((c) => c.startedMs !== undefined);
    expect(ran.length).toBeGreaterThan(20);
    expect(result.timeline?.deliveries?.length).toBeGreaterThan(0);
    // Scripts off: the picture is the report's own SVG.
    const page = await open('embedded', result, false);
    const svg = page.locator('#timeline svg');
    expect(await svg.isVisible()).toBe(true);
    expect((await svg.boundingBox())!.height).toBeGreaterThan(150);
    expect(await page.locator('#timeline rect.tl-bar').count()).toBe(ran.length);
    const last = ran.reduce((a, b) => (b.startedMs! + b.durationMs > a.startedMs! + a.durationMs ? b : a));
    const critical = await page
      .locator('#timeline rect.tl-bar')
      .evaluateAll((rects) =>
        rects.filter((r) => r.nextElementSibling?.getAttribute('class') === 'tl-crit').map((r) => r.textContent ?? ''),
      );
    expect(critical.some((title) => title.startsWith(`${last.id} `))).toBe(true);
    expect(await page.locator('#timeline .k-fixture').count()).toBeGreaterThan(0);
    expect(await page.locator('#timeline .tl-delivery').count()).toBe(result.timeline!.deliveries!.length);
    expect(await page.locator('#timeline rect.tl-rate').count()).toBeGreaterThan(0);
    await page.locator('#timeline').screenshot({ path: join(SCREENSHOT_DIR, 'report-timeline-embedded.png') });
    await page.context().close();
  });

  it('a failed run shows its failed checks in red on the clock', async () => {
    const { result } = reports.find((r) => r.kind === 'failed')!;
    const failed = result.checks.filter((c) => c.status === 'failed' && c.startedMs !== undefined);
    expect(failed.length).toBeGreaterThan(0);
    const page = await open('failed', result);
    expect(await page.locator('#timeline rect.tl-bar.s-failed').count()).toBe(failed.length);
    await page.locator('#timeline').screenshot({ path: join(SCREENSHOT_DIR, 'report-timeline-failed.png') });
    await page.context().close();
  });

  it("a partner session: the client's requests per window, the injection and the rule it arranges, the delivery", async () => {
    const { result } = reports.find((r) => r.kind === 'partner')!;
    const page = await open('partner', result);
    expect(await page.locator('#timeline svg').isVisible()).toBe(true);
    expect(await page.locator('#timeline .tl-injection title').textContent()).toBe(
      'injection rate-limited-429 at 0:00.2 (request #1): arranges the rule retries.retry-after-honoured',
    );
    expect(await page.locator('#timeline rect.tl-rate').count()).toBe(7);
    expect(await page.locator('#timeline .tl-delivery').count()).toBe(1);
    await page.locator('#timeline').screenshot({ path: join(SCREENSHOT_DIR, 'report-timeline-partner.png') });
    await page.context().close();
  });

  it.each(['embedded', 'failed', 'partner'])(
    'the %s report gives the keyboard the same facts as tables, and axe-core finds nothing, light and dark',
    async (kind) => {
      const { result } = reports.find((r) => r.kind === kind)!;
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await open(kind, result);
        await page.emulateMedia({ colorScheme });
        await page.locator('#timeline details.timeline-facts > summary').focus();
        await page.keyboard.press('Enter');
        expect(await page.locator('#timeline details.timeline-facts').getAttribute('open')).toBe('');
        const rows = await page.locator('#timeline details.timeline-facts table').first().locator('tbody tr').count();
        expect(rows).toBeGreaterThan(0);
        await page.addScriptTag({ content: axe.source });
        const found = await page.evaluate<{ violations: Array<{ id: string; nodes: unknown[] }> }>(
          `axe.run(document.getElementById('timeline'), { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} }, resultTypes: ['violations'] })`,
        );
        expect(
          found.violations.map((v) => `${v.id} (${v.nodes.length})`),
          colorScheme,
        ).toEqual([]);
        await page.context().close();
      }
    },
    180_000,
  );
});
