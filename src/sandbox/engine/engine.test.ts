import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveFaults } from '../faults/index.js';
import { createEngine, poolFor, type EngineChoices } from './engine.js';
import { FAIL_MARKER } from './plan.js';
import { createPool } from './pool.js';
import type { Engine, EngineRunInput, EngineSnapshot } from './types.js';

const IMPOSSIBLE = ['widen_hint', 'relaxation_ladder', 'global_relaxed', 'lean_search_failed'];
const POSSIBLE = [
  'function_error',
  'run_progress',
  'location_relaxed',
  'must_unmet_hidden',
  'paid_fallback',
  'already_shown',
  'requirement_blockers',
  'requirement_attribution',
  'run_funnel',
];

const engines: Engine[] = [];
function engine(opts: { seed?: number; timeScale?: number; faults?: string[] } & EngineChoices = {}): Engine {
  const { faults, ...choices } = opts;
  const e = createEngine({
    ...choices,
    seed: opts.seed ?? 7,
    timeScale: opts.timeScale ?? 1,
    faults: resolveFaults(faults ?? []),
  });
  engines.push(e);
  return e;
}
afterEach(() => {
  while (engines.length) engines.pop()!.close();
});
// Builds the shared pool of seed 7 once, so that no timing test pays for it (a run's clock starts after it).
beforeAll(() => {
  poolFor(7);
});

let runCounter = 0;
function input(over: Partial<EngineRunInput> = {}, job: Partial<EngineRunInput['job']> = {}): EngineRunInput {
  runCounter += 1;
  return {
    runId: `00000000-0000-4000-8000-${String(runCounter).padStart(12, '0')}`,
    organizationId: 'org-1',
    job: {
      externalId: `job-${runCounter}`,
      title: 'Backend Engineer',
      descriptionText: 'We build payment APIs in Python.',
      locationText: 'Tel Aviv',
      ...job,
    },
    requirements: [
      { index: 0, text: 'Experience with Python', kind: 'must', origin: 'partner' },
      { index: 1, text: 'Kubernetes', kind: 'nice', origin: 'partner' },
      { index: 2, text: 'Backend Engineer', kind: 'must', origin: 'job_title' },
    ],
    targetCount: 10,
    startedAt: 1_700_000_000_000,
    ...over,
  };
}

/** The snapshot `seconds` of spec time after the start, on an engine of the given time scale. */
function at(e: Engine, run: EngineRunInput, seconds: number, timeScale = 1): EngineSnapshot {
  const snap = e.snapshot(run.runId, run.startedAt + (seconds * 1000) / timeScale);
  if (!snap) throw new Error('run not found');
  return snap;
}

describe('synthetic pool', () => {
  it('is a pure function of its seed', () => {
    const a = createPool(42, 500);
    const b = createPool(42, 500);
    const c = createPool(43, 500);
    expect(a).toEqual(b);
    expect(a.map((p) => p.name)).not.toEqual(c.map((p) => p.name));
  });

  it('holds thousands of unique int64 ids, some above 2^53, and contact details inside the text', () => {
    const pool = createPool(42);
    expect(pool.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(pool.map((p) => p.id)).size).toBe(pool.length);
    expect(pool.every((p) => p.id > 2n ** 31n && p.id < 2n ** 63n)).toBe(true);
    expect(pool.filter((p) => p.id > 2n ** 53n).length).toBeGreaterThan(100);
    expect(pool.some((p) => /@/.test(p.summary))).toBe(true);
    expect(pool.some((p) => /https:\/\//.test(p.summary))).toBe(true);
    expect(pool.some((p) => /\+972-\d/.test(p.summary))).toBe(true);
    expect(pool.some((p) => /[\u0590-\u05ff]/.test(p.name))).toBe(true);
  });
});

describe('engine runs', () => {
  it('gives the same candidates for the same seed and input', () => {
    const run = input();
    const started = (seed: number) => {
      const e = engine({ seed });
      e.startRun(run);
      return e;
    };
    const a = at(started(11), run, 600);
    const b = at(started(11), run, 600);
    expect(a.candidates.map((c) => c.id)).toEqual(b.candidates.map((c) => c.id));
    expect(a.candidates.length).toBe(10);
    const other = at(started(12), run, 600);
    expect(other.candidates.map((c) => c.id)).not.toEqual(a.candidates.map((c) => c.id));
  });

  it('progresses monotonically: first candidates after 10-17 s, completed within minutes, never above target', () => {
    const timeScale = 60;
    const e = engine({ timeScale });
    const run = input({ targetCount: 8 });
    e.startRun(run);
    let last = { confirmed: 0, screened: 0, count: 0 };
    let firstSeen: number | null = null;
    let completedAt: number | null = null;
    for (let s = 0; s <= 300; s += 0.5) {
      const snap = at(e, run, s, timeScale);
      expect(snap.progress.target).toBe(8);
      expect(snap.progress.confirmed).toBeGreaterThanOrEqual(last.confirmed);
      expect(snap.progress.screened).toBeGreaterThanOrEqual(last.screened);
      expect(snap.progress.screened).toBeGreaterThanOrEqual(snap.progress.confirmed);
      expect(snap.candidates.length).toBe(snap.progress.confirmed);
      expect(snap.candidates.length).toBeLessThanOrEqual(8);
      // The list only grows: earlier candidates keep their place.
      expect(snap.candidates.slice(0, last.count).length).toBe(last.count);
      if (snap.candidates.length > 0 && firstSeen === null) firstSeen = s;
      if (snap.status === 'running') expect(snap.notices.map((n) => n.code)).toContain('run_progress');
      if (snap.status === 'completed' && completedAt === null) completedAt = s;
      last = { confirmed: snap.progress.confirmed, screened: snap.progress.screened, count: snap.candidates.length };
    }
    expect(firstSeen).toBeGreaterThanOrEqual(10);
    expect(firstSeen).toBeLessThanOrEqual(17.5);
    expect(completedAt).toBeGreaterThanOrEqual(120);
    expect(completedAt).toBeLessThanOrEqual(240.5);
    expect(last.count).toBe(8);
  });

  it('lists one entry per requirement in index order, with a verdict and a price from the table', () => {
    const e = engine();
    const run = input({ targetCount: 20 });
    e.startRun(run);
    const snap = at(e, run, 600);
    expect(snap.status).toBe('completed');
    for (const c of snap.candidates) {
      expect(c.requirements.map((r) => r.index)).toEqual([0, 1, 2]);
      expect(c.requirements.map((r) => r.kind)).toEqual(['must', 'nice', 'must']);
      expect(['strong', 'good', 'weak']).toContain(c.verdict);
      expect(Number.isInteger(c.priceCredits) && c.priceCredits > 0).toBe(true);
      // Listed candidates never clearly fail a must; the others are hidden.
      expect(c.requirements.filter((r) => r.kind === 'must').every((r) => r.met !== false)).toBe(true);
    }
    const codes = snap.notices.map((n) => n.code);
    expect(codes).toContain('run_funnel');
    expect(codes).toContain('must_unmet_hidden');
    expect(codes).toContain('requirement_attribution');
    expect(codes.every((c) => POSSIBLE.includes(c))).toBe(true);
  });

  it('ends below target with notices saying why when the pool runs out', () => {
    const e = engine();
    const run = input({
      targetCount: 5,
      requirements: [
        { index: 0, text: 'COBOL mainframe', kind: 'must', origin: 'partner' },
        { index: 1, text: 'Python', kind: 'nice', origin: 'partner' },
      ],
    });
    e.startRun(run);
    const snap = at(e, run, 600);
    expect(snap.status).toBe('completed');
    expect(snap.candidates).toHaveLength(0);
    const funnel = snap.notices.find((n) => n.code === 'run_funnel');
    expect(funnel).toMatchObject({
      severity: 'warning',
      slot: 'empty_state',
      params: { reason: 'pool_exhausted', confirmed: 0, target: 5 },
    });
    const blocker = snap.notices.find((n) => n.code === 'requirement_blockers');
    expect(blocker).toMatchObject({ slot: 'on_requirement', ref: { requirement_index: 0 } });
    // Relaxing the location was tried before giving up.
    expect(snap.progress.screened).toBeGreaterThan(400);
    // With no place to anchor on, the search runs into its ceiling instead.
    const anywhere = { ...input({ targetCount: 5, requirements: run.requirements }, { locationText: 'Anywhere' }) };
    e.startRun(anywhere);
    expect(at(e, anywhere, 600).notices.find((n) => n.code === 'run_funnel')?.params?.reason).toBe('ceiling_reached');
  });

  it('relaxes the location when the city alone cannot fill the target', () => {
    const e = engine();
    const run = input(
      {
        targetCount: 20,
        requirements: [
          { index: 0, text: '15+ years of experience', kind: 'must', origin: 'partner' },
          { index: 1, text: 'Experience with Kafka and Terraform', kind: 'must', origin: 'partner' },
        ],
      },
      { locationText: 'Eilat' },
    );
    e.startRun(run);
    const snap = at(e, run, 600);
    expect(snap.notices.find((n) => n.code === 'location_relaxed')).toMatchObject({ params: { location: 'Eilat' } });
    expect(snap.candidates.some((c) => c.location !== 'Eilat')).toBe(true);
  });

  // The engine's clock and its terminal timer run on fake time: a run's end is reached by firing the
  // timer it set, not by sleeping and hoping it has fired.
  describe('on a fake clock', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('fails with function_error when the description carries the documented marker', () => {
      const e = engine({ timeScale: 1000 });
      const seen: Array<[string, EngineSnapshot]> = [];
      e.onTerminal((id, snap) => seen.push([id, snap]));
      const run = input({ startedAt: Date.now() }, { descriptionText: `Python backend work ${FAIL_MARKER}` });
      e.startRun(run);
      expect(seen).toEqual([]);
      vi.runOnlyPendingTimers();
      expect(seen).toHaveLength(1);
      const snap = e.snapshot(run.runId)!;
      expect(snap.status).toBe('failed');
      expect(snap.notices[0]).toMatchObject({ code: 'function_error', severity: 'blocking', slot: 'empty_state' });
      expect(snap.candidates.length).toBe(snap.progress.confirmed);
      expect(snap.candidates.length).toBeLessThan(run.targetCount);
      expect(seen[0]![1].status).toBe('failed');
    });

    it('calls the terminal listener exactly once, driven by its timer, whatever the reads', () => {
      const e = engine({ timeScale: 500 });
      const calls: string[] = [];
      e.onTerminal((id, snap) => calls.push(`${id}:${snap.status}`));
      const run = input({ startedAt: Date.now(), targetCount: 3 });
      e.startRun(run);
      expect(e.snapshot(run.runId, run.startedAt)!.status).toBe('running');
      expect(calls).toEqual([]);
      // Its timer alone ends it, once; reads after the end add no call.
      vi.runOnlyPendingTimers();
      expect(calls).toEqual([`${run.runId}:completed`]);
      e.snapshot(run.runId);
      e.snapshot(run.runId);
      expect(calls).toEqual([`${run.runId}:completed`]);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('a read that sees the end calls the listener before the timer, which then adds no call', () => {
      const e = engine({ timeScale: 500 });
      const calls: string[] = [];
      e.onTerminal((id, snap) => calls.push(`${id}:${snap.status}`));
      const run = input({ startedAt: Date.now(), targetCount: 3 });
      e.startRun(run);
      // An hour later (ages in spec time) without firing a timer: the reads see the end first.
      vi.setSystemTime(Date.now() + 3_600_000);
      e.snapshot(run.runId);
      e.snapshot(run.runId);
      expect(calls).toEqual([`${run.runId}:completed`]);
      expect(vi.getTimerCount()).toBe(0);
      vi.runAllTimers();
      expect(calls).toEqual([`${run.runId}:completed`]);
    });
  });

  it('flags candidates shown in an earlier run of the same job and prefers new ones', () => {
    const e = engine();
    const first = input({ targetCount: 5 });
    e.startRun(first);
    const second = { ...input({ targetCount: 5 }), job: first.job };
    e.startRun(second);
    const a = at(e, first, 600).candidates.map((c) => c.id);
    const b = at(e, second, 600).candidates.map((c) => c.id);
    expect(b.some((id) => a.includes(id))).toBe(false);
  });

  // The engine's conformant choices of which candidates a run finds (variants runs-read.pool-slice-per-job,
  // runs-read.never-repeat-candidate, ids.candidate-ids-above-2-53).
  it('with a slice of the pool per job, runs of two jobs share no candidate; a job keeps its slice', () => {
    const e = engine({ sliceByJob: true });
    const a = input({ targetCount: 10 });
    const b = input(
      { targetCount: 10 },
      { externalId: 'twin', title: a.job.title, descriptionText: a.job.descriptionText },
    );
    const again = { ...input({ targetCount: 10 }), job: a.job };
    for (const r of [a, b, again]) e.startRun(r);
    const ids = (r: EngineRunInput) => at(e, r, 600).candidates.map((c) => c.id);
    expect(ids(a).length).toBeGreaterThan(0);
    expect(ids(b).length).toBeGreaterThan(0);
    expect(ids(b).filter((id) => ids(a).includes(id))).toEqual([]);
    // The default engine finds the same candidates for a twin job (the same title and description).
    const plain = engine();
    const [pa, pb] = [input({ targetCount: 10 }), input({ targetCount: 10 }, { externalId: 'twin-2' })];
    plain.startRun(pa);
    plain.startRun(pb);
    const shared = at(plain, pb, 600).candidates.filter((c) =>
      at(plain, pa, 600).candidates.some((x) => x.id === c.id),
    );
    expect(shared.length).toBeGreaterThan(0);
  });

  it('never repeating a candidate, no two runs of an organization list the same one, whatever the job', () => {
    const e = engine({ neverRepeatEver: true });
    const runs = [input({ targetCount: 10 }), input({ targetCount: 10 }), input({ targetCount: 10 })];
    for (const r of runs) e.startRun(r);
    const all = runs.flatMap((r) => at(e, r, 600).candidates.map((c) => c.id));
    expect(all.length).toBeGreaterThan(10);
    expect(new Set(all).size).toBe(all.length);
  });

  it('with ids above 2^53, every candidate id exceeds it, up to 2^63 - 1', () => {
    const pool = createPool(7, 50, 'above-2-53');
    expect(pool.every((p) => p.id > 2n ** 53n && p.id <= 2n ** 63n - 1n)).toBe(true);
    expect(pool.map((p) => p.id)).toEqual(expect.arrayContaining([2n ** 53n + 1n, 2n ** 63n - 1n]));
    expect(new Set(pool.map((p) => p.id)).size).toBe(pool.length);
    const e = engine({ idRange: 'above-2-53' });
    const run = input({ targetCount: 10 });
    e.startRun(run);
    const listed = at(e, run, 600).candidates;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((c) => c.id > 2n ** 53n)).toBe(true);
  });

  it('derives requirements from the description, never a place', () => {
    const e = engine();
    const reqs = e.deriveRequirements({
      title: 'Data Engineer',
      descriptionText: 'At least 4 years building pipelines with Spark and Airflow; dbt is a plus. Based in Haifa.',
      locationText: 'Haifa',
    });
    expect(reqs[0]).toEqual({ text: '4+ years of experience', kind: 'must' });
    expect(reqs.map((r) => r.text).join(' ')).toMatch(/Spark/);
    expect(reqs.filter((r) => r.kind === 'must').length).toBeLessThanOrEqual(2);
    expect(reqs.some((r) => /Haifa/.test(r.text))).toBe(false);
    expect(
      e
        .deriveRequirements({ title: 'Frontend', descriptionText: 'JavaScript and CSS', locationText: 'Remote' })
        .map((r) => r.text),
    ).toEqual(['Experience with JavaScript', 'Experience with CSS']);
  });

  it('returns undefined for an unknown run', () => {
    expect(engine().snapshot('nope')).toBeUndefined();
  });
});

describe('engine faults', () => {
  const completed = (faults: string[], over: Partial<EngineRunInput> = {}) => {
    const e = engine({ faults });
    const run = input(over);
    e.startRun(run);
    return { e, run, snap: at(e, run, 600) };
  };

  it('runs-read.candidates-exceed-target lists target + 1', () => {
    expect(completed([]).snap.candidates).toHaveLength(10);
    expect(completed(['runs-read.candidates-exceed-target']).snap.candidates).toHaveLength(11);
  });

  it('runs-read.confirmed-decreases lowers confirmed at the end', () => {
    const { e, run, snap } = completed(['runs-read.confirmed-decreases']);
    const before = at(e, run, 220).progress.confirmed;
    expect(snap.progress.confirmed).toBe(snap.candidates.length - 1);
    expect(before === 10 ? snap.progress.confirmed < before : true).toBe(true);
    expect(completed([]).snap.progress.confirmed).toBe(10);
  });

  it('runs-read.target-not-target-count', () => {
    const clean = completed([]).snap;
    expect(completed(['runs-read.target-not-target-count']).snap.progress.target).toBe(clean.progress.target + 1);
  });

  it('runs-read.requirements-out-of-order and runs-read.requirement-missing', () => {
    expect(
      completed(['runs-read.requirements-out-of-order']).snap.candidates[0]!.requirements.map((r) => r.index),
    ).toEqual([2, 1, 0]);
    expect(completed(['runs-read.requirement-missing']).snap.candidates[0]!.requirements.map((r) => r.index)).toEqual([
      0, 1,
    ]);
  });

  it('runs-read.v1-impossible-notice emits widen_hint; a clean engine never emits the four', () => {
    expect(completed(['runs-read.v1-impossible-notice']).snap.notices.map((n) => n.code)).toContain('widen_hint');
    expect(
      completed([])
        .snap.notices.map((n) => n.code)
        .filter((c) => IMPOSSIBLE.includes(c)),
    ).toEqual([]);
  });

  it('runs-read.notice-requirement-index-out-of-range points past the last requirement', () => {
    const faulty = completed(['runs-read.notice-requirement-index-out-of-range']).snap;
    const on = faulty.notices.filter((n) => n.slot === 'on_requirement');
    expect(on.length).toBeGreaterThan(0);
    const last = Math.max(...faulty.candidates[0]!.requirements.map((r) => r.index));
    expect(on.every((n) => typeof n.ref?.requirement_index === 'number' && n.ref.requirement_index > last)).toBe(true);
    const clean = completed([]).snap.notices.filter((n) => n.slot === 'on_requirement');
    expect(clean.every((n) => typeof n.ref?.requirement_index === 'number')).toBe(true);
  });
});
