// The spec coverage map of report.html in a real browser (Debian's chromium through playwright-core):
// for a real certification of the embedded sandbox, one of the sandbox with faults switched on (a
// failed run) and the dossier of both, the map is visible without a script, has a row per section of
// the spec and a cell per check citing it, and axe-core finds no WCAG 2.1 A/AA violation in it in the
// light or the dark scheme (test/report-a11y.test.ts runs axe over whole pages, the map included). Screenshots of the map land in a temporary folder; docs/report-coverage.png is
// the failed run's.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeResults } from '../src/report/dossier.js';
import { renderHtml } from '../src/report/html.js';
import { cellOutcome } from '../src/report/html-coverage.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';
import type { RunResult } from '../src/runner/results.js';
import { listFaults } from '../src/sandbox/index.js';
import { loadSpec } from '../src/spec/spec-file.js';
import { certifySandbox } from './support/certify-sandbox.js';
import { chromiumRunsHere, launchChromium } from './support/chromium.js';

const SCREENSHOT_DIR = join(tmpdir(), 'svc-certify-report-shots');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Faults of areas whose checks need no shared setup first, so each fails a check or two, not the run. */
const FAULTS = listFaults()
  .filter((f) => /^(conventions|runs-read|reveal|decisions)\./.test(f.id))
  .slice(0, 4)
  .map((f) => f.id);

describe.skipIf(!chromiumRunsHere)('the spec coverage map in chromium', () => {
  let browser: Browser;
  let dir: string;
  const reports = new Map<string, RunResult>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-coverage-'));
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    const [clean, faulty] = await Promise.all([certifySandbox(), certifySandbox({ faults: FAULTS })]);
    const embedded = resultWithVerdict(clean, { strict: false });
    const failed = resultWithVerdict(faulty, { strict: false });
    reports.set('embedded', embedded);
    reports.set('failed', failed);
    reports.set('dossier', mergeResults([embedded, { ...failed, title: 'Staging API' }]));
    browser = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(kind: string, colorScheme: 'light' | 'dark', javaScriptEnabled = true): Promise<Page> {
    const file = join(dir, `${kind}.html`);
    await writeFile(file, renderHtml(reports.get(kind)!), 'utf8');
    const context = await browser.newContext({
      colorScheme,
      javaScriptEnabled,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    return page;
  }

  it.each(['embedded', 'failed', 'dossier'])(
    'shows the %s map without a script: every section a row, every citing check a cell',
    async (kind) => {
      const result = reports.get(kind)!;
      const page = await open(kind, 'light', false);
      const map = page.locator('section.coverage');
      expect(await map.isVisible()).toBe(true);
      const sections = await map.locator('tbody th[scope="row"]').allTextContents();
      expect(sections).toEqual(loadSpec().sections);
      // One cell per (check, section it cites): nothing dropped, nothing counted twice.
      const citations = result.checks.reduce((n, c) => n + new Set(c.spec).size, 0);
      expect(await map.locator('span.cv[role="img"]').count()).toBe(citations);
      const failedCells = await map
        .locator('td span.cv.k-failed')
        .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('title') ?? ''));
      const failedIds = new Set(result.checks.filter((c) => c.status === 'failed' && !c.expected).map((c) => c.id));
      expect(new Set(failedCells.map((name) => name.replace(/^failed: /, '')))).toEqual(failedIds);
      // The browser names each cell by its title (what a screen reader announces), not by its colour.
      const first = result.checks.find((c) => c.spec.length > 0)!;
      const name = `${cellOutcome(first).word}: ${first.id}`;
      const named = result.checks.filter((c) => `${cellOutcome(c).word}: ${c.id}` === name);
      expect(await map.getByRole('img', { name, exact: true }).count()).toBe(
        named.reduce((n, c) => n + new Set(c.spec).size, 0),
      );
      if (kind === 'dossier') {
        expect(await map.locator('thead th').allTextContents()).toEqual([
          'Spec section',
          'run 1 Service API',
          'run 2 Staging API',
          'Outcomes',
        ]);
      }
      await map.screenshot({ path: join(SCREENSHOT_DIR, `coverage-${kind}.png`) });
      await page.context().close();
    },
  );

  it.each(['embedded', 'failed', 'dossier'])(
    'has no axe-core violation in the %s report, light and dark',
    async (kind) => {
      const lines: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        const page = await open(kind, scheme);
        await page.addScriptTag({ content: axe.source });
        const { violations } = await page.evaluate<{
          violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }>;
        }>(
          `axe.run({ include: [['section.coverage']] }, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} }, resultTypes: ['violations'] })`,
        );
        for (const v of violations)
          lines.push(
            `${scheme}: ${v.id} ${v.nodes
              .slice(0, 3)
              .map((n) => JSON.stringify(n.target))
              .join(' ')}`,
          );
        await page.context().close();
      }
      expect(lines, `axe violations in the ${kind} map:\n${lines.join('\n')}`).toEqual([]);
    },
    180_000,
  );
});
