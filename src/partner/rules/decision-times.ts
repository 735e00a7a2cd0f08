// What a decision item says of the recruiter's action (Resources › Decision): `occurred_at` is "when the
// recruiter acted, not when it was sent", and "Timestamps are ISO 8601 in UTC" (What the service does);
// "there is no standalone note without a decision". The wire cannot show when a person clicked, but it
// shows an instant that no action can have had (after the call carrying it arrived, or before the run
// existed), a time that names no instant (no zone), and a note sent with no decision. A resend restamped
// with the time of sending is judged by decisions.retry-keeps-occurred-at.

import { S } from '../../spec/sections.js';
import type { PartnerRequest } from '../traffic.js';
import { canonical, seconds } from './retry-chains.js';
import { decisionIndex } from './decision-index.js';
import type { DecisionItem } from './decision-items.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';
import { runFacts } from './runs.js';

/**
 * How far (real ms) an occurred_at may lie after the call's arrival, or before its run began, before no
 * action can have had it: two machines' clocks disagree by a few seconds at most when synchronised; a
 * client writing local time as UTC is off by hours.
 */
const CLOCK_SKEW_MS = 60_000;

/** RFC 3339's date-time, the zone optional so that its absence can be named. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([Zz]|[+-]\d{2}:\d{2})?$/;

const DECISIONS = new Set(['shortlisted', 'rejected', 'contacted', 'interviewing', 'hired']);

function where(r: PartnerRequest, item: DecisionItem): string {
  return `decision ${canonical(item.decision)} on candidate ${item.candidate} (POST ${r.path})`;
}

const occurredAtActionTimeRule: Rule = {
  id: 'decisions.occurred-at-is-action-time',
  title: "occurred_at is the recruiter's action time, in ISO 8601 UTC",
  suite: 'decisions',
  evidence: 'provoked',
  warns: ['an occurred_at written with an offset other than Z: the instant is exact, the spec says UTC'],
  spec: [S.decisionItem, S.general],
  hint: 'report a decision on a candidate (POST /runs/{run_id}/decisions): its occurred_at, when the recruiter acted, is judged',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const proof: number[] = [];
    const runs = runFacts(traffic);
    for (const call of decisionIndex(traffic).calls) {
      const r = call.r;
      let judged = false;
      for (const item of call.items) {
        if (typeof item.occurredAt !== 'string') continue;
        const m = DATE_TIME.exec(item.occurredAt);
        if (!m) continue;
        const zone = m[3];
        if (zone === undefined) {
          offences.push({
            message: `${where(r, item)}: occurred_at ${JSON.stringify(item.occurredAt)} has no zone, so it names no instant ("Timestamps are ISO 8601 in UTC")`,
            expected: 'an ISO 8601 date-time in UTC, ending in Z',
            received: item.occurredAt,
            requests: [r.id],
          });
          continue;
        }
        const at = Date.parse(`${m[1]}T${m[2]}${zone.toUpperCase()}`);
        if (!Number.isFinite(at)) continue;
        judged = true;
        if (at > r.at + CLOCK_SKEW_MS) {
          offences.push({
            message: `${where(r, item)}: occurred_at ${item.occurredAt} is ${seconds(at - r.at)} after the call arrived; it is "when the recruiter acted", which cannot follow the sending (local time written as UTC?)`,
            expected: `an instant no later than the call (${new Date(r.at).toISOString()}, give or take ${seconds(CLOCK_SKEW_MS)} of clock skew)`,
            received: item.occurredAt,
            requests: [r.id],
          });
          continue;
        }
        const run = r.runId !== undefined ? runs.get(r.runId) : undefined;
        // Only a run whose start the session saw has a known beginning (a first read is no start).
        const began = run?.startSeen ? run.startedAt : undefined;
        if (began !== undefined && at < began - CLOCK_SKEW_MS) {
          offences.push({
            message: `${where(r, item)}: occurred_at ${item.occurredAt} is ${seconds(began - at)} before the run began; no recruiter acted on its candidates then`,
            expected: `an instant after the run began (${new Date(began).toISOString()})`,
            received: item.occurredAt,
            requests: [r.id],
          });
          continue;
        }
        if (zone !== 'Z' && zone !== 'z' && zone !== '+00:00' && zone !== '-00:00')
          warnings.push({
            message: `${where(r, item)}: occurred_at ${item.occurredAt} is written with the offset ${zone}`,
            reading: 'an offset names the instant exactly, so the action time is kept',
            otherReading: '"Timestamps are ISO 8601 in UTC" asks for Z',
            expected: 'an ISO 8601 date-time in UTC, ending in Z',
            received: item.occurredAt,
            requests: [r.id],
          });
      }
      if (judged) proof.push(r.id);
    }
    return ruleVerdict(occurredAtActionTimeRule, ctx, {
      offences,
      warnings,
      exercised: proof.length > 0,
      passMessage: `${proof.length} decisions call(s) whose occurred_at are action times in UTC`,
      proof,
    });
  },
};

const noteWithDecisionRule: Rule = {
  id: 'decisions.note-only-with-decision',
  title: 'A note is sent only with a decision (there is no standalone note)',
  suite: 'decisions',
  evidence: 'conditional',
  notApplicableWhen: 'the client never sent a note: nothing to judge',
  spec: [S.decisionItem],
  hint: 'the client never sent a note: nothing to judge',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const proof: number[] = [];
    for (const call of decisionIndex(traffic).calls) {
      const notes = call.items.filter((i) => typeof i.note === 'string' && i.note !== '');
      if (notes.length === 0) continue;
      const alone = notes.filter((i) => typeof i.decision !== 'string' || !DECISIONS.has(i.decision));
      for (const item of alone)
        offences.push({
          message: `a note on candidate ${item.candidate} was sent with decision ${canonical(item.decision ?? null)} (POST ${call.r.path}): "there is no standalone note without a decision"`,
          expected: `the note with the recruiter's decision (${[...DECISIONS].join(', ')})`,
          received: `decision ${canonical(item.decision ?? null)}`,
          requests: [call.r.id],
        });
      if (alone.length === 0) proof.push(call.r.id);
    }
    return ruleVerdict(noteWithDecisionRule, ctx, {
      offences,
      exercised: proof.length > 0 || offences.length > 0,
      passMessage: `${proof.length} decisions call(s) carrying notes, each with its decision`,
      proof,
    });
  },
};

export const decisionTimeRules: Rule[] = [occurredAtActionTimeRule, noteWithDecisionRule];
