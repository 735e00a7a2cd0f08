import { describe, expect, it } from 'vitest';
import type { CheckResult, RunResult } from '../runner/results.js';
import { axisTicks, barsOf, clockText, criticalPath, renderTimeline, tickLabel } from './html-timeline.js';

function check(
  id: string,
  suite: string,
  startedMs: number | undefined,
  durationMs: number,
  extra: Partial<CheckResult> = {},
): CheckResult {
  return {
    id,
    title: `title of ${id}`,
    suite,
    spec: [],
    status: 'passed',
    message: '',
    durationMs,
    ...(startedMs !== undefined ? { startedMs } : {}),
    observations: [],
    exchanges: [],
    ...extra,
  };
}

function result(checks: CheckResult[], extra: Partial<RunResult> = {}): RunResult {
  return {
    certification: 'run',
    title: 'Service API',
    tool: { name: 'svc-certify', version: '0.0.0' },
    spec: { title: 'spec', sha256: '0'.repeat(64) },
    config: { rateLimit: 120 },
    target: { baseUrl: 'http://127.0.0.1:1/v1', environment: 'sandbox', embedded: true },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:03:10.000Z',
    durationMs: Math.max(0, ...checks.map((c) => (c.startedMs ?? 0) + c.durationMs)),
    summary: { total: checks.length, passed: checks.length, failed: 0, skipped: 0, error: 0, warning: 0, expected: 0 },
    suites: [...new Set(checks.map((c) => c.suite))],
    checks,
    ...extra,
  };
}

const exchange = (label: string): CheckResult['exchanges'][number] => ({
  index: 0,
  label,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1:1/v1/runs', headers: {} },
});

/** The x, width of each bar's rect, by the check id its title starts with. */
function rects(svg: string): Map<string, { x: number; width: number; cls: string }> {
  const out = new Map<string, { x: number; width: number; cls: string }>();
  for (const m of svg.matchAll(
    /<rect class="(tl-bar[^"]*)" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*><title>([^ ]+) /g,
  ))
    out.set(m[4]!, { cls: m[1]!, x: Number(m[2]), width: Number(m[3]) });
  return out;
}

describe('the axis', () => {
  it('ticks in seconds for a run of seconds and in minutes for a 30-minute run, at most ten past zero', () => {
    expect(axisTicks(80_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000]);
    expect(axisTicks(80_000).map(tickLabel)).toEqual([
      '0',
      '10 s',
      '20 s',
      '30 s',
      '40 s',
      '50 s',
      '1 min',
      '1 min 10 s',
      '1 min 20 s',
    ]);
    const long = axisTicks(30 * 60_000);
    expect(long.map(tickLabel)).toEqual(['0', '5 min', '10 min', '15 min', '20 min', '25 min', '30 min']);
    expect(axisTicks(3 * 3_600_000).map(tickLabel)).toEqual([
      '0',
      '30 min',
      '1 h',
      '1 h 30 min',
      '2 h',
      '2 h 30 min',
      '3 h',
    ]);
    expect(axisTicks(900)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });

  it('writes moments as m:ss.s', () => {
    expect(clockText(0)).toBe('0:00.0');
    expect(clockText(3_049)).toBe('0:03.0');
    expect(clockText(183_250)).toBe('3:03.3');
    expect(clockText(30 * 60_000)).toBe('30:00.0');
  });

  it('scales bars to the run and gives the shortest a minimum width', () => {
    const svg = renderTimeline(
      result([
        check('a.long', 'a', 0, 30 * 60_000),
        check('a.short', 'a', 15 * 60_000, 5),
        check('b.half', 'b', 0, 15 * 60_000),
      ]),
    );
    const bars = rects(svg);
    const long = bars.get('a.long')!;
    const half = bars.get('b.half')!;
    const short = bars.get('a.short')!;
    expect(half.width / long.width).toBeCloseTo(0.5, 2);
    expect(short.x).toBeCloseTo(half.x + half.width, 0);
    expect(short.width).toBe(2);
  });
});

describe('the critical path', () => {
  it('runs back from the check that ended last through the checks each one waited for', () => {
    const bars = [
      { id: 'fixtures.cert-slow', startMs: 0, endMs: 180_000 },
      { id: 'auth.quick', startMs: 0, endMs: 2_000 },
      { id: 'runs.middle', startMs: 2_000, endMs: 170_000 },
      { id: 'decisions.after-others', startMs: 180_010, endMs: 185_000 },
    ];
    expect([...criticalPath(bars)]).toEqual(['decisions.after-others', 'fixtures.cert-slow']);
    // Across a gap (a shared step between them) the path goes on to what ended last before it, and
    // ends at a check that started with the first ones.
    expect([
      ...criticalPath([
        { id: 'x', startMs: 5_000, endMs: 9_000 },
        { id: 'y', startMs: 1_000, endMs: 3_000 },
        { id: 'z', startMs: 1_000, endMs: 2_000 },
        { id: 'w', startMs: 2_500, endMs: 2_600 },
      ]),
    ]).toEqual(['x', 'y']);
    expect(criticalPath([]).size).toBe(0);
  });

  it('is underlined in the SVG and named in the table; real runs and fixture waits are told apart', () => {
    const r = result([
      check('fixtures.cert-slow', 'fixtures', 0, 180_000, { exchanges: [exchange('setup: start cert-slow')] }),
      check('runs.real', 'runs', 0, 20_000, { exchanges: [exchange('setup: start real run')] }),
      check('decisions.after', 'decisions', 180_010, 5_000),
    ]);
    expect(barsOf(r).map((b) => [b.id, b.kind, b.critical])).toEqual([
      ['fixtures.cert-slow', 'fixture', true],
      ['runs.real', 'real-run', false],
      ['decisions.after', 'other', true],
    ]);
    const html = renderTimeline(r);
    expect(html.match(/<line class="tl-crit"/g)).toHaveLength(2);
    const kinds = rects(html);
    expect(kinds.get('fixtures.cert-slow')!.cls).toContain('k-fixture');
    expect(kinds.get('runs.real')!.cls).toContain('k-real-run');
    expect(html).toMatch(
      /<td>fixtures\.cert-slow<\/td><td>fixtures<\/td><td class="num">0:00\.0<\/td><td class="num">3:00\.0<\/td><td class="num">3 min<\/td><td>passed<\/td><td>a fixture run<\/td><td>yes<\/td>/,
    );
  });
});

describe('the timeline section', () => {
  it('draws nothing for a result without a clock (older results, a dossier)', () => {
    expect(renderTimeline(result([check('a.b', 'a', undefined, 10)]))).toBe('');
    expect(renderTimeline({ ...result([check('a.b', 'a', 0, 10)]), certification: 'dossier' })).toBe('');
  });

  it('draws requests per window against the rate budget, and the deliveries with their retries', () => {
    const html = renderTimeline(
      result([check('a.b', 'a', 0, 3_000)], {
        timeline: {
          windowMs: 1_000,
          requests: [130, 40, 0],
          deliveries: [
            { event: 'run_completed', eventId: 'e1', attempt: 1, sentMs: 500, receivedMs: 600, status: 503 },
            { event: 'run_completed', eventId: 'e1', attempt: 2, sentMs: 500, receivedMs: 2_600, status: 200 },
          ],
        },
      }),
    );
    expect(html.match(/<rect class="tl-rate( over)?"/g)).toEqual([
      '<rect class="tl-rate over"',
      '<rect class="tl-rate"',
    ]);
    expect(html).toContain('rate budget 120 a window');
    expect(html).toContain(
      '<g class="tl-delivery refused"><title>run_completed e1 attempt 1: 0:00.5 → 0:00.6, answered 503</title>',
    );
    expect(html).toContain(
      '<g class="tl-delivery retry"><title>run_completed e1 attempt 2: 0:00.5 → 0:02.6, answered 200</title>',
    );
    expect(html).toContain('<tr><td>0:00.0 → 0:01.0</td><td class="num">130</td></tr>');
  });

  it('draws 213 checks of a 30-minute run in bounded lanes and size', () => {
    const checks = Array.from({ length: 212 }, (_, i) =>
      check(`suite${i % 20}.check-${i}`, `suite${i % 20}`, (i * 7_919) % (25 * 60_000), 60_000 + (i % 5) * 30_000),
    );
    checks.push(check('suite0.whole-run', 'suite0', 0, 30 * 60_000));
    const html = renderTimeline(result(checks, { timeline: { windowMs: 60_000, requests: Array(30).fill(100) } }));
    expect(html.match(/<rect class="tl-bar/g)).toHaveLength(213);
    const height = Number(/viewBox="0 0 1140 (\d+)"/.exec(html)![1]);
    // 20 lanes of at most 8 rows each, the histogram and the axis.
    expect(height).toBeLessThan(20 * (8 * 6 + 10) + 200);
    expect(html).toContain('>30 min</text>');
    expect(html.length).toBeLessThan(150_000);
  });

  it('keeps hostile check ids, suites and event ids text: no tag, no attribute break, no bidi or ESC', () => {
    const hostile = 'evil"><script>alert(1)</script>\u202Egnp.exe\u001b[31m';
    const html = renderTimeline(
      result([check(hostile, `s${hostile}`, 0, 10)], {
        timeline: {
          windowMs: 1_000,
          requests: [1],
          deliveries: [{ event: hostile, eventId: hostile, attempt: 1, receivedMs: 5, status: 200 }],
          injections: [{ id: hostile, atMs: 3, request: 1, rule: hostile }],
        },
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('evil"');
    expect(html).not.toMatch(/[\u202E\u001b]/);
    expect(html).toContain('evil&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\u202Egnp.exe\\x1B[31m');
    // Every element the SVG opens is one the renderer writes.
    const tags = new Set([...html.matchAll(/<([a-z][a-z0-9]*)[\s>]/g)].map((m) => m[1]));
    expect([...tags].sort()).toEqual(
      [
        'caption',
        'circle',
        'details',
        'g',
        'h2',
        'li',
        'line',
        'path',
        'rect',
        'section',
        'small',
        'span',
        'summary',
        'svg',
        'table',
        'tbody',
        'td',
        'text',
        'th',
        'thead',
        'title',
        'tr',
        'ul',
      ].sort(),
    );
  });
});
