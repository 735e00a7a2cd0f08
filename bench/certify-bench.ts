// `npm run bench:certify [-- --time-scale N]`: the budget of one full certification of the reference
// sandbox — requests, real runs, 429s the certifier caused, and the wall time against the critical
// path (the longest single wait the spec imposes: cert-slow's 3 minutes or a real run's completion).
// Every duration and the rate-limit window scale together, so the ratio measured at a high time scale
// is the ratio at time scale 1 (fixed loopback overheads only make it look worse).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedTarget } from '../src/embedded/embedded-target.js';
import { CATALOGUE_REQUESTS } from '../src/config/explore-defaults.js';
import { loadConfig } from '../src/config/load-config.js';
import { certify } from '../src/api-setup/certify.js';
import type { RecordedExchange, RunResult } from '../src/runner/results.js';
import { ALL_CHECKS, SUITE_ORDER } from '../suites/index.js';
import { matchEndpoint } from '../src/api/endpoints.js';

const CERT_SLOW_SPEC_MS = 3 * 60_000;
/**
 * Requests: the shared real run alone is read every 5 s of spec time for its 150-240 s, 30 to 48 reads,
 * so one certification varies by about 15 (main at 635f099: 334 to 352 over six runs); the checks of a
 * refused job update, a simulated 503 on a write, and a short (a third real run), a failed and a re-read run add about 12.
 * The fourth real run, the shared derived run, is a job's own, started without requirements (its 202
 * judged for origin too) and read until it lists a candidate once its description was replaced
 * (jobs.run-keeps-started-description): a job, a start, the replacement and 1 to 4 reads.
 */
const BUDGET = { requests: CATALOGUE_REQUESTS, realRuns: 4 };
/** Past its cap, the exploration may send the shrink tries and confirmations of a failure it found. */
const EXPLORE_SLACK = 0;

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a number > 0`);
  return v;
}

/** Start-to-terminal time of the shared real run, from its recorded setup exchanges (ms). */
function realRunMs(result: RunResult): number {
  const seen = new Set<string>();
  const setup: RecordedExchange[] = [];
  for (const c of result.checks) {
    for (const ex of c.exchanges) {
      const key = `${ex.startedAt}|${ex.request.method}|${ex.request.url}`;
      if (!(ex.label ?? '').startsWith('setup: real run') || seen.has(key)) continue;
      seen.add(key);
      setup.push(ex);
    }
  }
  const start = setup.find((e) => e.request.method === 'POST');
  const reads = setup.filter((e) => e.request.method === 'GET').sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const last = reads[reads.length - 1];
  if (!start || !last) return 0;
  return Date.parse(last.startedAt) + last.durationMs - Date.parse(start.startedAt);
}

/**
 * Start-to-end time of the short real run (ms): shared setup starts it, and the short-run check
 * (runs-read.short-run-explained-by-notice) waits for its end, so its completion is a wait the spec
 * imposes too. Its end is the first read of it, by any check, that shows a terminal status.
 */
function shortRealRunMs(result: RunResult): number {
  const all = result.checks.flatMap((c) => c.exchanges);
  // The endpoint table names the request: a recorded URL is the base URL (without its trailing slashes)
  // followed by the path the client sent.
  const baseUrl = result.target.baseUrl.replace(/\/+$/, '');
  const isRunStart = (e: RecordedExchange): boolean =>
    e.request.url.startsWith(baseUrl) &&
    matchEndpoint(e.request.method, e.request.url.slice(baseUrl.length))?.name === 'runs-start';
  const start = all.find((e) => (e.label ?? '').startsWith('setup: short real run') && isRunStart(e));
  const ends = all
    .filter(
      (e) =>
        /read the short real run/.test(e.label ?? '') &&
        /"status"\s*:\s*"(completed|failed)"/.test(e.response?.body ?? ''),
    )
    .map((e) => Date.parse(e.startedAt) + e.durationMs);
  if (!start || ends.length === 0) return 0;
  return Math.min(...ends) - Date.parse(start.startedAt);
}

const timeScale = argValue('--time-scale', 8);
const rateLimit = argValue('--rate-limit', 120);
/** `--explore N` (0 turns the exploration off: the catalogue alone, to compare) and `--seed N`, as `run` takes them. */
const exploreFlags = Object.fromEntries(
  ['--explore', '--seed'].flatMap((name) => {
    const i = process.argv.indexOf(name);
    const v = i >= 0 ? process.argv[i + 1] : undefined;
    return v === undefined ? [] : [[name.slice(2), v]];
  }),
);
/** `--report-dir DIR` keeps the result there (result.json, redacted as certify() returns it), to read where the requests went. */
const keptDir = process.argv.includes('--report-dir')
  ? process.argv[process.argv.indexOf('--report-dir') + 1]
  : undefined;
const reportDir = keptDir ?? mkdtempSync(join(tmpdir(), 'svc-bench-certify-'));
try {
  const base = loadConfig({
    flags: { timeScale: String(timeScale), rateLimit: String(rateLimit), reportDir, ...exploreFlags },
    env: {},
    cwd: reportDir,
    knownSuites: SUITE_ORDER,
  });
  const target = await startEmbeddedTarget(base, { timeScale, rateLimit });
  const t0 = performance.now();
  let result: RunResult;
  try {
    result = await certify({
      config: target.config,
      checks: ALL_CHECKS,
      suiteOrder: SUITE_ORDER,
      embedded: true,
      webhooks: target.webhooks,
    });
  } finally {
    await target.close();
  }
  const wallMs = performance.now() - t0;
  if (keptDir) writeFileSync(join(keptDir, 'result.json'), JSON.stringify(result));
  const criticalMs = Math.max(CERT_SLOW_SPEC_MS / timeScale, realRunMs(result), shortRealRunMs(result));
  const s = result.summary;
  const stats = result.stats ?? { requests: -1, realRuns: -1, rateLimited: -1 };
  // The exploration's share, apart: it fills only the rate budget the catalogue leaves unused.
  const explored = stats.exploreRequests ?? 0;
  const catalogue = stats.requests - explored;
  const ratio = wallMs / criticalMs;
  const lines = [
    `certification of the reference sandbox at time scale ${timeScale}, rate limit ${rateLimit}/min`,
    `checks: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.error} errors`,
    `requests: ${stats.requests}: catalogue ${catalogue} (budget ${BUDGET.requests}), exploration ${explored} (cap ${result.exploration?.cap ?? 0}, seed ${result.exploration?.seed ?? '-'})`,
    `real runs: ${stats.realRuns} (budget ${BUDGET.realRuns})`,
    `429 caused by the certifier: ${stats.rateLimited}`,
    `wall time: ${(wallMs / 1000).toFixed(2)} s = ${((wallMs * timeScale) / 60_000).toFixed(2)} spec minutes`,
    `critical path: ${(criticalMs / 1000).toFixed(2)} s (cert-slow ${(CERT_SLOW_SPEC_MS / timeScale / 1000).toFixed(2)} s, real run ${(realRunMs(result) / 1000).toFixed(2)} s, short real run ${(shortRealRunMs(result) / 1000).toFixed(2)} s)`,
    `ratio wall / critical path: ${ratio.toFixed(3)} (goal <= 1.10)`,
  ];
  console.log(lines.join('\n'));
  const over =
    catalogue > BUDGET.requests ||
    explored > (result.exploration?.cap ?? 0) + EXPLORE_SLACK ||
    stats.realRuns > BUDGET.realRuns ||
    stats.rateLimited > 0;
  if (over || s.failed > 0 || s.error > 0) process.exitCode = 1;
} finally {
  if (!keptDir) rmSync(reportDir, { recursive: true, force: true });
}
