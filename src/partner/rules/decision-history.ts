// Decisions as history (Endpoints › POST /runs/{run_id}/decisions): rule 1, "a later action on the same
// candidate, including a later note, carries a new `occurred_at`" (the service stores each (run,
// candidate, decision, occurred_at) once, so a later action under the old occurred_at is counted a
// duplicate and lost); rules 6-7, every decision is reported and a call is retry-safe, so a call that
// failed (5xx, 429) or whose answer was lost is sent again, or its decisions are lost.

import { S } from '../../spec/sections.js';
import type { PartnerRequest, Traffic } from '../traffic.js';
import { canonical, retryWindowMs, seconds } from './retry-chains.js';
import { actionOf, decisionItemsOf, failedAnswer, sameInstant, type DecisionItem } from './decision-items.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

const accepted = (r: PartnerRequest): boolean => !r.lost && r.status >= 200 && r.status < 300;

function decisionCalls(traffic: Traffic): PartnerRequest[] {
  return traffic.requests.filter((r) => r.endpoint === 'decisions' && r.runId !== undefined);
}

export const laterActionRule: Rule = {
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
    const proof: number[] = [];
    const calls = decisionCalls(traffic);
    for (const [i, earlier] of calls.entries()) {
      if (!accepted(earlier)) continue;
      for (const before of decisionItemsOf(earlier)) {
        for (const later of calls.slice(i + 1)) {
          if (later.runId !== earlier.runId) continue;
          for (const item of decisionItemsOf(later)) {
            if (item.candidate !== before.candidate || actionOf(item) === actionOf(before)) continue;
            if (sameInstant(item.occurredAt, before.occurredAt) || item.occurredAt === before.occurredAt) {
              offences.push({
                message: `candidate ${item.candidate}: a later action ${actionOf(item)} was sent with the occurred_at ${canonical(item.occurredAt)} of the action reported before (${actionOf(before)}); the service keeps one entry per occurred_at`,
                expected: 'a new occurred_at (when the recruiter acted again)',
                received: `occurred_at ${canonical(item.occurredAt)} again`,
                requests: [earlier.id, later.id],
              });
            } else if (!proof.includes(later.id)) proof.push(later.id);
          }
        }
      }
    }
    return ruleVerdict(laterActionRule, ctx, {
      offences,
      exercised: proof.length > 0,
      passMessage: `${proof.length} later action(s) on a reported candidate, each with a new occurred_at`,
      proof,
    });
  },
};

export const failedCallResentRule: Rule = {
  id: 'decisions.failed-call-resent',
  title: 'A decisions call that failed or lost its answer is sent again: no decision is lost',
  suite: 'decisions',
  evidence: 'provoked',
  spec: [S.decisions, S.retries],
  hint: 'report a decision on a candidate (POST /runs/{run_id}/decisions with a decision): the first such call answers 503 rate_limit_unavailable and stores nothing; send it again',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const proof: number[] = [];
    const calls = decisionCalls(traffic);
    let pending = 0;
    for (const [i, f] of calls.entries()) {
      if (!failedAnswer(f)) continue;
      const items = decisionItemsOf(f);
      if (items.length === 0) continue;
      const after = calls.slice(i + 1).filter((s) => s.runId === f.runId && s.at >= f.answeredAt);
      // The same action sent again (candidate, decision, reason and note), whatever its occurred_at: a resend
      // under a new occurred_at is not lost (decisions.retry-keeps-occurred-at judges that); a later note is
      // another action and carries nothing of the failed one.
      const resent = (item: DecisionItem): PartnerRequest | undefined =>
        after.find((s) =>
          decisionItemsOf(s).some((x) => x.candidate === item.candidate && actionOf(x) === actionOf(item)),
        );
      const lost = items.filter((item) => resent(item) === undefined);
      if (lost.length === 0) {
        for (const item of items) {
          const s = resent(item);
          if (s && !proof.includes(s.id)) proof.push(s.id);
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
