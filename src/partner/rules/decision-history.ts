// Decisions as history (Endpoints › POST /runs/{run_id}/decisions): rule 1, "a later action on the same
// candidate, including a later note, carries a new `occurred_at`" (the service stores each (run,
// candidate, decision, occurred_at) once, so a later action under the old occurred_at is counted a
// duplicate and lost); rules 6-7, every decision is reported and a call is retry-safe, so a call that
// failed (5xx, 429) or whose answer was lost is sent again, or its decisions are lost.

import { S } from '../../spec/sections.js';
import type { PartnerRequest, Traffic } from '../traffic.js';
import { canonical, retryWindowMs, seconds } from './retry-chains.js';
import { failedAnswer, type DecisionItem } from './decision-items.js';
import { CallList, decisionIndex, instantKey, listIn, strictKey, type DecisionCall } from './decision-index.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

const accepted = (r: PartnerRequest): boolean => !r.lost && r.status >= 200 && r.status < 300;

/** The decisions calls that name their run. */
function historyCalls(traffic: Traffic): DecisionCall[] {
  return decisionIndex(traffic).calls.filter((c) => c.r.runId !== undefined);
}

interface Later {
  call: DecisionCall;
  item: DecisionItem;
  action: string;
  /** The first position after this one in its list with another action (the list's length if none). */
  nextOtherAction: number;
}

/**
 * Run, candidate, decision and the instant of occurred_at: equal where sameInstant holds or the values are
 * ===. The decision is part of the key the service stores by (rule 1: run, candidate, decision,
 * occurred_at), so two different decisions at one instant are two entries, nothing lost: a bulk action, or
 * two clicks within one second written with second precision.
 */
const instantItemKey = (c: DecisionCall, item: DecisionItem): string =>
  JSON.stringify([c.r.runId, item.candidate, strictKey(item.decision), instantKey(item.occurredAt)]);

/** The first entry of a list in call order whose call comes after position `pos`. */
function firstLaterThan(list: readonly { call: DecisionCall }[], pos: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.call.pos > pos) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

interface Reported {
  /** The order in which the earlier items are met (call, then item). */
  order: number;
  action: string;
  instant: string;
}

/**
 * The later calls carrying a later action with a new occurred_at, in the order a walk of every earlier
 * accepted item against every later call finds them: by the first earlier item each answers, then by call.
 * Per run and candidate only a handful of the items reported so far can ever be the first an item answers
 * (`mayAnswerFirst`), so each later item is compared with those only.
 */
function laterActionsProven(calls: readonly DecisionCall[]): number[] {
  const reported = new Map<string, Reported[]>();
  const found: Array<{ order: number; pos: number; id: number }> = [];
  let order = 0;
  for (const call of calls) {
    let first: number | undefined;
    call.items.forEach((item, k) => {
      const earlier = reported.get(JSON.stringify([call.r.runId, item.candidate]));
      const instant = instantKey(item.occurredAt);
      const hit = earlier?.find((e) => e.action !== call.actions[k] && e.instant !== instant);
      if (hit && (first === undefined || hit.order < first)) first = hit.order;
    });
    if (first !== undefined) found.push({ order: first, pos: call.pos, id: call.r.id });
    if (!accepted(call.r)) continue;
    call.items.forEach((item, k) => {
      const key = JSON.stringify([call.r.runId, item.candidate]);
      const e: Reported = { order: order++, action: call.actions[k]!, instant: instantKey(item.occurredAt) };
      const list = reported.get(key);
      if (!list) reported.set(key, [e]);
      else if (mayAnswerFirst(list, e)) list.push(e);
    });
  }
  found.sort((a, b) => a.order - b.order || a.pos - b.pos);
  const proof: number[] = [];
  const proven = new Set<number>();
  for (const { id } of found)
    if (!proven.has(id)) {
      proven.add(id);
      proof.push(id);
    }
  return proof;
}

/**
 * Whether a later item could find `e` first among the items reported before it: it looks for the first
 * with another action and another instant. Never, when one before has e's action and instant; or two with
 * its action (they differ in instant, one passes any instant asked); or two with its instant and other
 * actions; or three that differ pairwise in both (an item excludes one action and one instant). So a list
 * holds at most a few items however many are reported.
 */
function mayAnswerFirst(list: readonly Reported[], e: Reported): boolean {
  if (list.some((x) => x.action === e.action && x.instant === e.instant)) return false;
  if (list.filter((x) => x.action === e.action).length >= 2) return false;
  if (list.filter((x) => x.instant === e.instant).length >= 2) return false;
  for (const [a, x] of list.entries())
    for (const [b, y] of list.entries())
      for (const z of list.slice(b + 1))
        if (
          b > a &&
          x.action !== y.action &&
          x.action !== z.action &&
          y.action !== z.action &&
          x.instant !== y.instant &&
          x.instant !== z.instant &&
          y.instant !== z.instant
        )
          return false;
  return true;
}

const laterActionRule: Rule = {
  id: 'decisions.later-action-new-occurred-at',
  title: 'A later action on a candidate (another decision, a later note) carries a new occurred_at',
  suite: 'decisions',
  evidence: 'conditional',
  notApplicableWhen:
    'the client never reported a later action on a candidate it had already reported (another decision, or a note added later): nothing to judge',
  spec: [S.decisions, S.decisionItem],
  hint: 'the client never reported a later action on a candidate it had already reported (another decision, or a note added later): nothing to judge',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const calls = historyCalls(traffic);
    // A later action sent with the occurred_at of one reported before: each accepted item against the later
    // items on its run and candidate at the same instant, found by that key; a run of the same action
    // there (its retries) is stepped over at once, so the walk costs the offences it finds.
    const sameInstantLater = new Map<string, Later[]>();
    for (const call of calls)
      call.items.forEach((item, k) => {
        const list = sameInstantLater.get(instantItemKey(call, item));
        const later = { call, item, action: call.actions[k]!, nextOtherAction: 0 };
        if (list) list.push(later);
        else sameInstantLater.set(instantItemKey(call, item), [later]);
      });
    for (const list of sameInstantLater.values())
      for (let q = list.length - 1; q >= 0; q--)
        list[q]!.nextOtherAction =
          q === list.length - 1
            ? list.length
            : list[q + 1]!.action !== list[q]!.action
              ? q + 1
              : list[q + 1]!.nextOtherAction;
    for (const earlier of calls) {
      if (!accepted(earlier.r)) continue;
      earlier.items.forEach((before, k) => {
        const list = sameInstantLater.get(instantItemKey(earlier, before));
        if (!list) return;
        const action = earlier.actions[k]!;
        let q = firstLaterThan(list, earlier.pos);
        while (q < list.length) {
          const { call, item } = list[q]!;
          if (list[q]!.action === action) {
            q = list[q]!.nextOtherAction;
            continue;
          }
          offences.push({
            message: `candidate ${item.candidate}: a later action ${list[q]!.action} was sent with the occurred_at ${canonical(item.occurredAt)} of the action reported before (${action}); the service keeps one entry per candidate, decision and occurred_at`,
            expected: 'a new occurred_at (when the recruiter acted again)',
            received: `occurred_at ${canonical(item.occurredAt)} again`,
            requests: [earlier.r.id, call.r.id],
          });
          q += 1;
        }
      });
    }
    const proof = laterActionsProven(calls);
    return ruleVerdict(laterActionRule, ctx, {
      offences,
      exercised: proof.length > 0,
      passMessage: `${proof.length} later action(s) on a reported candidate, each with a new occurred_at`,
      proof,
    });
  },
};

const failedCallResentRule: Rule = {
  id: 'decisions.failed-call-resent',
  title: 'A decisions call that failed or lost its answer is sent again: no decision is lost',
  suite: 'decisions',
  evidence: 'provoked',
  spec: [S.decisions, S.retries],
  hint: 'report a decision on a candidate (POST /runs/{run_id}/decisions with a decision): the first such call answers 503 rate_limit_unavailable and stores nothing; send it again',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const proof: number[] = [];
    const proven = new Set<number>();
    const calls = historyCalls(traffic);
    // Each action on a candidate of a run, by the calls that carry it in order: the resend of a failed
    // call's item is looked up, not searched for among every later call.
    const carrying = new Map<string, CallList<{ call: DecisionCall }>>();
    const actionKey = (c: DecisionCall, k: number): string =>
      JSON.stringify([c.r.runId, c.items[k]!.candidate, c.actions[k]]);
    for (const call of calls) {
      const keys = new Set(call.items.map((_, k) => actionKey(call, k)));
      for (const key of keys) listIn(carrying, key, { call });
    }
    for (const list of carrying.values()) list.seal();
    let pending = 0;
    for (const fc of calls) {
      const f = fc.r;
      if (!failedAnswer(f)) continue;
      const items = fc.items;
      if (items.length === 0) continue;
      // The same action sent again (candidate, decision, reason and note), whatever its occurred_at: a resend
      // under a new occurred_at is not lost (decisions.retry-keeps-occurred-at judges that); a later note is
      // another action and carries nothing of the failed one.
      const resent = (k: number): PartnerRequest | undefined => {
        for (const { call } of carrying.get(actionKey(fc, k))?.later({ pos: fc.pos }, { atLeast: f.answeredAt }) ?? [])
          return call.r;
        return undefined;
      };
      const lost = items.filter((_, k) => resent(k) === undefined);
      if (lost.length === 0) {
        for (const k of items.keys()) {
          const s = resent(k);
          if (s && !proven.has(s.id)) {
            proven.add(s.id);
            proof.push(s.id);
          }
        }
        continue;
      }
      // Still time to send it again while the session runs; at its end, a call failed within the retry
      // window is not judged (the session may have been stopped under the client's backoff).
      if (!ctx.final || ctx.now - f.answeredAt <= retryWindowMs(ctx)) {
        pending += 1;
        continue;
      }
      offences.push({
        message: `POST ${f.path} ${f.lost ? 'lost its answer' : `answered ${f.status}${f.errorCode ? ` ${f.errorCode}` : ''}`} and its decision(s) on candidate(s) ${lost.map((x) => x.candidate).join(', ')} were never sent again in the ${seconds(ctx.now - f.answeredAt)} the session went on: lost decisions`,
        expected: 'the call sent again (retry-safe with the same occurred_at) until it is accepted',
        received: 'no later call carrying them',
        requests: [f.id],
      });
    }
    const verdict = ruleVerdict(failedCallResentRule, ctx, {
      offences,
      exercised: proof.length > 0,
      passMessage: `${proof.length} decisions call(s) sent again after a failure or a lost answer`,
      proof,
    });
    if (verdict.state === 'pending' && pending > 0)
      return { ...verdict, message: `${pending} failed decisions call(s) not sent again yet` };
    return verdict;
  },
};

export const decisionHistoryRules: Rule[] = [laterActionRule, failedCallResentRule];
