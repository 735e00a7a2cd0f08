// An unknown run status is read as `running` (Versioning 3: "run `status` is treated as `running`"): the
// client keeps reading the run, neither crashing nor stopping as if it had ended.

import { S } from '../../spec/sections.js';
import { specMs } from '../traffic.js';
import { seconds } from './retry-chains.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';
import { readStatus, runFacts } from './runs.js';

const KNOWN_RUN_STATUSES = new Set(['running', 'completed', 'failed']);

/**
 * A client that treats the status as running reads the run again. A next read within this long (spec
 * time) is polling; a later one still reads on, but slower than a watched run is polled (the pace is
 * guidance: a warning). No read at all while the session went on this long is a stop: it fails. A minute
 * is twelve polls of 5 s, so a client polling slower than the guidance is not blamed for its pace.
 */
const KEEPS_READING_MS = 60_000;
/**
 * Real ms the window never goes below: a loaded machine stalls a client's timers by hundreds of ms, which
 * at a high time scale is minutes of spec time (at time scale 1 the spec's minute is longer anyway).
 */
const TIMER_LAG_FLOOR_MS = 2_000;

export const unknownStatusRule: Rule = {
  id: 'unknown-values.unknown-run-status-read-as-running',
  title: 'An unknown run status is treated as running (the client keeps reading)',
  suite: 'unknown-values',
  evidence: 'provoked',
  warns: ['the client read again sooner than the polling pace, or only after a webhook delivery prompted it'],
  spec: [S.versioning, S.runStatus],
  hint: 'start a cert-slow run and keep it on screen, or read it when its run_completed webhook arrives: the first poll of a running run (a read after one that said running), or the first read of a run just after a webhook delivery for it, answers the unknown status zz_certification_status; read the run again',
  judge(traffic, ctx) {
    const window = Math.max(specMs(ctx, KEEPS_READING_MS), TIMER_LAG_FLOOR_MS);
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const proof: number[] = [];
    for (const run of runFacts(traffic).values()) {
      const i = run.reads.findIndex((r) => {
        const s = readStatus(r);
        return s !== undefined && !KNOWN_RUN_STATUSES.has(s);
      });
      if (i < 0) continue;
      const unknown = run.reads[i]!;
      const status = JSON.stringify(readStatus(unknown));
      const next = run.reads[i + 1];
      if (next && next.at - unknown.answeredAt <= window) {
        proof.push(next.id);
        continue;
      }
      if (next) {
        warnings.push({
          message: `run ${run.runId} read status ${status}, then read again only ${seconds(next.at - unknown.answeredAt)} later (reading taken: it kept reading, so it treated the status as running; the polling pace is guidance)`,
          expected: `the run read again at the polling pace (5 s; within ${seconds(window)} at the latest)`,
          received: `the next read ${seconds(next.at - unknown.answeredAt)} later`,
          requests: [unknown.id, next.id],
        });
        continue;
      }
      // Silence is a stop only once the window has passed while the session went on.
      if (ctx.now - unknown.answeredAt <= window) continue;
      const o: TrafficObservation = {
        message: `run ${run.runId} read status ${status}, then never read again in the ${seconds(ctx.now - unknown.answeredAt)} the session went on: an unknown status is running, not an end`,
        expected: `the run read again at the polling pace (within ${seconds(window)})`,
        received: 'no further read',
        requests: [unknown.id],
      };
      // A first read prompted by a webhook (Events rule 6) may be a background refresh nobody watches, and
      // polling is owed only while a recruiter watches: silence after it reads two ways.
      const prompt =
        i === 0 ? traffic.deliveries.find((d) => d.runId === run.runId && d.startedAt <= unknown.at) : undefined;
      // Polling is guidance ("while a recruiter is watching"): silence proves a stop only where the client
      // was polling this very run, read running and read again, before the unknown status; otherwise the
      // recruiter may simply have left, and nothing shows which.
      const polled = run.reads.slice(0, i).some((r) => readStatus(r) === 'running');
      if (prompt) {
        warnings.push({
          ...o,
          message: o.message,
          reading: `the read followed the ${prompt.event} delivery for the run and may be a background refresh nobody watched, so no polling was owed`,
          otherReading: 'an unknown status stopped the client',
        });
      } else if (!polled) {
        warnings.push({
          ...o,
          message: o.message,
          reading: 'nothing shows the run was being polled before, so the recruiter may have left',
          otherReading: 'an unknown status stopped the client',
        });
      } else offences.push(o);
    }
    return ruleVerdict(unknownStatusRule, ctx, {
      offences,
      warnings,
      exercised: proof.length > 0,
      passMessage: `${proof.length} run(s) read with an unknown status, still read as running`,
      proof,
    });
  },
};
