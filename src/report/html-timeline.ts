// The timeline of report.html: the certification on its own clock, drawn as inline SVG by the report
// itself (no script, nothing loaded): a lane per suite with a bar per check from its start to its end,
// the critical path underlined, real runs and fixture waits told apart; the webhook deliveries (sent →
// received, retries); `partner`'s injections with the rule each arranges; and beneath, the requests of
// each rate window against the budget. The same facts follow as tables for keyboard and screen reader.
// A pure function of the RunResult (deterministic); every text from the run goes through escapeHtml.

import type { CheckResult, RunResult, TimelineDelivery, TimelineInjection } from '../runner/results.js';
import { rowStatus } from './html-check.js';
import { escapeHtml as h } from './html-escape.js';

/** How a check spent its time, read from the labels of its exchanges (the shared setup names its steps). */
type BarKind = 'real-run' | 'fixture' | 'other';

export interface TimelineBar {
  id: string;
  suite: string;
  outcome: string;
  startMs: number;
  endMs: number;
  kind: BarKind;
  critical: boolean;
}

/** A check whose exchanges start a real run, or a fixture run (cert-*), waits on it: the first that matches names the kind. */
const KIND_OF_LABEL: ReadonlyArray<{ kind: BarKind; label: RegExp }> = [
  { kind: 'real-run', label: /\breal run\b/ },
  { kind: 'fixture', label: /\bstart cert-/ },
];

function kindOf(check: CheckResult): BarKind {
  const labels = check.exchanges.map((e) => (typeof e.label === 'string' ? e.label : ''));
  return KIND_OF_LABEL.find(({ label }) => labels.some((l) => label.test(l)))?.kind ?? 'other';
}

/** Two moments this close count as one: a check started when the one before it ended. */
function joinTolerance(spanMs: number): number {
  return Math.max(50, spanMs / 400);
}

/**
 * The checks whose waits bound the run: the check that ended last, then the check that ended last
 * before it started (what it waited for, or the work that was still going: an afterOthers check
 * waits for the last of the others), and so on back to a check that started with the first ones.
 */
export function criticalPath(bars: ReadonlyArray<Pick<TimelineBar, 'id' | 'startMs' | 'endMs'>>): Set<string> {
  const path = new Set<string>();
  if (bars.length === 0) return path;
  const span = Math.max(...bars.map((b) => b.endMs));
  const tolerance = joinTolerance(span);
  const first = Math.min(...bars.map((b) => b.startMs));
  let current = bars.reduce((a, b) => (b.endMs > a.endMs ? b : a));
  for (;;) {
    path.add(current.id);
    if (current.startMs <= first + tolerance) break;
    const start = current.startMs;
    const before = bars.filter((b) => !path.has(b.id) && b.endMs <= start + tolerance);
    if (before.length === 0) break;
    current = before.reduce((a, b) => (b.endMs > a.endMs ? b : a));
  }
  return path;
}

/** The checks that ran, as bars on the run's clock (a check without a start never ran: no bar). */
export function barsOf(result: RunResult): TimelineBar[] {
  const bars = result.checks
    .filter((c) => typeof c.startedMs === 'number' && Number.isFinite(c.startedMs))
    .map((c) => {
      const startMs = Math.max(0, c.startedMs!);
      const duration = Number.isFinite(c.durationMs) && c.durationMs > 0 ? c.durationMs : 0;
      return {
        id: c.id,
        suite: c.suite,
        outcome: rowStatus(c),
        startMs,
        endMs: startMs + duration,
        kind: kindOf(c),
        critical: false,
      };
    });
  const critical = criticalPath(bars);
  return bars.map((b) => (critical.has(b.id) ? { ...b, critical: true } : b));
}

const TICK_STEPS_MS = [
  100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000,
  3_600_000, 7_200_000, 14_400_000,
];
const MAX_TICKS = 10;

/** Axis ticks at a round step, at most MAX_TICKS of them past zero: seconds for a short run, minutes for a long one. */
export function axisTicks(spanMs: number): number[] {
  const span = Math.max(1, spanMs);
  const step = TICK_STEPS_MS.find((s) => span / s <= MAX_TICKS) ?? Math.ceil(span / MAX_TICKS / 3_600_000) * 3_600_000;
  const ticks: number[] = [];
  for (let t = 0; t <= span; t += step) ticks.push(t);
  return ticks;
}

/** A tick's label: "500 ms", "30 s", "2 min", "1 min 30 s", "1 h 15 min". */
export function tickLabel(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1_000) return `${ms} ms`;
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  const seconds = Math.round(s - minutes * 60);
  if (minutes < 60) return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** A moment on the run's clock for the tables: m:ss.s. */
export function clockText(ms: number): string {
  const tenths = Math.round(Math.max(0, ms) / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return `${minutes}:${seconds}`;
}

// Geometry, in the SVG's user units (it scales to the page's width).
const WIDTH = 1140;
const GUTTER = 170;
const PLOT = WIDTH - GUTTER - 16;
const TOP = 22;
const ROW = 6;
const MAX_ROWS = 8;
const LANE_PAD = 5;
const MIN_BAR = 2;
const HISTOGRAM = 80;
const MAX_LABEL = 24;

interface Geometry {
  spanMs: number;
  x(ms: number): number;
}

function geometryOf(spanMs: number): Geometry {
  return { spanMs, x: (ms) => GUTTER + (Math.min(Math.max(ms, 0), spanMs) / spanMs) * PLOT };
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

const n = (v: number): string => String(Math.round(v * 10) / 10);

function shortLabel(text: string): string {
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text;
}

function laneLabel(y: number, height: number, text: string): string {
  return `<text class="tl-lane" x="${GUTTER - 8}" y="${n(y + height / 2 + 4)}" text-anchor="end">${h(shortLabel(text))}</text>`;
}

function barTitle(b: TimelineBar): string {
  const kind = b.kind === 'real-run' ? ', waits on a real run' : b.kind === 'fixture' ? ', waits on a fixture run' : '';
  return `${b.id} (${b.suite}): ${clockText(b.startMs)} → ${clockText(b.endMs)}, ${tickLabel(Math.round(b.endMs - b.startMs))}, ${b.outcome}${kind}${b.critical ? ', on the critical path' : ''}`;
}

/** A suite's lane: bars packed into at most MAX_ROWS rows, the earliest free row first. */
function lane(bars: readonly TimelineBar[], y: number, g: Geometry): { svg: string; height: number } {
  const rowEnds: number[] = [];
  const placed = [...bars]
    .sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id))
    .map((b) => {
      const x = g.x(b.startMs);
      const w = Math.max(MIN_BAR, g.x(b.endMs) - x);
      let row = rowEnds.findIndex((end) => end <= x);
      if (row === -1) {
        if (rowEnds.length < MAX_ROWS) row = rowEnds.push(0) - 1;
        else row = rowEnds.indexOf(Math.min(...rowEnds));
      }
      rowEnds[row] = Math.max(rowEnds[row]!, x + w + 1);
      return { b, x, w, row };
    });
  const height = Math.max(16, rowEnds.length * ROW + 2 * LANE_PAD);
  const svg = placed
    .map(({ b, x, w, row }) => {
      const top = y + LANE_PAD + row * ROW;
      const rect = `<rect class="tl-bar s-${b.outcome} k-${b.kind}" x="${n(x)}" y="${n(top)}" width="${n(w)}" height="${ROW - 2}"><title>${h(barTitle(b))}</title></rect>`;
      const crit = b.critical
        ? `<line class="tl-crit" x1="${n(x)}" x2="${n(x + w)}" y1="${n(top + ROW - 1)}" y2="${n(top + ROW - 1)}"/>`
        : '';
      return rect + crit;
    })
    .join('');
  return { svg, height };
}

function deliveryTitle(d: TimelineDelivery): string {
  const sent = d.sentMs !== undefined ? `${clockText(d.sentMs)} → ` : '';
  return `${d.event || 'delivery'} ${d.eventId} attempt ${d.attempt}: ${sent}${clockText(d.receivedMs)}, answered ${d.status}`;
}

function deliveriesLane(deliveries: readonly TimelineDelivery[], y: number, g: Geometry): string {
  const mid = y + 10;
  return deliveries
    .map((d) => {
      const to = g.x(d.receivedMs);
      const from = d.sentMs !== undefined && d.sentMs < d.receivedMs ? g.x(d.sentMs) : to;
      const cls = `tl-delivery${d.attempt > 1 ? ' retry' : ''}${d.status >= 200 && d.status <= 299 ? '' : ' refused'}`;
      return (
        `<g class="${cls}"><title>${h(deliveryTitle(d))}</title>` +
        (from < to ? `<line x1="${n(from)}" x2="${n(to)}" y1="${mid}" y2="${mid}"/>` : '') +
        `<circle cx="${n(to)}" cy="${mid}" r="3"/></g>`
      );
    })
    .join('');
}

function injectionTitle(i: TimelineInjection): string {
  return `injection ${i.id} at ${clockText(i.atMs)} (request #${i.request}): arranges the rule ${i.rule}`;
}

function injectionsLane(injections: readonly TimelineInjection[], y: number, g: Geometry): string {
  const mid = y + 10;
  return injections
    .map((i) => {
      const x = g.x(i.atMs);
      return `<path class="tl-injection" d="M${n(x)} ${mid - 6}l5 6-5 6-5-6z"><title>${h(injectionTitle(i))}</title></path>`;
    })
    .join('');
}

/** The requests of each rate window as columns, the budget as a dashed line over them. */
function histogram(
  requests: readonly number[],
  windowMs: number,
  budget: number | undefined,
  y: number,
  g: Geometry,
): string {
  const top = Math.max(1, budget ?? 0, ...requests) * 1.1;
  const base = y + HISTOGRAM;
  const columns = requests
    .map((count, i) => {
      if (count === 0) return '';
      const x = g.x(i * windowMs);
      const w = Math.max(1, g.x((i + 1) * windowMs) - x - (PLOT / requests.length > 4 ? 1 : 0));
      const height = (count / top) * HISTOGRAM;
      const over = budget !== undefined && count > budget ? ' over' : '';
      return `<rect class="tl-rate${over}" x="${n(x)}" y="${n(base - height)}" width="${n(w)}" height="${n(height)}"><title>${h(`${clockText(i * windowMs)} → ${clockText((i + 1) * windowMs)}: ${count} requests${budget !== undefined ? ` of ${budget}` : ''}`)}</title></rect>`;
    })
    .join('');
  const line =
    budget === undefined
      ? ''
      : `<line class="tl-budget" x1="${GUTTER}" x2="${GUTTER + PLOT}" y1="${n(base - (budget / top) * HISTOGRAM)}" y2="${n(base - (budget / top) * HISTOGRAM)}"/>` +
        `<text class="tl-note" x="${GUTTER + PLOT}" y="${n(base - (budget / top) * HISTOGRAM - 3)}" text-anchor="end">${h(`rate budget ${budget} a window`)}</text>`;
  return (
    laneLabel(y, HISTOGRAM, 'requests per window') +
    `<line class="tl-axis" x1="${GUTTER}" x2="${GUTTER + PLOT}" y1="${base}" y2="${base}"/>` +
    columns +
    line
  );
}

/** The rate budget per window: --rate-limit, as the redacted configuration records it. */
function budgetOf(result: RunResult): number | undefined {
  const limit = result.config.rateLimit;
  return typeof limit === 'number' && Number.isFinite(limit) && limit > 0 ? limit : undefined;
}

/** The timeline's rules, for the report's one stylesheet (colours from its custom properties: light and dark). */
export const TIMELINE_STYLE =
  '.tl-svg{width:100%;height:auto;display:block;font:11px system-ui,sans-serif}' +
  '.tl-lane,.tl-tick,.tl-note{fill:var(--muted)}' +
  '.tl-grid{stroke:var(--border);stroke-width:.5}.tl-axis{stroke:var(--muted);stroke-width:1}' +
  '.tl-bar{stroke-width:1}.tl-bar.s-passed{fill:var(--pass)}.tl-bar.s-failed{fill:var(--fail)}.tl-bar.s-error{fill:var(--err)}' +
  '.tl-bar.s-warning{fill:var(--warn)}.tl-bar.s-skipped,.tl-bar.s-expected{fill:var(--skip)}' +
  '.tl-bar.k-real-run{stroke:var(--fg)}.tl-bar.k-fixture{fill-opacity:.45;stroke:var(--fg);stroke-dasharray:2 1}' +
  '.tl-crit{stroke:var(--accent);stroke-width:2}' +
  '.tl-delivery{stroke:var(--accent);fill:var(--accent);stroke-width:1.5}.tl-delivery.retry{stroke:var(--warn);fill:var(--warn)}' +
  '.tl-delivery.refused circle{fill:var(--bg)}.tl-injection{fill:var(--err)}' +
  '.tl-rate{fill:var(--accent);fill-opacity:.6}.tl-rate.over{fill:var(--fail)}' +
  '.tl-budget{stroke:var(--fail);stroke-dasharray:4 3}' +
  '.timeline .legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 16px;padding:0;margin:6px 0;color:var(--muted);font-size:12.5px}' +
  '.timeline .sw{display:inline-block;width:14px;height:8px;margin-inline-end:5px;vertical-align:middle;border:1px solid transparent}' +
  '.timeline table{border-collapse:collapse;margin:8px 0}.timeline th,.timeline td{text-align:left;padding:2px 12px 2px 0;vertical-align:top}' +
  '.timeline td.num{text-align:right;font-variant-numeric:tabular-nums}';

const LEGEND: ReadonlyArray<{ style: string; label: string }> = [
  { style: 'background:var(--pass)', label: 'passed' },
  { style: 'background:var(--fail)', label: 'failed' },
  { style: 'background:var(--warn)', label: 'warning' },
  { style: 'background:var(--err)', label: 'error' },
  { style: 'background:var(--skip)', label: 'skipped or expected failure' },
  { style: 'background:var(--panel);border-color:var(--fg)', label: 'waits on a real run (outlined)' },
  { style: 'background:var(--panel);border:1px dashed var(--fg)', label: 'waits on a fixture run (pale, dashed)' },
  { style: 'background:var(--accent);height:3px', label: 'critical path (underlined)' },
];

const LEGEND_EXTRA = {
  deliveries: {
    style: 'background:var(--accent);height:3px',
    label: 'webhook delivery: sent → received (retry in orange, hollow if refused)',
  },
  injections: { style: 'background:var(--err);transform:rotate(45deg);width:8px', label: 'injection' },
  requests: { style: 'background:var(--accent);opacity:.6', label: 'requests per rate window; dashed: the budget' },
};

function legend(entries: ReadonlyArray<{ style: string; label: string }>): string {
  return `<ul class="legend">${entries.map((e) => `<li><span class="sw" style="${e.style}"></span>${h(e.label)}</li>`).join('')}</ul>`;
}

function table(
  caption: string,
  head: readonly string[],
  rows: readonly string[][],
  numeric: ReadonlySet<number>,
): string {
  const th = head.map((c) => `<th scope="col">${h(c)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => `<td${numeric.has(i) ? ' class="num"' : ''}>${h(c)}</td>`).join('')}</tr>`)
    .join('');
  return `<table><caption>${h(caption)}</caption><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

function tables(
  bars: readonly TimelineBar[],
  deliveries: readonly TimelineDelivery[],
  injections: readonly TimelineInjection[],
  requests: readonly number[],
  windowMs: number,
  budget: number | undefined,
): string {
  const parts: string[] = [];
  if (bars.length > 0)
    parts.push(
      table(
        'Checks on the clock, in start order',
        ['check', 'suite', 'start', 'end', 'duration', 'outcome', 'waits on', 'critical path'],
        [...bars]
          .sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id))
          .map((b) => [
            b.id,
            b.suite,
            clockText(b.startMs),
            clockText(b.endMs),
            tickLabel(Math.round(b.endMs - b.startMs)),
            b.outcome,
            b.kind === 'real-run' ? 'a real run' : b.kind === 'fixture' ? 'a fixture run' : '',
            b.critical ? 'yes' : '',
          ]),
        new Set([2, 3, 4]),
      ),
    );
  if (deliveries.length > 0)
    parts.push(
      table(
        'Webhook deliveries, in arrival order',
        ['event', 'event id', 'attempt', 'sent', 'received', 'answered'],
        deliveries.map((d) => [
          d.event,
          d.eventId,
          String(d.attempt),
          d.sentMs !== undefined ? clockText(d.sentMs) : '',
          clockText(d.receivedMs),
          String(d.status),
        ]),
        new Set([2, 3, 4, 5]),
      ),
    );
  if (injections.length > 0)
    parts.push(
      table(
        'Injections, in order',
        ['injection', 'at', 'request', 'rule it arranges'],
        injections.map((i) => [i.id, clockText(i.atMs), `#${i.request}`, i.rule]),
        new Set([1, 2]),
      ),
    );
  if (requests.length > 0)
    parts.push(
      table(
        `Requests per rate window (${tickLabel(Math.round(windowMs))})${budget !== undefined ? `, budget ${budget}` : ''}`,
        ['window', 'requests'],
        requests.map((count, i) => [`${clockText(i * windowMs)} → ${clockText((i + 1) * windowMs)}`, String(count)]),
        new Set([1]),
      ),
    );
  return parts.join('');
}

/** The timeline section, or '' when the result recorded no clock (written before it was, a dossier, an error). */
export function renderTimeline(result: RunResult): string {
  // A dossier's checks keep the clocks of several certifications: each is drawn in its own report.
  if (result.certification === 'dossier') return '';
  const bars = barsOf(result);
  const timeline = result.timeline;
  const deliveries = timeline?.deliveries ?? [];
  const injections = timeline?.injections ?? [];
  const windowMs = timeline && Number.isFinite(timeline.windowMs) && timeline.windowMs > 0 ? timeline.windowMs : 0;
  const requests = windowMs > 0 ? (timeline?.requests ?? []) : [];
  if (bars.length === 0 && deliveries.length === 0 && injections.length === 0 && requests.length === 0) return '';
  const budget = budgetOf(result);
  const spanMs = Math.max(
    1,
    Number.isFinite(result.durationMs) ? result.durationMs : 0,
    ...bars.map((b) => b.endMs),
    ...deliveries.map((d) => d.receivedMs),
    ...injections.map((i) => i.atMs),
  );
  const g = geometryOf(spanMs);
  const ticks = axisTicks(spanMs);

  let y = TOP;
  const body: string[] = [];
  const suites = result.suites.filter((s) => bars.some((b) => b.suite === s));
  for (const suite of [...suites, ...new Set(bars.map((b) => b.suite).filter((s) => !suites.includes(s)))]) {
    const { svg, height } = lane(
      bars.filter((b) => b.suite === suite),
      y,
      g,
    );
    body.push(laneLabel(y, height, suite), svg);
    y += height;
  }
  if (deliveries.length > 0) {
    body.push(laneLabel(y, 20, 'webhook deliveries'), deliveriesLane(deliveries, y, g));
    y += 24;
  }
  if (injections.length > 0) {
    body.push(laneLabel(y, 20, 'injections'), injectionsLane(injections, y, g));
    y += 24;
  }
  if (requests.length > 0) {
    y += 8;
    body.push(histogram(requests, windowMs, budget, y, g));
    y += HISTOGRAM;
  }
  const bottom = y + 4;
  const grid = ticks
    .map(
      (t) =>
        `<line class="tl-grid" x1="${n(g.x(t))}" x2="${n(g.x(t))}" y1="${TOP - 4}" y2="${n(bottom)}"/>` +
        `<text class="tl-tick" x="${n(g.x(t))}" y="${TOP - 8}" text-anchor="middle">${h(tickLabel(t))}</text>`,
    )
    .join('');
  const height = Math.ceil(bottom + 6);
  const counts = [
    plural(bars.length, 'check', 'checks'),
    plural(deliveries.length, 'webhook delivery', 'webhook deliveries'),
    plural(injections.length, 'injection', 'injections'),
  ].filter((c) => !c.startsWith('0 '));
  const label = `Timeline of the certification over ${tickLabel(Math.round(spanMs))}: ${counts.join(', ')}; the same facts are in the tables below`;
  const svg =
    `<svg class="tl-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${h(label)}">` +
    `${grid}${body.join('')}</svg>`;
  const legendEntries = [
    ...(bars.length > 0 ? LEGEND : []),
    ...(deliveries.length > 0 ? [LEGEND_EXTRA.deliveries] : []),
    ...(injections.length > 0 ? [LEGEND_EXTRA.injections] : []),
    ...(requests.length > 0 ? [LEGEND_EXTRA.requests] : []),
  ];
  return (
    `<section class="timeline" id="timeline" aria-labelledby="timeline-title">` +
    `<h2 id="timeline-title">Timeline <small>${h(tickLabel(Math.round(spanMs)))} on the certification's clock</small></h2>` +
    svg +
    legend(legendEntries) +
    `<details class="timeline-facts"><summary>The timeline as tables</summary>${tables(bars, deliveries, injections, requests, windowMs, budget)}</details>` +
    `</section>`
  );
}
