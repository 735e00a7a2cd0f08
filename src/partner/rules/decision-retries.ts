// How decisions are sent again (Endpoints › POST /runs/{run_id}/decisions; Errors › Idempotency and
// retries): a retry after a failure keeps each item's `occurred_at` ("yes, with the same `occurred_at`";
// rule 1: a new `occurred_at` is kept as a new history entry), and after a `422` "nothing of the request
// was stored; fix and resend the entire batch" (rule 2).

import { S } from '../../spec/sections.js';
import type { JudgeContext, PartnerRequest } from '../traffic.js';
import {
  canonical,
  retryAfterMs,
  retryWindowMs,
  seconds,
  simulatedReading,
  simulationDropped,
} from './retry-chains.js';
import { failedAnswer, sameInstant, type DecisionItem } from './decision-items.js';
import { actingUser, CallList, decisionIndex, listIn, runKey, strictKey, type DecisionCall } from './decision-index.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

interface Twin {
  call: DecisionCall;
  item: DecisionItem;
}

/**
 * The later decisions calls for the same run by the same acting recruiter are the ones a retry can be.
 * Another recruiter reporting on the same run (two recruiters work one shortlist) sends her own actions,
 * never a retry of this one's.
 */
const recruiterKey = (c: DecisionCall): string => `${runKey(c.r)}\u0000${c.user}`;

/** The same action of a recruiter on a run sent again: candidate, decision, note and reason. */
const twinKey = (c: DecisionCall, a: DecisionItem): string =>
  JSON.stringify([recruiterKey(c), a.candidate, strictKey(a.decision), canonical(a.note), canonical(a.rejectReason)]);

function firstOf<T>(it: Iterable<T> | undefined): T | undefined {
  if (it) for (const x of it) return x;
  return undefined;
}

/** The retry window after a failed answer, with a 429's Retry-After on top (the client waited as told). */
function windowAfter(r: PartnerRequest, ctx: Pick<JudgeContext, 'timeScale'>): number {
  return retryWindowMs(ctx) + (retryAfterMs(r) ?? 0);
}

/**
 * Each action by run and recruiter, and each with its occurred_at, in traffic order: the resends of a
 * failed call are looked up, not searched for among every later call.
 */
function twinLists(calls: readonly DecisionCall[]): {
  twins: Map<string, CallList<Twin>>;
  keptAs: Map<string, CallList<Twin>>;
} {
  const twins = new Map<string, CallList<Twin>>();
  const keptAs = new Map<string, CallList<Twin>>();
  for (const call of calls)
    for (const item of call.items) {
      const key = twinKey(call, item);
      listIn(twins, key, { call, item });
      listIn(keptAs, `${key}\u0000${canonical(item.occurredAt)}`, { call, item });
    }
  for (const list of [...twins.values(), ...keptAs.values()]) list.seal();
  return { twins, keptAs };
}

const occurredAtKeptRule: Rule = {
  id: 'decisions.retry-keeps-occurred-at',
  title: 'A decisions retry keeps each occurred_at',
  suite: 'decisions',
  evidence: 'provoked',
  warns: [
    'a retry writes the same occurred_at instant another way (2026-01-01T10:00:00Z, …00.000Z)',
    'the same action sent under a new occurred_at only after the retry window: the recruiter acting again by hand, or a late retry restamped',
    'the repeat after a simulated refusal drops x-svc-sandbox-simulate (the partner moving on, or a retry)',
  ],
  spec: [S.retries, S.decisions],
  hint: 'report a decision on a candidate (POST /runs/{run_id}/decisions with a decision): the first such call answers 503 rate_limit_unavailable, another one is executed but its answer is lost; let your client retry them',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const proof: number[] = [];
    const proven = new Set<number>();
    const index = decisionIndex(traffic);
    const { twins, keptAs } = twinLists(index.calls);
    for (const fc of index.calls) {
      const f = fc.r;
      if (!failedAnswer(f)) continue;
      const sent = fc.items;
      if (sent.length === 0) continue;
      // A resend is the same action (candidate, decision, note, reason) by the same recruiter for the run,
      // sent after the failure, judged by its occurred_at at any distance: an outbox that resends an hour
      // later with the action's occurred_at is right (the spec recommends sending within 5 minutes and
      // sets no retry window for decisions). An item resent with its occurred_at kept in any later call is
      // retried right; only an item resent solely under a new occurred_at is a second history entry for one
      // action. Another note (or reason) is a later action, judged by decisions.later-action-new-occurred-at.
      const after = { id: f.id, idOrdered: index.idOrdered };
      const since = { atLeast: f.at };
      for (const item of sent) {
        const key = twinKey(fc, item);
        const first = firstOf(twins.get(key)?.later(after, since));
        if (!first) continue;
        const kept = firstOf(keptAs.get(`${key}\u0000${canonical(item.occurredAt)}`)?.later(after, since));
        if (kept) {
          if (!proven.has(kept.call.r.id)) {
            proven.add(kept.call.r.id);
            proof.push(kept.call.r.id);
          }
          continue;
        }
        const { r: resend } = first.call;
        const twin = first.item;
        if (sameInstant(item.occurredAt, twin.occurredAt)) {
          // The same moment written another way (2026-01-01T10:00:00Z, …00.000Z, …+00:00): one action.
          warnings.push({
            message: `decision "${String(item.decision)}" on candidate ${item.candidate} resent after a failure with occurred_at ${canonical(twin.occurredAt)} for ${canonical(item.occurredAt)}: the same instant written differently`,
            reading: 'a date-time compares as the instant it names',
            otherReading: 'the service compares the text and keeps a second entry',
            expected: `occurred_at ${canonical(item.occurredAt)} as first sent`,
            received: `occurred_at ${canonical(twin.occurredAt)}`,
            requests: [f.id, resend.id],
          });
          continue;
        }
        const o: TrafficObservation = {
          message: `decision "${String(item.decision)}" on candidate ${item.candidate} resent ${seconds(resend.at - f.answeredAt)} after ${f.lost ? 'a lost answer' : `${f.status}${f.errorCode ? ` ${f.errorCode}` : ''}`} with a new occurred_at: a second history entry for one action`,
          expected: `occurred_at ${canonical(item.occurredAt)} (when the recruiter acted)`,
          received: `occurred_at ${canonical(twin.occurredAt)}`,
          requests: [f.id, resend.id],
        };
        if (simulationDropped(f, resend)) warnings.push({ ...o, ...simulatedReading(f) });
        // Long after the failure the same action under a new occurred_at may be the recruiter doing it
        // again by hand (the first one lost): the wire reads two ways. Within the retry window it is a retry.
        else if (resend.at - f.answeredAt > windowAfter(f, ctx))
          warnings.push({
            ...o,
            message: o.message,
            reading: `the recruiter took the same action again by hand, ${seconds(resend.at - f.answeredAt)} later, and it is a new history entry`,
            otherReading: "a retry stamped with the time of sending instead of the action's",
          });
        else offences.push(o);
      }
    }
    return ruleVerdict(occurredAtKeptRule, ctx, {
      offences,
      warnings,
      exercised: proof.length > 0,
      passMessage: `${proof.length} decisions retr${proof.length === 1 ? 'y' : 'ies'} with the same occurred_at`,
      proof,
    });
  },
};

/**
 * A dropped item was evidently valid when the 422 cannot have been about it: after `unknown_reject_reason`
 * (with `allowed[]`), an item without a reject_reason or with an allowed one. After another 422 (whose
 * conditions are "not shown" beyond a reason on a non-rejected decision) it may have been the bad one.
 */
function evidentlyValid(refused: PartnerRequest, item: DecisionItem): boolean {
  if (refused.errorCode !== 'unknown_reject_reason') return false;
  if (item.rejectReason === null) return true;
  const allowed =
    refused.responseJson !== null && typeof refused.responseJson === 'object'
      ? (refused.responseJson as { allowed?: unknown }).allowed
      : undefined;
  return Array.isArray(allowed) && allowed.includes(item.rejectReason);
}

/** Each recruiter's calls for a run, and the last id that carried each candidate: looked up per 422. */
function recruiterCalls(calls: readonly DecisionCall[]): {
  byRecruiter: Map<string, CallList<{ call: DecisionCall }>>;
  lastCarrying: Map<string, number>;
} {
  const byRecruiter = new Map<string, CallList<{ call: DecisionCall }>>();
  const lastCarrying = new Map<string, number>();
  for (const call of calls) {
    listIn(byRecruiter, recruiterKey(call), { call });
    for (const item of call.items) {
      const key = `${recruiterKey(call)}\u0000${item.candidate}`;
      lastCarrying.set(key, Math.max(lastCarrying.get(key) ?? -Infinity, call.r.id));
    }
  }
  for (const list of byRecruiter.values()) list.seal();
  return { byRecruiter, lastCarrying };
}

const wholeBatchRule: Rule = {
  id: 'decisions.whole-batch-resent-after-422',
  title: 'After a decisions 422 the whole batch is resent, fixed',
  suite: 'decisions',
  evidence: 'conditional',
  notApplicableWhen: 'the client never received a decisions 422: nothing to resend',
  warns: ['the resent batch drops items (a refused item may have been abandoned)'],
  spec: [S.decisions, S.byEndpoint],
  // Conditional: no honest injection exists (a 422 refuses invalid data, and a conformant client sends none),
  // so the rule judges only a 422 the client's own batch drew.
  hint: 'the client never received a 422 on a decisions call: nothing to resend (judged only when a batch of yours is refused)',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const proof: number[] = [];
    const index = decisionIndex(traffic);
    const { byRecruiter, lastCarrying } = recruiterCalls(index.calls);
    for (const rc of index.calls) {
      const r = rc.r;
      if (r.status !== 422) continue;
      const batch = rc.items;
      if (batch.length < 2) continue;
      // Every later call of the same recruiter for the run may carry the resent items (a client may resend
      // the fixed batch in parts); another recruiter's calls carry her own decisions.
      const resend = firstOf(
        byRecruiter.get(recruiterKey(rc))?.later({ id: r.id, idOrdered: index.idOrdered }, { atLeast: -Infinity }),
      )?.call.r;
      if (!resend) {
        // Never resent: the evidently valid decisions are lost (a 422 stores nothing), once the session went
        // on past the retry window; a batch whose refused item may be any of them may have been abandoned.
        if (ctx.now - r.answeredAt <= windowAfter(r, ctx)) continue;
        const valid = batch.filter((i) => evidentlyValid(r, i));
        const o: TrafficObservation = {
          message: `after 422 ${r.errorCode ?? ''} the batch of ${batch.length} decisions was never resent`,
          expected: 'the entire batch resent with the refused item fixed (a 422 stores nothing)',
          received: `no later decisions call for the run by ${JSON.stringify(actingUser(r) ?? null)}`,
          requests: [r.id],
        };
        if (valid.length > 0)
          offences.push({
            ...o,
            message: `${o.message}: the decision(s) on candidate(s) ${valid.map((i) => i.candidate).join(', ')}, which nothing refused, are never stored`,
          });
        else
          warnings.push({
            ...o,
            message: o.message,
            reading: 'the recruiter may have abandoned a batch whose refused item is not shown',
            otherReading: 'the batch is always resent fixed',
          });
        continue;
      }
      const dropped = batch.filter(
        (i) => (lastCarrying.get(`${recruiterKey(rc)}\u0000${i.candidate}`) ?? -Infinity) <= r.id,
      );
      if (dropped.length === 0) {
        proof.push(resend.id);
        continue;
      }
      const valid = dropped.filter((i) => evidentlyValid(r, i));
      const o: TrafficObservation = {
        message: `after 422 ${r.errorCode ?? ''} the batch was resent without the decision(s) on candidate(s) ${(valid.length > 0 ? valid : dropped).map((i) => i.candidate).join(', ')}`,
        expected: 'the entire batch resent with the refused item fixed (a 422 stores nothing)',
        received: `${batch.length} decision(s) refused, ${batch.length - dropped.length} resent`,
        requests: [r.id, resend.id],
      };
      if (valid.length > 0)
        offences.push({ ...o, message: `${o.message}, though nothing about them was refused: they are never stored` });
      else
        warnings.push({
          ...o,
          message: o.message,
          reading: 'the dropped item may be the one the 422 refused, whose conditions are not shown',
          otherReading: 'every item is resent',
        });
    }
    return ruleVerdict(wholeBatchRule, ctx, {
      offences,
      warnings,
      exercised: proof.length > 0,
      passMessage: `${proof.length} batch(es) refused with 422 resent whole`,
      proof,
    });
  },
};

export const decisionRetryRules: Rule[] = [occurredAtKeptRule, wholeBatchRule];
