import type { Pick, RunPlan } from './plan.js';
import { priceCredits } from './pricing.js';
import type { EngineCandidate, EngineNotice, EngineRunInput, EngineSnapshot } from './types.js';
import type { FaultSet } from '../faults/index.js';

function toCandidate(pick: Pick, faults: FaultSet): EngineCandidate {
  const { profile, match } = pick;
  let requirements = match.results.map((r) => ({ ...r }));
  // Changes the candidate's requirement results the stored run plan yields: listed in reverse.
  if (faults.has('runs-read.requirements-out-of-order')) requirements = [...requirements].reverse();
  // Changes the candidate's requirement results the stored run plan yields: the last one is left out.
  if (faults.has('runs-read.requirement-missing')) requirements = requirements.slice(0, -1);
  return {
    id: profile.id,
    name: profile.name,
    title: profile.title,
    company: profile.company,
    location: profile.address ?? profile.city,
    verdict: match.verdict,
    requirements,
    email: profile.email,
    phone: profile.phone,
    priceCredits: priceCredits(match.verdict, profile.years, profile.source),
  };
}

function candidateNotices(listed: readonly Pick[]): EngineNotice[] {
  const out: EngineNotice[] = [];
  for (const p of listed) {
    if (p.alreadyShown)
      out.push({ code: 'already_shown', severity: 'info', slot: 'on_candidate', ref: { candidate_id: p.profile.id } });
    if (p.profile.source === 'extended')
      out.push({ code: 'paid_fallback', severity: 'info', slot: 'on_candidate', ref: { candidate_id: p.profile.id } });
  }
  return out;
}

/** The run as seen `elapsed` unscaled milliseconds after its start. Pure: the same plan and time give the same snapshot. */
export function buildSnapshot(plan: RunPlan, input: EngineRunInput, elapsed: number, faults: FaultSet): EngineSnapshot {
  const terminalAt = plan.failAt ?? plan.completeAt;
  const status = elapsed >= terminalAt ? (plan.failAt !== null ? 'failed' : 'completed') : 'running';
  const effective = Math.min(elapsed, terminalAt);
  const listed = plan.picks.filter((p) => p.confirmAt <= effective);
  const target = input.targetCount;
  let confirmed = listed.length;
  let screened =
    status === 'completed'
      ? plan.screenedTotal
      : Math.max(confirmed, Math.floor((plan.screenedTotal * Math.max(0, effective)) / plan.completeAt));
  screened = Math.min(Math.max(screened, confirmed), Math.max(plan.screenedTotal, confirmed));
  // Changes the progress the stored run plan yields: a finished run counts one confirmed fewer.
  if (faults.has('runs-read.confirmed-decreases') && status !== 'running' && confirmed > 0) confirmed -= 1;

  const notices: EngineNotice[] = [];
  // Shown while a run lists a candidate found by relaxing the location, running or ended alike.
  const relaxed: EngineNotice[] = listed.some((p) => p.relaxed)
    ? [
        {
          code: 'location_relaxed',
          severity: 'warning',
          slot: 'above_list',
          params: { location: input.job.locationText },
        },
      ]
    : [];
  const emptySlot = (slot: string) => (listed.length === 0 ? 'empty_state' : slot);
  if (status === 'failed') {
    notices.push({
      code: 'function_error',
      severity: 'blocking',
      slot: 'empty_state',
      params: { confirmed: listed.length },
    });
  } else if (status === 'running') {
    notices.push({
      code: 'run_progress',
      severity: 'info',
      slot: emptySlot('above_list'),
      params: { confirmed, target, screened },
    });
    notices.push(...relaxed);
  } else {
    const short = listed.length < target;
    notices.push({
      code: 'run_funnel',
      severity: short ? 'warning' : 'info',
      slot: emptySlot('above_list'),
      params: { screened, hidden: plan.hiddenCount, confirmed, target, reason: plan.shortfall ?? 'target_reached' },
    });
    notices.push(...relaxed);
    if (plan.hiddenCount > 0)
      notices.push({
        code: 'must_unmet_hidden',
        severity: 'info',
        slot: emptySlot('above_list'),
        params: { count: plan.hiddenCount },
      });
    // Changes the notices the stored run plan yields: a blocker names a requirement index out of range.
    const badIndex = faults.has('runs-read.notice-requirement-index-out-of-range');
    const [firstRequirement] = input.requirements;
    const blockers =
      badIndex && plan.blockers.length === 0 && firstRequirement
        ? [{ index: firstRequirement.index, text: firstRequirement.text, excluded: 0 }]
        : plan.blockers;
    for (const b of blockers) {
      const notice: EngineNotice = {
        code: 'requirement_blockers',
        severity: 'warning',
        // Changes the notices the stored run plan yields: the blocker is placed above the list, away from its requirement.
        slot: faults.has('runs-read.requirement-blockers-above-list') ? 'above_list' : 'on_requirement',
        params: { requirement: b.text, excluded: b.excluded },
      };
      // The fault points one past the run's last requirement index.
      notice.ref = {
        requirement_index: badIndex ? Math.max(-1, ...input.requirements.map((r) => r.index)) + 1 : b.index,
      };
      notices.push(notice);
    }
    if (listed.length > 0) {
      const counted = input.requirements.map((r) => ({
        r,
        met: listed.filter((p) => p.match.results.find((x) => x.index === r.index)?.met === true).length,
      }));
      // The first requirement met most often.
      const best = counted.reduce<(typeof counted)[number] | undefined>(
        (top, c) => (top === undefined || c.met > top.met ? c : top),
        undefined,
      );
      if (best) {
        notices.push({
          code: 'requirement_attribution',
          severity: 'info',
          slot: 'above_list',
          params: { requirement: best.r.text, met: best.met, confirmed: listed.length },
        });
      }
    }
  }
  notices.push(...candidateNotices(listed));
  // Changes the notices the stored run plan yields: one v1 never emits is added.
  if (faults.has('runs-read.v1-impossible-notice'))
    notices.push({ code: 'widen_hint', severity: 'info', slot: 'above_list' });

  // Changes the notices the stored run plan yields: a run completed short of its target says nothing about why.
  const unexplained =
    status === 'completed' && listed.length < target && faults.has('runs-read.short-run-without-notice');
  // Changes the progress the stored run plan yields: the target is not the run's stored target_count.
  return {
    status,
    progress: { confirmed, target: faults.has('runs-read.target-not-target-count') ? target + 1 : target, screened },
    candidates: listed.map((p) => toCandidate(p, faults)),
    notices: unexplained ? [] : notices,
  };
}
