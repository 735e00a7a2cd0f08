// Run starts refused with 404 (unknown job, unknown user), and a refused start creates no run.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj } from '../support/json-values.js';
import { describeDelivery, eventOf, field, quietWait, runIdOf } from '../support/webhook-deliveries.js';
import { start, suite } from './starts.js';

/** How long no event may come for a job only refused starts name: twice the spec's usual delivery minute. */
const REFUSED_RUN_WATCH_SPEC_MS = 2 * 60_000;

export const REFUSED_START_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-start.job-not-found',
    title: 'A run start for a job never created is refused with 404 job_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const res = await start(t, t.setup.uniqueId('svc-certify-no-such-job'), [{ text: 'TypeScript', kind: 'nice' }]);
      t.expect.error(res, 404, 'job_not_found', S.byEndpoint);
    },
  },
  {
    id: 'runs-start.user-not-found',
    title: 'A run start by an acting user never registered is refused with 404 user_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.byEndpoint, S.authentication],
    needs: ['org'],
    async run(t) {
      const job = await t.setup.job();
      const res = await start(t, job.externalId, [{ text: 'TypeScript', kind: 'nice' }], {
        user: t.setup.uniqueId('svc-certify-nobody'),
      });
      t.expect.error(res, 404, 'user_not_found', S.byEndpoint);
    },
  },
  {
    id: 'runs-start.rejection-starts-nothing',
    title:
      'A refused run start (422 or 404) creates no run: no run_id that can be read, and (with a webhook receiver) no run event for its job',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.errors, S.runStatus, S.events],
    needs: ['org'],
    timeoutMs: REFUSED_RUN_WATCH_SPEC_MS + 60_000,
    async run(t) {
      const user = (await t.setup.user()).externalId;
      // A job of its own, which only refused starts name: any run event for it proves a run was created.
      const job = t.setup.uniqueId('svc-certify-refused-job');
      const created = await t.api.post(
        '/jobs',
        {
          external_id: job,
          title: 'Backend Developer',
          description_text: 'Build and run Node.js services with PostgreSQL for a hiring platform.',
          location_text: 'Tel Aviv, Israel',
        },
        { label: 'create a job that only refused starts name' },
      );
      if (!t.expect.status(created, '2xx', S.jobs)) return;
      const refused = [
        await start(
          t,
          job,
          [
            { text: 'TypeScript', kind: 'must' },
            { text: '   ', kind: 'nice' },
          ],
          { user, label: 'refused start (422: an empty requirement)' },
        ),
        await start(t, job, [{ text: 'TypeScript', kind: 'nice' }], {
          user: t.setup.uniqueId('svc-certify-nobody'),
          label: 'refused start (404: an unregistered user)',
        }),
      ];
      for (const res of refused) {
        if (!t.expect.status(res, [422, 404], S.runsStart)) return;
        // A refusal that names a run id: that run must not exist.
        const runId = obj(res.json)?.run_id;
        if (typeof runId !== 'string' || runId === '') continue;
        const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
          label: 'read the run id the refusal returned',
        });
        t.expect.that(
          read.status === 404,
          {
            message: `a refused start (${res.status}) returned run_id ${runId}, and reading it answered ${read.status}; a 422 or 404 creates nothing`,
            spec: S.runsStart,
            expected: '404 run_not_found',
            received: String(read.status),
          },
          read,
        );
      }
      // A run, once created, ends completed or failed and emits run_completed or run_failed (Run status),
      // also when its id was never handed out. The usual shape of this bug (the run stored before the
      // requirements are validated, then failed) shows within the delivery window; a run that goes on
      // searching for minutes would show later than this check watches.
      const rx = t.webhooks?.receiver;
      if (!rx) return;
      // A window that must stay empty: watched for as long as a delivery usually takes, twice over.
      const event = await rx.waitFor(
        (d) => field(d, 'job_external_id') === job,
        quietWait(t, REFUSED_RUN_WATCH_SPEC_MS),
        t.signal,
      );
      if (t.signal.aborted) return;
      t.expect.that(event === undefined, {
        message: `after two refused starts (${refused.map((r) => r.status).join(', ')}) of job ${job}, which no accepted start names, ${event ? describeDelivery(event) : ''} arrived for run ${event ? String(runIdOf(event)) : ''} of that job; a 422 or 404 creates nothing, so no run of it can end and emit an event`,
        spec: S.runsStart,
        expected: 'no event for the job',
        received: event ? `${String(eventOf(event))} for run ${String(runIdOf(event))}` : undefined,
      });
    },
  },
];
