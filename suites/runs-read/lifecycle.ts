// A real run's life: every read is a Run, its status goes from running to completed or failed, and it
// ends within the 30 minutes clients poll.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { REAL_RUN_BUDGET_MS } from '../support/runs.js';
import { eachRead, readAgain, realRun, realRunCheck, suite, TERMINAL, where } from './real-runs.js';

export const LIFECYCLE_CHECKS: CheckDefinition[] = [
  realRunCheck(
    {
      id: 'runs-read.run-schema',
      title: 'Every read of a real run is a Run: run_id, status, progress, notices and candidates of the right types',
      spec: [S.runsRead, S.run, S.notice, S.candidate, S.candidateRequirement],
    },
    async (t, v) => {
      eachRead(v.reads, (r) => {
        const ok = t.expect.schema(r.run, 'run', S.run, r.res);
        return t.expect.equal(r.run.run_id, v.runId, `run_id of ${where(r)}`, S.run, r.res) && ok;
      });
    },
  ),
  {
    id: 'runs-read.status-transitions',
    title: 'A real run goes from running to completed or failed, and a terminal status stays on later reads',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      'the shared real run was still running when polling stopped (a run may outlast the 30 minutes of polling): no terminal status to judge',
    spec: [S.runStatus, S.run],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      let terminal: string | undefined;
      for (const r of v.reads) {
        const status = r.run.status;
        if (terminal !== undefined) {
          if (
            !t.expect.equal(status, terminal, `status of ${where(r)} after the run was ${terminal}`, S.runStatus, r.res)
          )
            return;
        } else if (typeof status === 'string' && TERMINAL.has(status)) {
          terminal = status;
        }
      }
      if (terminal === undefined) {
        // How long a run works is the service's own choice (no duration is set; clients stop polling
        // after 30 minutes): a run still running then leaves no transition to judge.
        t.skip(
          'the shared real run was still running when polling stopped (30 minutes, where clients stop polling; the spec sets no duration for a run), so no terminal status was seen',
          'not-applicable',
        );
        return;
      }
      const later = await readAgain(t, v.runId, 'read the finished run again');
      if (later)
        t.expect.equal(
          later.run.status,
          terminal,
          `status of a read after the run was ${terminal}`,
          S.runStatus,
          later.res,
        );
    },
  },
  {
    id: 'runs-read.real-run-ends-within-30-minutes',
    title:
      'The real run reaches completed or failed within the 30 minutes of running after which clients stop polling (longer warns); a run that emitted its terminal event never reads running again',
    suite,
    evidence: 'provoked',
    warns: [
      'a read shows a status other than running, completed or failed (treated as running)',
      'the real run still reads running after the 30 minutes of polling',
    ],
    spec: [S.runStatus, S.runsRead, S.run, S.limits],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      // A status outside the three is read as running by clients (Versioning 3), yet status values are
      // not among the additive changes Versioning lists: a warning, not a failure.
      const odd = v.reads.find(
        (r) => typeof r.run.status === 'string' && !['running', 'completed', 'failed'].includes(r.run.status),
      );
      if (odd) {
        t.expect.warn(
          false,
          {
            message: `${where(odd)} of the real run has status ${show(odd.run.status)}; the Run status is running, completed or failed, and any other value is treated as running`,
            spec: S.run,
            reading:
              'a status outside running/completed/failed is a new status, which Versioning does not list among the additive changes of v1',
            otherReading: 'Resources › Run says any other value is treated as running, so a client stays correct',
          },
          odd.res,
        );
      }
      if (t.signal.aborted) return;
      const last = v.reads[v.reads.length - 1];
      const status = last?.run.status;
      if (typeof status === 'string' && TERMINAL.has(status)) {
        t.expect.that(true, { message: `the real run ${v.runId} read ${status}`, spec: S.runStatus }, last?.res);
        return;
      }
      // The spec puts no limit on a run ("keeps working for several minutes"); 30 minutes is when
      // clients stop polling. Only the service's own word that the run ended can make "running" wrong:
      // a run_completed / run_failed it delivered for this run ("emitted" when the run reaches that
      // state; completed and failed are terminal) followed by a read that still says running.
      const rx = t.webhooks?.receiver;
      const ended = rx?.deliveries().find((d) => {
        const body = obj(d.json);
        return body?.run_id === v.runId && (body.event === 'run_completed' || body.event === 'run_failed');
      });
      if (ended) {
        const event = String(obj(ended.json)?.event);
        const again = await readAgain(t, v.runId, `read the run again after its ${event} delivery`);
        if (!again) return;
        const now = again.run.status;
        t.expect.that(
          typeof now === 'string' && TERMINAL.has(now),
          {
            message: `the service delivered ${event} for the real run ${v.runId} (delivery #${ended.seq}), so the run reached ${event === 'run_completed' ? 'completed' : 'failed'}, yet a read sent after that delivery still says ${show(now ?? null)}; ${event} is emitted when the run reaches that state, and completed and failed are terminal`,
            spec: S.runStatus,
            expected: event === 'run_completed' ? 'completed' : 'failed',
            received: show(now ?? null),
            pointer: '/status',
          },
          again.res,
        );
        return;
      }
      t.expect.warn(
        false,
        {
          message: `the real run ${v.runId} still read ${show(status ?? null)} after 30 minutes of polling (spec time, ${v.reads.length} reads), so the certifier stopped waiting for it (clients stop polling after 30 minutes of running, see ${S.runsRead})`,
          spec: S.limits,
          expected: 'completed or failed within 30 minutes',
          received: show(status ?? null),
          reading: 'a run that clients stop polling after 30 minutes should have ended by then',
          otherReading:
            'the spec puts no limit on a run: a cold run "keeps working for several minutes", and 30 minutes of running is client polling guidance ("stop after 30 minutes of running"), not a duration the run must keep to',
        },
        last?.res,
      );
    },
  },
];
