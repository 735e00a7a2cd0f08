// Polling guidance (Endpoints › GET /runs/{run_id}; Limits: "Run polling: every 5 seconds while watched;
// stop after 30 minutes of running"; States and transitions: completed and failed are terminal).

import { S } from '../../spec/sections.js';
import { specMs, type PartnerRequest } from '../traffic.js';
import { seconds } from './retry-chains.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';
import { isTerminal, PROMPTED_BY_WEBHOOK_MS, promptedRead, promptingDelivery, readStatus, runFacts } from './runs.js';

const POLL_INTERVAL_MS = 5_000;
const MAX_RUNNING_MS = 30 * 60_000;
/**
 * A read this soon (spec time) after the read that returned completed/failed, with no reveal or decision
 * of the run in between, is the poller still running; a person reopening the run, or a read to refresh
 * after a reveal, is not polling.
 */
const AFTER_TERMINAL_WINDOW_MS = 6 * POLL_INTERVAL_MS;
/** Interval tolerance: timers of a busy client may fire a little early relative to the previous arrival. */
const INTERVAL_TOLERANCE = 0.9;

const pollIntervalRule: Rule = {
  id: 'polling.running-run-read-at-most-every-5s',
  advisory: true,
  title: 'A running run is read at most every 5 s (spec time)',
  suite: 'polling',
  evidence: 'provoked',
  warns: ['any breach: polling pace is client guidance (advisory), never a failure'],
  spec: [S.runsRead, S.limits],
  hint: 'start a cert-slow run and keep it on screen',
  judge(traffic, ctx) {
    const need = specMs(ctx, POLL_INTERVAL_MS);
    const offences: TrafficObservation[] = [];
    const proof: number[] = [];
    for (const run of runFacts(traffic).values()) {
      // Measured from the last read that was a poll (or began one): a read a webhook delivery or the user's
      // own reveal or decision prompted is no poll, and the poll after it keeps its own pace.
      let last = run.reads[0];
      for (let i = 1; i < run.reads.length; i++) {
        const prev = run.reads[i - 1]!;
        const next = run.reads[i]!;
        const status = readStatus(prev);
        // Only the gap after a read that showed the run running is a polling interval (a retry after 503 is backoff).
        if (status === undefined || isTerminal(status)) {
          last = next;
          continue;
        }
        if (promptedRead(traffic, next, prev, specMs(ctx, PROMPTED_BY_WEBHOOK_MS))) continue;
        const from = last ?? prev;
        const gap = next.at - from.at;
        last = next;
        proof.push(next.id);
        if (gap < need * INTERVAL_TOLERANCE) {
          offences.push({
            message: `run ${run.runId} read again ${seconds(gap)} after a read that showed it ${status}`,
            expected: `at least 5 s between reads (${seconds(need)} at time scale ${ctx.timeScale})`,
            received: seconds(gap),
            requests: [from.id, next.id],
          });
        }
      }
    }
    return ruleVerdict(pollIntervalRule, ctx, {
      offences,
      exercised: proof.length > 0,
      passMessage: `${proof.length} poll(s) of running runs, none sooner than 5 s (spec time)`,
      proof,
    });
  },
};

const stopAtTerminalRule: Rule = {
  id: 'polling.stops-at-completed-or-failed',
  advisory: true,
  title: 'No polling after the read that returned completed or failed',
  suite: 'polling',
  evidence: 'provoked',
  warns: ['any breach: polling pace is client guidance (advisory), never a failure'],
  spec: [S.runsRead, S.runStatus],
  hint: 'start a cert-slow run and keep it on screen until it completes',
  judge(traffic, ctx) {
    const window = specMs(ctx, AFTER_TERMINAL_WINDOW_MS);
    const prompt = specMs(ctx, PROMPTED_BY_WEBHOOK_MS);
    const offences: TrafficObservation[] = [];
    let watched = 0;
    for (const run of runFacts(traffic).values()) {
      const t = run.reads.findIndex((r) => isTerminal(readStatus(r)));
      if (t < 0) continue;
      const terminal = run.reads[t]!;
      const sawRunning = run.reads.slice(0, t).some((r) => readStatus(r) !== undefined);
      // Other requests about this run (reveal, decisions) between the terminal read and a later read make
      // that later read a deliberate refresh, not a poll. Ordered by arrival id: a loopback round trip can
      // fit in one millisecond, so a reveal may carry the same timestamp as the read before it.
      const actions = traffic.requests.filter(
        (r) => r.runId === run.runId && r.endpoint !== 'runs-read' && r.id > terminal.id,
      );
      for (const later of run.reads.slice(t + 1)) {
        if (later.at - terminal.answeredAt > window) break;
        if (actions.some((a) => a.id < later.id)) break;
        // A read within a few seconds of a delivery to the partner about this run is prompted by it.
        if (promptingDelivery(traffic, later, prompt)) continue;
        offences.push({
          message: `run ${run.runId} read again ${seconds(later.at - terminal.answeredAt)} after a read returned ${readStatus(terminal)}`,
          expected: 'no polling after completed or failed',
          received: `GET /runs/${run.runId}`,
          requests: [terminal.id, later.id],
        });
      }
      // Proven once a poller saw the run running, then terminal, and the window passed quietly.
      if (sawRunning && (ctx.final || ctx.now - terminal.answeredAt > window)) watched += 1;
    }
    return ruleVerdict(stopAtTerminalRule, ctx, {
      offences,
      exercised: watched > 0,
      passMessage: `${watched} run(s) watched to the end, no read after completed/failed`,
    });
  },
};

const stopAfter30MinRule: Rule = {
  id: 'polling.stops-after-30-min-running',
  advisory: true,
  title: 'Polling stops after a run has been running for 30 minutes (spec time)',
  suite: 'polling',
  evidence: 'provoked',
  warns: ['any breach: polling pace is client guidance (advisory), never a failure'],
  spec: [S.runsRead, S.limits],
  hint: 'start a run on one of your own jobs and keep it on screen: the first real run the sandbox accepts reads running for 35 minutes (spec time; --time-scale shortens them) and sends its terminal webhook only then',
  judge(traffic, ctx) {
    // The client counts from when it got the 202, a little after the sandbox sent it: a grace of one poll
    // interval or 2 % of the limit, whichever is longer, on either side keeps that lag from blaming (or
    // leaving unjudged) a conformant client.
    const limit = specMs(ctx, MAX_RUNNING_MS);
    const grace = Math.max(specMs(ctx, POLL_INTERVAL_MS), limit * 0.02);
    const running = (r: PartnerRequest) => readStatus(r) !== undefined && !isTerminal(readStatus(r));
    const offences: TrafficObservation[] = [];
    let exercised = 0;
    for (const run of runFacts(traffic).values()) {
      if (!run.reads.some((r) => r.at > run.startedAt + limit - grace && running(r))) continue;
      exercised += 1;
      // The read that found the run surely past the limit; the poller stops after it.
      const found = run.reads.find((r) => r.at > run.startedAt + limit + grace && running(r));
      if (!found) continue;
      // One read more is the client's clock lagging the sandbox's (it counts from the 202's arrival, under
      // load later than the sandbox sent it); a poller that ignores the limit reads on until the run ends.
      const prompt = specMs(ctx, PROMPTED_BY_WEBHOOK_MS);
      const polls = run.reads.filter(
        (r, k) => r.at > found.answeredAt && !promptedRead(traffic, r, run.reads[k - 1], prompt),
      );
      if (polls.length > 1) {
        offences.push({
          message: `run ${run.runId} still read ${polls.length} time(s) after a read showed it running for more than 30 minutes (spec time)`,
          expected: 'stop polling, show the run id with a support hint',
          received: `${polls.length} read(s) after the limit`,
          requests: [found.id, ...polls.map((r) => r.id)],
        });
      }
    }
    return ruleVerdict(stopAfter30MinRule, ctx, {
      offences,
      exercised: exercised > 0,
      passMessage: `${exercised} run(s) past 30 minutes of running, polling stopped`,
    });
  },
};

export const pollingRules: Rule[] = [pollIntervalRule, stopAtTerminalRule, stopAfter30MinRule];
