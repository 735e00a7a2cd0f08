import { deriveRequirements } from './derive-requirements.js';
import { planRun, type RunPlan } from './plan.js';
import { createPool, DEFAULT_POOL_SIZE, type IdRange, type Profile } from './pool.js';
import { realisticProfile } from './realistic-profiles.js';
import { buildSnapshot } from './snapshot.js';
import type { Engine, EngineRunInput, EngineSnapshot } from './types.js';
import type { FaultSet } from '../faults/index.js';

export const DEFAULT_SEED = 20240601;

interface RunState {
  input: EngineRunInput;
  plan: RunPlan;
  terminalFired: boolean;
  timer: NodeJS.Timeout | null;
}

/**
 * The sandbox's matching engine for real (non-fixture) runs. Time runs `timeScale` times faster than the
 * spec's: a run's first candidates come 10-17 s / timeScale after the start and it ends 150-240 s / timeScale
 * after it. A job description containing `[sandbox:fail]` makes the run fail (see FAIL_MARKER).
 */
/** The pool is a pure function of its seed: built once per process, shared by every sandbox. */
const pools = new Map<string, Profile[]>();
export function poolFor(seed: number, realistic = false, range: IdRange = 'mixed'): Profile[] {
  const key = `${seed}:${realistic}:${range}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = realistic ? poolFor(seed, false, range).map(realisticProfile) : createPool(seed, DEFAULT_POOL_SIZE, range);
    pools.set(key, pool);
  }
  return pool;
}

/** Conformant choices of the engine (the sandbox's variants decide them, src/sandbox/app.ts). */
export interface EngineChoices {
  /** Profiles written as real ones are: stacks with dots and slashes, domain company names, addresses. */
  realisticText?: boolean;
  /** A later run of a job never lists a candidate an earlier run of that job listed (default: listed last, flagged already_shown). */
  neverRepeatForJob?: boolean;
  /** Eligible candidates are ranked by years of experience rather than by the nice requirements they meet. */
  rankByExperience?: boolean;
  /** A real run stays running at least this long (unscaled ms), its candidates listed at the usual pace. */
  runningAtLeastMs?: number;
  /** Each job of an organization searches its own slice of the pool: two jobs never list the same candidate. */
  sliceByJob?: boolean;
  /** No run lists a candidate any earlier run of the organization listed, whatever its job. */
  neverRepeatEver?: boolean;
  /** Every candidate id of the pool lies above 2^53 (up to 2^63 - 1). */
  idRange?: IdRange;
}

/** The pool is cut into this many slices when each job searches its own (variant runs-read.pool-slice-per-job). */
const JOB_SLICES = 8;

export function createEngine(opts: { seed?: number; timeScale: number; faults: FaultSet } & EngineChoices): Engine {
  const seed = opts.seed ?? DEFAULT_SEED;
  const timeScale = opts.timeScale > 0 ? opts.timeScale : 1;
  const faults = opts.faults;
  const runs = new Map<string, RunState>();
  /** Candidates already listed for (organization, job): a later run prefers others and flags repeats. */
  const shown = new Map<string, Set<bigint>>();
  /** Every candidate listed for an organization, whatever the job (variant runs-read.never-repeat-candidate). */
  const shownEver = new Map<string, Set<bigint>>();
  /** The slice of the pool each (organization, job) searches, in the order jobs first ran. */
  const slices = new Map<string, number>();
  const listeners: Array<(runId: string, snapshot: EngineSnapshot) => void> = [];
  let pool: Profile[] | null = null;

  const elapsedAt = (run: RunState, now: number) => (now - run.input.startedAt) * timeScale;
  const terminalAt = (run: RunState) => run.plan.failAt ?? run.plan.completeAt;

  const fireTerminal = (runId: string, run: RunState) => {
    if (run.terminalFired) return;
    run.terminalFired = true;
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    const snap = buildSnapshot(run.plan, run.input, terminalAt(run), faults);
    for (const listener of listeners) listener(runId, snap);
  };

  return {
    startRun(input) {
      if (runs.has(input.runId)) throw new Error(`run ${input.runId} already started`);
      const poolFrom = Date.now();
      pool ??= poolFor(seed, opts.realisticText === true, opts.idRange ?? 'mixed');
      const poolBuildMs = Date.now() - poolFrom;
      const key = `${input.organizationId}\u0000${input.job.externalId}`;
      const shownBefore = shown.get(key) ?? new Set<bigint>();
      const requirements = [...input.requirements].sort((a, b) => a.index - b.index);
      // Changes the stored run plan: one candidate more than the target is planned.
      const extra = faults.has('runs-read.candidates-exceed-target') ? 1 : 0;
      const everBefore = shownEver.get(input.organizationId) ?? new Set<bigint>();
      let searched = opts.neverRepeatForJob ? pool.filter((p) => !shownBefore.has(p.id)) : pool;
      if (opts.sliceByJob) {
        // Jobs take the slices in turn; a ninth job shares the first's (the engine's choice either way).
        const slice = slices.get(key) ?? slices.size % JOB_SLICES;
        slices.set(key, slice);
        searched = searched.filter((_, i) => i % JOB_SLICES === slice);
      }
      if (opts.neverRepeatEver) searched = searched.filter((p) => !everBefore.has(p.id));
      const plan = planRun(searched, {
        runId: input.runId,
        job: input.job,
        requirements,
        listCount: input.targetCount + extra,
        padFromHidden: extra > 0,
        seed,
        shownBefore,
        rankByExperience: opts.rankByExperience === true,
      });
      shown.set(key, new Set([...shownBefore, ...plan.picks.map((p) => p.profile.id)]));
      shownEver.set(input.organizationId, new Set([...everBefore, ...plan.picks.map((p) => p.profile.id)]));
      if (opts.runningAtLeastMs !== undefined) plan.completeAt = Math.max(plan.completeAt, opts.runningAtLeastMs);
      // Building the pool the first time takes about a second: the run's clock starts after it, or a
      // high time scale would see the run finished at its very first read.
      const startedAt = input.startedAt + poolBuildMs;
      const run: RunState = { input: { ...input, requirements, startedAt }, plan, terminalFired: false, timer: null };
      runs.set(input.runId, run);
      const delay = Math.max(0, (terminalAt(run) - elapsedAt(run, Date.now())) / timeScale);
      run.timer = setTimeout(() => fireTerminal(input.runId, run), Math.ceil(delay));
      run.timer.unref();
    },

    snapshot(runId, now = Date.now()) {
      const run = runs.get(runId);
      if (!run) return undefined;
      const snap = buildSnapshot(run.plan, run.input, elapsedAt(run, now), faults);
      // A read that already sees the end must not wait for the timer: the terminal event follows the state.
      if (snap.status !== 'running') fireTerminal(runId, run);
      return snap;
    },

    onTerminal(listener) {
      listeners.push(listener);
    },

    deriveRequirements,

    close() {
      for (const run of runs.values()) {
        if (run.timer) clearTimeout(run.timer);
        run.timer = null;
      }
    },
  };
}
