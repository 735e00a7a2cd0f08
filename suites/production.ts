// Production: everything sandbox-only is absent (Versioning rule 4): the x-svc-environment header,
// the sandbox route, the sandbox request headers, the cert-* fixtures and the sandbox-only error codes.

import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { evidenceNote } from './support/environment-note.js';
import { int, obj, objects } from './support/json-values.js';
import { show } from './support/messages.js';
import { roleField } from './support/recruiters.js';
import { unknownOrgToken } from './support/unknown-credentials.js';
import { startUnknownFixture, UNKNOWN_FIXTURE } from './support/runs.js';

const suite = 'production';

function expectNoEnvironment(t: CheckContext, res: ApiResponse, what: string): boolean {
  return t.expect.header(
    res,
    'x-svc-environment',
    (v) => v === undefined,
    S.versioning,
    `no x-svc-environment header in production (here: ${what}, answered ${res.status}); production never carries it${evidenceNote(t)}`,
  );
}

function errorCode(res: ApiResponse): unknown {
  return obj(res.json)?.error;
}

/** The answer production gives when the sandbox-only part of a request (`sent`) is not there for it. */
function expectIgnored(t: CheckContext, res: ApiResponse, status: number, code: string, sent: string): boolean {
  const got = `${res.status}${typeof errorCode(res) === 'string' ? ` ${String(errorCode(res))}` : ''}`;
  return t.expect.that(
    res.status === status && errorCode(res) === code,
    {
      message: `${sent} answered ${got}; sandbox-only headers, fixtures and error codes do not exist in production, so the answer is ${status} ${code} as without them`,
      spec: S.versioning,
      expected: `${status} ${code}`,
      received: got,
    },
    res,
  );
}

export const PRODUCTION_CHECKS: CheckDefinition[] = [
  {
    id: 'production.no-environment-header',
    title: 'No production response carries x-svc-environment: a 2xx, a 401, a 404 and a 422',
    suite,
    evidence: 'provoked',
    spec: [S.versioning, S.sandbox],
    needs: ['production', 'org'],
    async run(t) {
      const user = await t.setup.user();
      const ok = await t.api.post(
        '/users',
        {
          external_id: user.externalId,
          email: `svc-certify-${randomUUID().slice(0, 8)}@example.com`,
          full_name: 'Dana Levi',
          ...roleField(user.role),
        },
        { label: '2xx: repeat the recruiter upsert' },
      );
      expectNoEnvironment(t, ok, 'a recruiter upsert');
      const unauthorized = await t.api.get(`/runs/${randomUUID()}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: unknownOrgToken() },
        label: '401: unknown org token',
      });
      expectNoEnvironment(t, unauthorized, 'an unknown org token');
      const notFound = await t.api.get(`/runs/${randomUUID()}`, { label: '404: a run that does not exist' });
      expectNoEnvironment(t, notFound, 'a run that does not exist');
      const job = await t.setup.job();
      const unprocessable = await t.setup.startRun(
        {
          job_external_id: job.externalId,
          acting_user_external_id: user.externalId,
          target_count: 1,
          requirements: 'not an array',
        },
        { label: '422: requirements that are not an array' },
      );
      expectNoEnvironment(t, unprocessable, 'a run start with requirements that are not an array');
    },
  },
  {
    id: 'production.sandbox-route-404',
    title: 'POST /sandbox/webhooks/test answers 404 not_found in production',
    suite,
    evidence: 'provoked',
    spec: [S.webhookTest, S.sandboxErrors, S.versioning],
    needs: ['production', 'org'],
    async run(t) {
      await t.setup.org();
      const res = await t.api.post(
        '/sandbox/webhooks/test',
        { event: 'run_completed' },
        { label: 'the sandbox route' },
      );
      t.expect.error(res, 404, 'not_found', S.webhookTest);
    },
  },
  {
    id: 'production.simulate-header-ignored',
    title: 'x-svc-sandbox-simulate is ignored in production: a read of an unknown run still answers 404 run_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.versioning, S.runsRead],
    needs: ['production', 'org'],
    async run(t) {
      await t.setup.org();
      // An unknown value too: in production it is no invalid header, just an unknown one.
      for (const value of ['internal_error', 'zz_not_a_simulation']) {
        const res = await t.api.get(`/runs/${randomUUID()}`, {
          headers: { 'x-svc-sandbox-simulate': value },
          label: `x-svc-sandbox-simulate: ${value}`,
        });
        expectIgnored(t, res, 404, 'run_not_found', `GET /runs/{unknown run id} with x-svc-sandbox-simulate: ${value}`);
      }
    },
  },
  {
    id: 'production.reveal-price-header-ignored',
    title: 'x-svc-sandbox-reveal-price is ignored in production: 7 changes no price, abc is no error',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.versioning, S.runsRead],
    needs: ['production', 'org'],
    timeoutMs: 2_400_000,
    async run(t) {
      const { run } = await t.setup.realRun();
      const path = `/runs/${run.runId}`;
      const plain = await t.api.get(path, { label: 'read without the header' });
      if (!t.expect.status(plain, 200, S.runsRead)) return;
      const seven = await t.api.get(path, {
        headers: { 'x-svc-sandbox-reveal-price': '7' },
        label: 'x-svc-sandbox-reveal-price: 7',
      });
      if (t.expect.status(seven, 200, S.versioning)) {
        const allSeven = (res: ApiResponse): boolean => {
          const cs = objects(obj(res.json)?.candidates);
          return cs.length > 0 && cs.every((c) => int(c.reveal_price_credits) === 7n);
        };
        // Prices are computed at request time: only "every price became 7" is the override's mark.
        t.expect.that(
          !allSeven(seven) || allSeven(plain),
          {
            message: `GET ${path} with x-svc-sandbox-reveal-price: 7 priced every candidate at 7, unlike the read before it; sandbox-only headers do not exist in production`,
            spec: S.versioning,
            received: objects(obj(seven.json)?.candidates).map((c) => c.reveal_price_credits ?? null),
          },
          seven,
        );
      }
      const abc = await t.api.get(path, {
        headers: { 'x-svc-sandbox-reveal-price': 'abc' },
        label: 'x-svc-sandbox-reveal-price: abc',
      });
      t.expect.status(abc, 200, S.versioning);
    },
  },
  {
    id: 'production.cert-prefix-not-fixture',
    title: 'A cert-* job_external_id is no fixture in production: the answer has no sandbox field',
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.versioning, S.runsStart],
    needs: ['production', 'org'],
    async run(t) {
      const user = await t.setup.user();
      const res = await t.setup.startRun(
        { job_external_id: 'cert-notices-all', acting_user_external_id: user.externalId, target_count: 1 },
        { label: 'start cert-notices-all' },
      );
      const body = obj(res.json);
      t.expect.that(
        res.status !== 0 && body?.sandbox === undefined,
        {
          message: `POST /runs with job_external_id cert-notices-all answered ${res.status}${body?.sandbox !== undefined ? ` with sandbox ${show(body.sandbox)}` : ''}; the cert- prefix is reserved in the sandbox only, so production gives no fixture answer (see ${S.sandbox})`,
          spec: S.versioning,
          received: body?.sandbox ?? null,
        },
        res,
      );
    },
  },
  {
    id: 'production.sandbox-only-errors-absent',
    title: 'No sandbox-only error in production: an unknown cert-* job and target_count 21 both give 404 job_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.sandboxErrors, S.versioning, S.runsStart, S.limits],
    needs: ['production', 'org'],
    async run(t) {
      const user = await t.setup.user();
      const cert = await startUnknownFixture(t, 'an unknown cert-* job');
      expectIgnored(t, cert, 404, 'job_not_found', `POST /runs with the unknown cert-* job ${UNKNOWN_FIXTURE}`);
      const wide = await t.setup.startRun(
        {
          job_external_id: t.setup.uniqueId('svc-certify-missing-job'),
          acting_user_external_id: user.externalId,
          target_count: 21,
        },
        { label: 'target_count 21 for a job that does not exist' },
      );
      // target_count goes up to 100 in production: only the job is missing.
      expectIgnored(t, wide, 404, 'job_not_found', 'POST /runs with target_count 21 for a job that does not exist');
    },
  },
];
