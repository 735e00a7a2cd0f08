// What the partner reports back (Endpoints › POST /runs/{run_id}/decisions: `notices_shown` "codes of
// notices rendered to a recruiter for this run, including unrecognized codes; each sent at least once per
// run"; rule 7; Decision: `reject_reason` "only with rejected").

import { KNOWN_NOTICE_CODES } from '../../spec/notice-codes.js';
import { S } from '../../spec/sections.js';
import type { JudgeContext, Traffic } from '../traffic.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';
import { noticeCodes, runFacts } from './runs.js';

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Codes reported per run by decisions calls the sandbox accepted (a 422 stores nothing). */
function reportedCodes(traffic: Traffic): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of traffic.requests) {
    if (r.endpoint !== 'decisions' || r.runId === undefined || r.status < 200 || r.status >= 300) continue;
    const shown = record(r.json)?.notices_shown;
    if (!Array.isArray(shown)) continue;
    const set = out.get(r.runId) ?? new Set<string>();
    for (const c of shown) if (typeof c === 'string') set.add(c);
    out.set(r.runId, set);
  }
  return out;
}

/**
 * Runs a recruiter evidently saw, each with the time of the last sign: the partner posted a decision (a
 * decisions call with at least one decision) or a reveal for them. A run only read (a background poll, a
 * prefetch) may not have been shown; nor was a code first served after the last sign, as far as anyone can tell.
 */
function seenRuns(traffic: Traffic): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of traffic.requests) {
    if (r.runId === undefined) continue;
    const list = r.endpoint === 'decisions' ? record(r.json)?.decisions : undefined;
    if (r.endpoint === 'reveal' || (Array.isArray(list) && list.length > 0))
      out.set(r.runId, Math.max(out.get(r.runId) ?? 0, r.at));
  }
  return out;
}

/** Codes of the RequirementIssues in `warnings[]` of the accepted start of `runId`. */
function startWarningCodes(traffic: Traffic, runId: string): Set<string> {
  const start = traffic.requests.find((r) => r.endpoint === 'runs-start' && record(r.responseJson)?.run_id === runId);
  const list = record(start?.responseJson)?.warnings;
  return new Set(
    Array.isArray(list) ? list.map((w) => record(w)?.code).filter((c): c is string => typeof c === 'string') : [],
  );
}

type Reported = ReturnType<typeof reportedCodes>;
type Facts = ReturnType<typeof runFacts>;
interface Findings {
  offences: TrafficObservation[];
  warnings: TrafficObservation[];
}

/** Notices shown are notices served: a code never in a read of the run cannot have been rendered for it. */
function unservedCodes(traffic: Traffic, reported: Reported, facts: Facts, out: Findings): void {
  const { offences, warnings } = out;
  // Notices shown are notices served: a code never in a read of the run cannot have been rendered for it.
  for (const [runId, got] of reported) {
    const reads = facts.get(runId)?.reads ?? [];
    const served = new Set(reads.flatMap(noticeCodes));
    const unserved = [...got].filter((c) => !served.has(c)).sort();
    if (unserved.length === 0) continue;
    const calls = traffic.requests.filter(
      (r) => r.endpoint === 'decisions' && r.runId === runId && r.status >= 200 && r.status < 300,
    );
    const o: TrafficObservation = {
      message: `run ${runId}: notices_shown names code(s) ${unserved.join(', ')} never served for the run`,
      expected:
        served.size > 0 ? `codes among ${[...served].sort().join(', ')}` : 'no code (no notice was served for the run)',
      received: `notices_shown: ${[...got].sort().join(', ')}`,
      requests: calls.map((r) => r.id),
    };
    // The run start's warnings[] are rendered too ("shown verbatim beside the requirement"): reporting
    // their codes reports what was rendered for the run, though they are requirement issues, not notices.
    const issued = startWarningCodes(traffic, runId);
    if (unserved.every((c) => issued.has(c))) {
      warnings.push({
        ...o,
        message: `${o.message} as notices, but served as warnings of the run start`,
        reading: 'a rendered warning of the run is reported as shown',
        otherReading: 'notices_shown holds notice codes only',
      });
    } else offences.push(o);
  }
}

/**
 * Fixture runs whose read notice codes of `kind` were not all reported in notices_shown; counts the runs
 * read with such codes and those fully reported.
 */
function unreportedCodes(
  traffic: Traffic,
  ctx: JudgeContext,
  given: { kind: 'known' | 'unknown'; reported: Reported; facts: Facts },
  out: Findings,
): { runs: number; complete: number } {
  const { kind, reported, facts } = given;
  const { offences, warnings } = out;
  const seen = seenRuns(traffic);
  let runs = 0;
  let complete = 0;
  for (const run of facts.values()) {
    // Fixture runs: the operator knows what the partner was shown; a real run's page may show less.
    if (!run.fixture) continue;
    const shownReads = run.reads.filter((r) => noticeCodes(r).length > 0);
    const codes = new Set(
      shownReads.flatMap(noticeCodes).filter((c) => KNOWN_NOTICE_CODES.has(c) === (kind === 'known')),
    );
    if (codes.size === 0) continue;
    runs += 1;
    const got = reported.get(run.runId) ?? new Set<string>();
    const missing = [...codes].filter((c) => !got.has(c)).sort();
    if (missing.length === 0) {
      complete += 1;
      continue;
    }
    // Still time to report while the session runs: only the end settles a missing code.
    if (!ctx.final) continue;
    const decisions = traffic.requests.filter((r) => r.endpoint === 'decisions' && r.runId === run.runId);
    const offence: TrafficObservation = {
      message: `${run.fixture} run ${run.runId}: ${kind} notice code(s) ${missing.join(', ')} read but never reported in notices_shown`,
      expected: `notices_shown including ${[...codes].sort().join(', ')}`,
      received:
        got.size > 0
          ? `notices_shown: ${[...got].sort().join(', ')}`
          : decisions.length > 0
            ? 'no accepted notices_shown'
            : 'no decisions call for the run',
      requests: [shownReads[0]!.id, ...decisions.map((r) => r.id)],
    };
    // Notices read are not notices shown (known and unknown codes alike): without a decision or a reveal
    // after a read serving the code, nothing shows a recruiter saw it.
    const lastSign = seen.get(run.runId);
    const seenCode = (c: string): boolean =>
      lastSign !== undefined && shownReads.some((r) => r.answeredAt <= lastSign && noticeCodes(r).includes(c));
    if (missing.some(seenCode)) offences.push(offence);
    else if (lastSign !== undefined)
      warnings.push({
        ...offence,
        message: `${offence.message}; first served after the recruiter's last decision or reveal on the run, so it may never have been shown`,
      });
    else
      warnings.push({
        ...offence,
        message: `${offence.message}; no decision or reveal shows a recruiter saw the run, so it may never have been shown`,
      });
  }
  return { runs, complete };
}

function noticesRule(opts: { id: string; title: string; kind: 'known' | 'unknown'; hint: string }): Rule {
  const rule: Rule = {
    id: opts.id,
    title: opts.title,
    suite: 'decisions',
    evidence: 'provoked',
    warns: [
      'a code was served only as a warning of the run start, or after the recruiter last acted on the run (it may never have been shown)',
    ],
    spec: opts.kind === 'known' ? [S.decisions] : [S.decisions, S.notice, S.versioning],
    hint: opts.hint,
    judge(traffic: Traffic, ctx: JudgeContext) {
      const out: Findings = { offences: [], warnings: [] };
      const reported = reportedCodes(traffic);
      const facts = runFacts(traffic);
      if (opts.kind === 'known') unservedCodes(traffic, reported, facts, out);
      const { runs, complete } = unreportedCodes(traffic, ctx, { kind: opts.kind, reported, facts }, out);
      const verdict = ruleVerdict(rule, ctx, {
        ...out,
        exercised: runs > 0 && complete === runs,
        passMessage: `every ${opts.kind} notice code of ${runs} fixture run(s) reported in notices_shown`,
      });
      if (verdict.state === 'pending' && runs > complete) {
        return {
          ...verdict,
          message: `${runs - complete} fixture run(s) read with ${opts.kind} notice codes not reported yet: send notices_shown with every code shown`,
        };
      }
      return verdict;
    },
  };
  return rule;
}

const knownNoticesRule = noticesRule({
  id: 'decisions.notices-shown-reports-every-code',
  title: 'notices_shown reports every notice code shown (fixture runs)',
  kind: 'known',
  hint: 'start a cert-notices-all run, show it, and report a decision with notices_shown',
});

const unknownNoticesRule = noticesRule({
  id: 'decisions.notices-shown-includes-unknown-codes',
  title: 'notices_shown includes unrecognized notice codes (zz_*)',
  kind: 'unknown',
  hint: 'start a cert-notice-unknown run, show it, and report a decision with notices_shown',
});

const rejectReasonRule: Rule = {
  id: 'decisions.reject-reason-only-with-rejected',
  title: 'A decision carries reject_reason only when it is rejected',
  suite: 'decisions',
  evidence: 'provoked',
  spec: [S.decisionItem, S.decisions],
  hint: 'report decisions on candidates (a rejection with a reason and another decision)',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    let items = 0;
    for (const r of traffic.requests) {
      if (r.endpoint !== 'decisions') continue;
      const list = record(r.json)?.decisions;
      if (!Array.isArray(list)) continue;
      for (const d of list) {
        const item = record(d);
        if (!item) continue;
        items += 1;
        const reason = item.reject_reason;
        if (reason !== undefined && reason !== null && item.decision !== 'rejected') {
          offences.push({
            message: `decision "${String(item.decision)}" sent with reject_reason ${JSON.stringify(reason)}`,
            expected: 'reject_reason only with decision "rejected"',
            received: JSON.stringify({ decision: item.decision, reject_reason: reason }),
            requests: [r.id],
          });
        }
      }
    }
    return ruleVerdict(rejectReasonRule, ctx, {
      offences,
      exercised: items > 0,
      passMessage: `${items} decision(s), reject_reason only on rejections`,
    });
  },
};

export const decisionRules: Rule[] = [knownNoticesRule, unknownNoticesRule, rejectReasonRule];
