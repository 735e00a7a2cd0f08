// report.html in a real browser (Debian's chromium through playwright-core; no browser is downloaded).

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../src/report/html.js';
import { makeRunResult, RAW_SECRET, REDACTED_SECRET } from './report-fixtures.js';
import { chromiumRunsHere, launchChromium } from './support/chromium.js';
/** Screenshots land here so a person can look at the page the test saw. */
const SCREENSHOT_DIR = join(tmpdir(), 'svc-certify-report-shots');

describe.skipIf(!chromiumRunsHere)('report.html in chromium', () => {
  let browser: Browser;
  let dir: string;
  let fileUrl: string;
  let page: Page;
  const requests: string[] = [];
  const dialogs: string[] = [];
  const consoleErrors: string[] = [];
  const savedKey = process.env.SVC_PARTNER_KEY;

  beforeAll(async () => {
    // A real key in the environment must not leak into the report: reporters only render what they get.
    process.env.SVC_PARTNER_KEY = RAW_SECRET;
    dir = await mkdtemp(join(tmpdir(), 'report-html-browser-'));
    const file = join(dir, 'report.html');
    await writeFile(file, renderHtml(makeRunResult()), 'utf8');
    fileUrl = pathToFileURL(file).href;
    browser = await launchChromium();
    const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(fileUrl);
  });

  afterAll(async () => {
    if (savedKey === undefined) delete process.env.SVC_PARTNER_KEY;
    else process.env.SVC_PARTNER_KEY = savedKey;
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function visibleIds(): Promise<string[]> {
    return page.locator('li.check:visible').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id') ?? ''));
  }

  it('shows the summary counts, verdict and run facts at the top', async () => {
    const count = (status: string) => page.locator(`[data-count="${status}"]`).textContent();
    expect(await count('passed')).toBe('3');
    expect(await count('failed')).toBe('2');
    expect(await count('error')).toBe('1');
    expect(await count('skipped')).toBe('1');
    expect(await count('total')).toBe('7');
    expect(await page.locator('#verdict').textContent()).toBe('Not certified');
    expect(await page.locator('.target').textContent()).toBe('https://partner.example.test/v1');
    expect(await page.locator('.environment').textContent()).toBe('sandbox');
    expect(await page.locator('.tool').textContent()).toBe('svc-certify 0.1.0');
    expect(await page.locator('.duration').textContent()).toBe('1 min 23 s');
    expect(await page.locator('#shown').textContent()).toBe('7 of 7 checks shown');
  });

  it('filters rows by status with each button, hiding suites left empty', async () => {
    const expected: Record<string, string[]> = {
      failed: ['auth.wrong-org-token-401', 'runs.read.hebrew-notices'],
      error: ['runs.read.unknown-run-404'],
      skipped: ['auth.disabled-partner-key-403'],
      passed: ['auth.missing-partner-key-401', 'runs.read.long-body', 'webhooks.signature.valid'],
    };
    for (const [status, ids] of Object.entries(expected)) {
      await page.click(`button[data-filter="${status}"]`);
      expect(await visibleIds(), status).toEqual(ids);
      expect(await page.getAttribute(`button[data-filter="${status}"]`, 'aria-pressed')).toBe('true');
    }
    await page.click('button[data-filter="error"]');
    expect(await page.locator('section.suite[data-suite="webhooks"]').isVisible()).toBe(false);
    await page.click('button[data-filter="all"]');
    expect(await visibleIds()).toHaveLength(7);
  });

  it('searches by check id, showing the matches failures and errors first', async () => {
    await page.fill('#search', 'RUNS.READ');
    expect(await visibleIds()).toEqual([
      'runs.read.hebrew-notices',
      'runs.read.unknown-run-404',
      'runs.read.long-body',
    ]);
    await page.fill('#search', 'no-such-check');
    expect(await visibleIds()).toEqual([]);
    expect(await page.locator('#empty').isVisible()).toBe(true);
    await page.fill('#search', '');
    expect(await visibleIds()).toHaveLength(7);
  });

  it('shows a failure expanded with expected, received, spec, pointer, exchanges and a curl to copy', async () => {
    const row = page.locator('li[data-id="auth.wrong-org-token-401"]');
    expect(await row.locator(':scope > details').getAttribute('open')).toBe('');
    const first = row.locator('li.obs').first();
    expect(await first.locator('pre.expected').textContent()).toBe('401');
    expect(await first.locator('pre.received').textContent()).toBe('200');
    expect(await first.locator('.spec').textContent()).toBe('Authentication');
    expect(await row.locator('li.obs').nth(1).locator('code.pointer').textContent()).toBe('/name');
    const curl = await row.locator('.repro pre.curl').first().textContent();
    expect(curl).toContain("curl -sS -X GET 'https://partner.example.test/v1/runs/r-1'");
    expect(curl).toContain('-H "x-svc-partner-key: $SVC_PARTNER_KEY"');
    const copy = row.locator('.repro button.copy').first();
    await copy.click();
    await expect.poll(() => copy.textContent()).toMatch(/^(Copied|Press Ctrl\+C)$/);
    // The cited exchange is open and shows the request and the response with their headers.
    const exchange = row.locator('details.exchange').first();
    expect(await exchange.getAttribute('open')).toBe('');
    expect(await exchange.locator('pre.headers').first().textContent()).toContain(
      'x-svc-partner-key: spk_live_…[redacted]',
    );
    expect(await exchange.locator('pre.body').first().textContent()).toContain(
      '<script>window.__pwned = 1; alert(1)</script>',
    );
  });

  it('reaches an exchange body with the keyboard: Tab from its exchange lands on the named region, arrows scroll it', async () => {
    const exchange = page.locator('li[data-id="auth.wrong-org-token-401"] details.exchange[open]').first();
    await exchange.locator(':scope > summary').focus();
    const focused = (): Promise<string> =>
      page.evaluate<string>(
        "document.activeElement.className + ' | ' + document.activeElement.getAttribute('aria-label')",
      );
    const seen: string[] = [];
    for (let i = 0; i < 4 && !seen.some((f) => f.startsWith('body |')); i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    expect(seen).toEqual([
      'headers | Request headers of GET /v1/runs/r-1',
      'headers | Response headers of GET /v1/runs/r-1',
      'body | Response body of GET /v1/runs/r-1',
    ]);
    expect(await page.evaluate<string>("document.activeElement.getAttribute('role')")).toBe('region');
    // Once focused, the arrow keys scroll it (made short here: the fixture's bodies fit in the page).
    const headers = exchange.locator('pre.headers').first();
    await headers.evaluate((el) => {
      (el as unknown as { style: { maxHeight: string } }).style.maxHeight = '2em';
    });
    await headers.focus();
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => headers.evaluate((el) => (el as unknown as { scrollTop: number }).scrollTop))
      .toBeGreaterThan(0);
    await headers.evaluate((el) => {
      (el as unknown as { style: { maxHeight: string } }).style.maxHeight = '';
    });
  });

  it('opens a passed check on click to show its exchange', async () => {
    const row = page.locator('li[data-id="runs.read.long-body"]');
    expect(await row.locator('details.exchange').first().isVisible()).toBe(false);
    await row.locator(':scope > details > summary').click();
    await row.locator('details.exchange > summary').first().click();
    expect(await row.locator('pre.body').first().isVisible()).toBe(true);
    expect(await row.locator('.note').last().textContent()).toContain('Body truncated (1048576 bytes in all)');
  });

  it('renders the exchanges of every closed row when it opens, and runs nothing from them', async () => {
    const closed = page.locator('li.check > details:not([open]) > summary');
    const n = await closed.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) await closed.first().click();
    expect(await page.locator('.lazy[data-lazy]').count()).toBe(0);
    const recorded = makeRunResult().checks.reduce((sum, c) => sum + c.exchanges.length, 0);
    expect(await page.locator('details.exchange').count()).toBe(recorded);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(consoleErrors).toEqual([]);
  });

  it('lays Hebrew out right-to-left inside its block', async () => {
    const pre = page.locator('li[data-id="runs.read.hebrew-notices"] pre.received');
    expect(await pre.evaluate((el) => el.matches(':dir(rtl)'))).toBe(true);
    expect(
      await page
        .locator('li[data-id="auth.wrong-org-token-401"] pre.received')
        .first()
        .evaluate((el) => el.matches(':dir(ltr)')),
    ).toBe(true);
  });

  it('executed no script from a body and shows the secret only redacted', async () => {
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await page.locator('li.check img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    // String expressions: the project compiles without the DOM lib.
    const text = await page.evaluate<string>('document.documentElement.outerHTML + document.body.innerText');
    expect(text).not.toContain(RAW_SECRET);
    expect(text).toContain(REDACTED_SECRET);
    expect(consoleErrors).toEqual([]);
  });

  it('made no network request but the file itself', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => url !== fileUrl)).toEqual([]);
  });

  it('renders in light and dark schemes (screenshots for a person to look at)', async () => {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.click('button[data-filter="all"]');
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'report-light.png'), fullPage: false });
    await page.emulateMedia({ colorScheme: 'dark' });
    const bg = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    expect(bg).toBe('rgb(13, 17, 23)');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'report-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe('rgb(255, 255, 255)');
  });
});
