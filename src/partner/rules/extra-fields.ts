// Versioning 2: "Clients ignore unknown fields". The cert-extra-fields fixture carries unknown fields
// everywhere (the run start, the read, every notice, candidate and requirement, the reveal and decisions
// answers): a client that ignores them completes its flow on that run as on any other fixture run, it
// reads the run and reports what the recruiter did and saw. Judged against the client's own flow on its
// other fixture runs, so a client is never asked for more on this run than it does elsewhere.

import { S } from '../../spec/sections.js';
import type { PartnerRequest, Traffic } from '../traffic.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';
import { isTerminal, readStatus, runFacts, type RunFacts } from './runs.js';

const EXTRA = 'cert-extra-fields';

const acceptedReport = (traffic: Traffic, runId: string): PartnerRequest | undefined =>
  traffic.requests.find(
    (r) => r.endpoint === 'decisions' && r.runId === runId && !r.lost && r.status >= 200 && r.status < 300,
  );

/** The run was read to the end (a successful read returned completed or failed). */
const readToEnd = (run: RunFacts): PartnerRequest | undefined => run.reads.find((r) => isTerminal(readStatus(r)));

export const extraFieldsFlowRule: Rule = {
  id: 'unknown-values.extra-fields-flow-completed',
  title: 'On cert-extra-fields the client completes its flow as on any other fixture (unknown fields ignored)',
  suite: 'unknown-values',
  evidence: 'conditional',
  notApplicableWhen: 'the client never started a cert-extra-fields run: nothing to judge',
  spec: [S.versioning, S.run],
  hint: 'the client never started a cert-extra-fields run: nothing to judge (start one, show it and report decisions and notices as for any fixture)',
  judge(traffic, ctx) {
    const runs = [...runFacts(traffic).values()];
    const extra = runs.filter((r) => r.fixture === EXTRA);
    // The client's own flow elsewhere: a fixture run read to the end and reported.
    const yardstick = runs.find(
      (r) => r.fixture !== undefined && r.fixture !== EXTRA && readToEnd(r) && acceptedReport(traffic, r.runId),
    );
    const offences: TrafficObservation[] = [];
    const proof: number[] = [];
    for (const run of extra) {
      const read = readToEnd(run);
      const report = acceptedReport(traffic, run.runId);
      if (read && report) {
        proof.push(report.id);
        continue;
      }
      if (!ctx.final || !yardstick) continue;
      const start = traffic.requests.find(
        (r) =>
          r.endpoint === 'runs-start' && (r.responseJson as { run_id?: unknown } | undefined)?.run_id === run.runId,
      );
      const missing = read ? 'no decisions call for it was accepted' : 'it was never read to the end';
      offences.push({
        message: `the ${EXTRA} run ${run.runId} was started but ${missing}, while the ${yardstick.fixture} run ${yardstick.runId} was read and reported: the unknown fields stopped the client`,
        expected: `the ${EXTRA} run read and reported like any other fixture run (unknown fields ignored)`,
        received: missing,
        requests: [...(start ? [start.id] : []), ...run.reads.map((r) => r.id)].slice(0, 5),
      });
    }
    return ruleVerdict(extraFieldsFlowRule, ctx, {
      offences,
      exercised: proof.length > 0,
      passMessage: `${proof.length} ${EXTRA} run(s) read and reported like any other fixture run`,
      proof,
    });
  },
};
