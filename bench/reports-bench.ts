// `npm run bench:reports`: the size of every report file for a clean embedded certification and
// for one with 20 failed checks (the reference sandbox with faults switched on, as a defective
// deployment), and the time report.html takes to open in Chromium at 1× and 10× the exchanges of the
// clean run (goal: under 1 s at 10×). CI systems parse junit.xml on every pipeline and some cap it;
// a person opens report.html from an artifact store.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../test/support/chromium.js';
import { startEmbeddedTarget } from '../src/embedded/embedded-target.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';
import { loadConfig } from '../src/config/load-config.js';
import { renderHtml, renderJson, renderJunit, renderMarkdown, renderSarif } from '../src/report/index.js';
import { certify } from '../src/api-setup/certify.js';
import type { RunResult } from '../src/runner/results.js';
import { listFaults } from '../src/sandbox/index.js';
import { ALL_CHECKS, SUITE_ORDER } from '../suites/index.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const WANTED_FAILURES = 20;
const TIME_SCALE = 60;

/** The result before resultWithVerdict cut passed checks' bodies: the "before" column. */
const UNCAPPED = new WeakMap<RunResult, RunResult>();

async function certifyEmbedded(faults: string[]): Promise<RunResult> {
  const base = loadConfig({
    flags: { timeScale: String(TIME_SCALE) },
    env: {},
    cwd: tmpdir(),
    knownSuites: SUITE_ORDER,
  });
  const target = await startEmbeddedTarget(base, { timeScale: TIME_SCALE, rateLimit: base.rateLimit, faults });
  try {
    const result = await certify({
      config: target.config,
      checks: ALL_CHECKS,
      suiteOrder: SUITE_ORDER,
      embedded: true,
      webhooks: target.webhooks,
    });
    const settled = resultWithVerdict(result, { strict: false });
    UNCAPPED.set(settled, result);
    return settled;
  } finally {
    await target.close();
  }
}

/** results.json as it was written before passed checks' bodies were cut : the "before" column. */
function uncappedJson(result: RunResult): string {
  return `${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`;
}

function sizes(result: RunResult): Record<string, number> {
  return {
    'results.json before caps': Buffer.byteLength(uncappedJson(UNCAPPED.get(result) ?? result)),
    'results.json': Buffer.byteLength(renderJson(result)),
    'results.sarif': Buffer.byteLength(renderSarif(result)),
    'junit.xml': Buffer.byteLength(renderJunit(result)),
    'report.html': Buffer.byteLength(renderHtml(result)),
    'summary.md': Buffer.byteLength(renderMarkdown(result)),
  };
}

function exchangeCount(result: RunResult): number {
  return result.checks.reduce((n, c) => n + c.exchanges.length, 0);
}

/**
 * Every check's exchanges repeated `factor` times (re-indexed), as a slower target that makes checks
 * poll ten times as often would. Copy k of an exchange differs from copy j (its label says which), and
 * the same exchange recorded into several checks stays the same exchange in each, as in a real run.
 */
function inflate(result: RunResult, factor: number): RunResult {
  return {
    ...result,
    checks: result.checks.map((c) => ({
      ...c,
      exchanges: Array.from({ length: factor }, (_, k) =>
        c.exchanges.map((e) => (k === 0 ? e : { ...e, label: `${e.label ?? 'exchange'} (repeat ${k})` })),
      )
        .flat()
        .map((e, index) => ({ ...e, index })),
    })),
  };
}

/**
 * Faults added one by one (areas whose checks need no shared setup first, so one fault fails few
 * checks), each certification counting the failures, until exactly WANTED_FAILURES fail; a fault that
 * overshoots is left out.
 */
async function runWithFailures(): Promise<{ result: RunResult; faults: string[] }> {
  const candidates = listFaults()
    .filter((f) => /^(conventions|runs-read|fixtures|reveal|decisions|webhooks|jobs|users)\./.test(f.id))
    .map((f) => f.id);
  // A batch first (a certification takes seconds; most of these faults fail one check each), then
  // one fault at a time up to the goal.
  const BATCH = 15;
  let chosen: string[] = [];
  let best: RunResult | undefined;
  const first = await certifyEmbedded(candidates.slice(0, BATCH));
  if (first.summary.failed <= WANTED_FAILURES) {
    chosen = candidates.slice(0, BATCH);
    best = first;
    process.stderr.write(`  ${BATCH} faults → ${first.summary.failed} failed\n`);
  }
  for (const id of candidates.slice(best ? BATCH : 0)) {
    if (best && best.summary.failed === WANTED_FAILURES) break;
    const trial = [...chosen, id];
    const result = await certifyEmbedded(trial);
    const failed = result.summary.failed;
    if (failed > WANTED_FAILURES) continue;
    chosen.push(id);
    best = result;
    process.stderr.write(`  ${trial.length} faults → ${failed} failed\n`);
    if (failed === WANTED_FAILURES) break;
  }
  if (!best) throw new Error('no fault set found');
  return { result: best, faults: chosen };
}

/** Median of `runs`: the page's open time, and the time to open the first closed row (its exchanges render then). */
async function openTimeMs(html: string, runs = 3): Promise<{ page: number; row: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-html-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const browser = await launchChromium(CHROMIUM);
  try {
    const times: number[] = [];
    const rows: number[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      // Load event end plus one frame: the page is parsed, scripted, styled and painted.
      // A string expression: the project compiles without the DOM lib.
      const ms = (await page.evaluate(
        "new Promise((resolve) => requestAnimationFrame(() => resolve(Math.max(performance.getEntriesByType('navigation')[0].loadEventEnd, performance.now()))))",
      )) as number;
      times.push(ms);
      rows.push(
        (await page.evaluate(
          "new Promise((resolve) => { const slot = document.querySelector('li.s-passed .lazy[data-lazy]'); const t0 = performance.now(); slot.closest('li').querySelector(':scope > details > summary').click(); const wait = () => (slot.hasAttribute('data-lazy') ? setTimeout(wait, 0) : requestAnimationFrame(() => resolve(performance.now() - t0))); wait(); })",
        )) as number,
      );
      await page.close();
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return { page: median(times), row: median(rows) };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

function table(rows: Array<[string, Record<string, number>]>): string {
  const files = Object.keys(rows[0]![1]);
  const head = `| run | ${files.join(' | ')} |\n| --- |${files.map(() => ' ---: |').join('')}\n`;
  return head + rows.map(([name, s]) => `| ${name} | ${files.map((f) => kb(s[f]!)).join(' | ')} |`).join('\n');
}

async function main(): Promise<void> {
  process.stderr.write('clean embedded certification…\n');
  const clean = await certifyEmbedded([]);
  process.stderr.write(`certification with ${WANTED_FAILURES} failed checks (sandbox faults)…\n`);
  const { result: failing, faults } = await runWithFailures();

  const rows: Array<[string, Record<string, number>]> = [
    [`clean (${clean.summary.total} checks, ${exchangeCount(clean)} exchanges)`, sizes(clean)],
    [`${failing.summary.failed} failed (${exchangeCount(failing)} exchanges)`, sizes(failing)],
  ];
  const tenfold = inflate(clean, 10);
  UNCAPPED.set(tenfold, inflate(UNCAPPED.get(clean) ?? clean, 10));
  rows.push([`clean at 10× exchanges (${exchangeCount(tenfold)})`, sizes(tenfold)]);

  const open1 = await openTimeMs(renderHtml(clean));
  const open10 = await openTimeMs(renderHtml(tenfold));

  process.stdout.write(`\nReport sizes (bytes as written):\n\n${table(rows)}\n\n`);
  process.stdout.write(`Faults for the failing run: ${faults.join(', ')}\n\n`);
  process.stdout.write(`report.html open time in Chromium (load event + one frame, median of 3):\n`);
  process.stdout.write(
    `  clean:            ${open1.page.toFixed(0)} ms (then a passed row opens in ${open1.row.toFixed(0)} ms)\n`,
  );
  process.stdout.write(
    `  10× exchanges:    ${open10.page.toFixed(0)} ms (goal < 1000 ms) ${open10.page < 1000 ? 'OK' : 'TOO SLOW'} (then a passed row opens in ${open10.row.toFixed(0)} ms)\n`,
  );
}

await main();
