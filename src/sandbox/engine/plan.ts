import { matchProfile, type Match, type MatchRequirement } from './matching.js';
import type { Profile } from './pool.js';
import { hashString } from './random.js';
import { CITIES } from './vocabulary.js';

/** At most this many profiles are examined per run; below target after it, the run ends with `ceiling_reached`. */
export const RUN_CEILING = 1500;

export interface Pick {
  profile: Profile;
  match: Match;
  /** Outside the job's location: listed only because the location was relaxed. */
  relaxed: boolean;
  alreadyShown: boolean;
  /** Unscaled milliseconds after the run start at which this candidate is confirmed. */
  confirmAt: number;
}

export interface RunPlan {
  picks: Pick[];
  screenedTotal: number;
  hiddenCount: number;
  /** Why the run ends below target, if it does. */
  shortfall: 'pool_exhausted' | 'ceiling_reached' | null;
  blockers: Array<{ index: number; text: string; excluded: number }>;
  /** Unscaled milliseconds after the start. */
  firstAt: number;
  completeAt: number;
  failAt: number | null;
}

/**
 * The documented failure condition of the sandbox engine: a run whose job description contains this marker
 * (case-insensitive) fails with `function_error` about 30% of the way through, keeping the candidates
 * confirmed by then.
 */
export const FAIL_MARKER = '[sandbox:fail]';

function jobCities(locationText: string): string[] {
  const lower = locationText.toLowerCase();
  return CITIES.filter((c) => lower.includes(c.en.toLowerCase()) || locationText.includes(c.he)).map((c) => c.en);
}

export interface PlanInput {
  runId: string;
  job: { title: string; descriptionText: string; locationText: string };
  requirements: MatchRequirement[];
  /** How many to list: the target (a fault may ask for one more). */
  listCount: number;
  /** Fault only: fill up to listCount with hidden profiles when eligible ones run out. */
  padFromHidden: boolean;
  seed: number;
  shownBefore: ReadonlySet<bigint>;
  /** Eligible candidates ranked by years of experience, not by the nice requirements they meet. */
  rankByExperience?: boolean;
}

export function planRun(pool: readonly Profile[], input: PlanInput): RunPlan {
  const cities = jobCities(input.job.locationText);
  // The job (not the run) decides where in the pool the search starts: the same job on the same seed
  // finds the same candidates.
  const offset = hashString(`${input.seed}|${input.job.title}|${input.job.descriptionText}`) % pool.length;
  const rotated = [...pool.slice(offset), ...pool.slice(0, offset)];
  const inScope = cities.length === 0 ? rotated : rotated.filter((p) => p.city !== null && cities.includes(p.city));
  // Relaxing the location widens the search to three other cities (picked per job), not to the whole pool:
  // a run that still falls short has exhausted the pool it may search.
  const others = CITIES.map((c) => c.en).filter((c) => !cities.includes(c));
  const nearby = cities.length === 0 ? [] : [0, 1, 2].flatMap((k) => others[(offset + k * 5) % others.length] ?? []);
  const outScope = rotated.filter((p) => p.city !== null && nearby.includes(p.city));

  let examined = 0;
  let hiddenCount = 0;
  let ceilingHit = false;
  const falseCounts = new Map<number, number>();
  const hidden: Array<{ profile: Profile; match: Match; relaxed: boolean }> = [];
  const examine = (list: readonly Profile[], relaxed: boolean) => {
    const eligible: Array<{ profile: Profile; match: Match; relaxed: boolean }> = [];
    for (const profile of list) {
      if (examined >= RUN_CEILING) {
        ceilingHit = true;
        break;
      }
      examined++;
      const match = matchProfile(profile, input.requirements);
      for (const r of match.results)
        if (r.met === false && r.kind === 'must') falseCounts.set(r.index, (falseCounts.get(r.index) ?? 0) + 1);
      if (match.failsMust) {
        hiddenCount++;
        hidden.push({ profile, match, relaxed });
      } else eligible.push({ profile, match, relaxed });
    }
    const rank = (a: { profile: Profile; match: Match }, b: { profile: Profile; match: Match }) =>
      Number(input.shownBefore.has(a.profile.id)) - Number(input.shownBefore.has(b.profile.id)) ||
      (input.rankByExperience ? b.profile.years - a.profile.years : b.match.score - a.match.score) ||
      (a.profile.id < b.profile.id ? -1 : 1);
    return eligible.sort(rank);
  };

  let chosen = examine(inScope, false);
  if (chosen.length < input.listCount && outScope.length > 0 && !ceilingHit)
    chosen = [...chosen, ...examine(outScope, true)];
  let listed = chosen.slice(0, input.listCount);
  // Only reached under the candidates-exceed-target fault on a thin pool: pad with hidden profiles.
  if (input.padFromHidden && listed.length < input.listCount)
    listed = [...listed, ...hidden.slice(0, input.listCount - listed.length)];

  const h = hashString(input.runId);
  const firstAt = 10_000 + (h % 7_001);
  const completeAt = 150_000 + ((h >>> 13) % 90_001);
  const failAt = input.job.descriptionText.toLowerCase().includes(FAIL_MARKER)
    ? Math.round(firstAt + (completeAt - firstAt) * 0.3)
    : null;
  const lastConfirmAt = completeAt * 0.9;
  const picks = listed.map((c, k) => ({
    ...c,
    alreadyShown: input.shownBefore.has(c.profile.id),
    confirmAt: Math.round(firstAt + ((lastConfirmAt - firstAt) * k) / listed.length),
  }));

  const blockers = input.requirements
    .filter((r) => r.kind === 'must' && (falseCounts.get(r.index) ?? 0) * 2 > examined)
    .map((r) => ({ index: r.index, text: r.text, excluded: falseCounts.get(r.index) ?? 0 }));

  return {
    picks,
    screenedTotal: examined,
    hiddenCount,
    shortfall: picks.length < input.listCount ? (ceilingHit ? 'ceiling_reached' : 'pool_exhausted') : null,
    blockers,
    firstAt,
    completeAt,
    failAt,
  };
}
