// An unknown run status is read as `running` (Versioning 3: "run `status` is treated as `running`"): the
// client keeps reading the run, neither crashing nor stopping as if it had ended.

import { P } from '../spec-refs.js';
import { specMs } from '../traffic.js';
import { seconds } from './retry-chains.js';
import { settle, type Offence, type Rule } from './rule.js';
import { readStatus, runFacts } from './runs.js';

const KNOWN_RUN_STATUSES = new Set(['running', 'completed', 'failed']);

/**
 * A client reading the run as running reads it again within this long (spec time): four polls of 5 s.
 * Sooner than that its silence is not yet a stop; at the end of a session that ended sooner, unjudged.
 */
const KEEPS_READING_MS = 20_000;

export const unknownStatusRule: Rule = {
  id: 'unknown-values.unknown-run-status-read-as-running',
  title: 'An unknown run status is treated as running (the client keeps reading)',
  suite: 'unknown-values',
  spec: [P.versioning, P.runStatus],
  hint: 'start a cert-slow run and keep it on screen: one read answers the unknown status zz_certification_status',
  judge(traffic, ctx) {
    const window = specMs(ctx, KEEPS_READING_MS);
    const offences: Offence[] = [];
    const proof: number[] = [];
    for (const run of runFacts(traffic).values()) {
      const i = run.reads.findIndex((r) => {
        const s = readStatus(r);
        return s !== undefined && !KNOWN_RUN_STATUSES.has(s);
      });
      if (i < 0) continue;
      const unknown = run.reads[i]!;
      const next = run.reads[i + 1];
      if (next && next.at - unknown.answeredAt <= window) {
        proof.push(next.id);
        continue;
      }
      // Silence is a stop only once the window has passed while the session went on.
      const end = ctx.now;
      if (end - unknown.answeredAt <= window) continue;
      offences.push({
        message: `run ${run.runId} read status ${JSON.stringify(readStatus(unknown))}, then ${next ? `not read again for ${seconds(next.at - unknown.answeredAt)}` : 'never read again'}: an unknown status is running`,
        expected: `the run read again at the polling pace (within ${seconds(window)})`,
        received: next ? `the next read ${seconds(next.at - unknown.answeredAt)} later` : 'no further read',
        requests: next ? [unknown.id, next.id] : [unknown.id],
      });
    }
    return settle(unknownStatusRule, ctx, { offences, exercised: proof.length > 0, passMessage: `${proof.length} run(s) read with an unknown status, still read as running`, proof });
  },
};
