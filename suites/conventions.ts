// Conventions every response follows: JSON in UTF-8 with the stated content type, the error
// envelope, and messages in the request language (Hebrew by default).

import { randomUUID } from 'node:crypto';
import type { ApiResponse } from '../src/http/types.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { S } from '../src/spec/sections.js';
import { expectErrorEnvelope } from './support/error-answers.js';
import { obj } from './support/json-values.js';
import { isEnglish, isHebrew } from './support/language.js';
import { isJsonUtf8 } from './support/media-type.js';
import { show } from './support/messages.js';
import { roleField } from './support/recruiters.js';

const suite = 'conventions';

function expectJsonUtf8(t: CheckContext, res: ApiResponse, what: string): void {
  const ct = res.headers['content-type'];
  t.expect.that(
    isJsonUtf8(ct),
    {
      message: `${what} has content type ${ct === undefined ? '(absent)' : show(ct)}; the spec requires application/json; charset=utf-8`,
      spec: S.general,
      expected: 'application/json; charset=utf-8',
      received: ct ?? '(absent)',
    },
    res,
  );
}

/** An error any server gives without side effects: a read with no org token. */
function errorRequest(t: CheckContext, lang?: 'he' | 'en'): Promise<ApiResponse> {
  return t.api.get(`/runs/${randomUUID()}`, { auth: 'partner', ...(lang ? { lang } : {}) });
}

function messageOf(res: ApiResponse): string | undefined {
  const m = obj(res.json)?.message;
  return typeof m === 'string' ? m : undefined;
}

/** An error answer and its `message`; undefined, recorded as a failure, when it has no string message. */
async function errorMessage(
  t: CheckContext,
  lang?: 'he' | 'en',
): Promise<{ res: ApiResponse; message: string | undefined }> {
  const res = await errorRequest(t, lang);
  const message = messageOf(res);
  t.expect.that(
    message !== undefined,
    { message: `the ${res.status} error has no string message`, spec: S.errors },
    res,
  );
  return { res, message };
}

export const CONVENTIONS_CHECKS: CheckDefinition[] = [
  {
    id: 'conventions.error-envelope-json-utf8',
    title: 'Error responses carry the JSON envelope (string error and message) as application/json; charset=utf-8',
    suite,
    evidence: 'provoked',
    spec: [S.errors, S.general],
    async run(t) {
      const res = await errorRequest(t);
      if (!t.expect.status(res, '4xx', S.crossCutting)) return;
      expectJsonUtf8(t, res, 'the 4xx error response');
      expectErrorEnvelope(t, res, 'a read of an unknown run');
    },
  },
  {
    id: 'conventions.success-json-utf8',
    title: 'Successful responses of every endpoint are JSON with content type application/json; charset=utf-8',
    suite,
    evidence: 'provoked',
    spec: [S.general, S.users],
    needs: ['org'],
    async run(t) {
      const org = await t.setup.org();
      const { role, externalId: user } = await t.setup.user();
      const judge = (res: ApiResponse | undefined, what: string): void => {
        if (res === undefined || res.status < 200 || res.status > 299) return; // a refusal is other checks' concern
        expectJsonUtf8(t, res, `the ${res.status} response of ${what}`);
        t.expect.that(
          res.json !== undefined,
          {
            message: `the ${res.status} response of ${what} is not valid JSON (${res.jsonError ?? 'no body'})`,
            spec: S.general,
          },
          res,
        );
      };
      // Answers shared setup already has (the redeem, the job) cost nothing; one request per other endpoint.
      judge(org.redemption, 'POST /activations/redeem');
      const users = await t.api.post('/users', {
        external_id: t.setup.uniqueId('svc-certify-recruiter'),
        email: 'conventions@example.com',
        full_name: 'Noa Cohen',
        ...roleField(role),
      });
      if (!t.expect.status(users, '2xx', S.users)) return;
      judge(users, 'POST /users');
      judge((await t.setup.job()).response, 'POST /jobs');
      // A free fixture run in the sandbox; in production the shared real run (no new run is started).
      const run =
        t.target.environment === 'sandbox'
          ? await t.setup.fixtureRun('cert-notices-all')
          : (await t.setup.realRun()).run;
      judge(run.start, 'POST /runs');
      const read = await t.api.get(`/runs/${encodeURIComponent(run.runId)}`, { label: 'read a run' });
      judge(read, 'GET /runs/{run_id}');
      const first = obj(read.json)?.candidates;
      const candidate = Array.isArray(first) ? obj(first[0])?.id : undefined;
      // A reveal spends credits in production: only the sandbox's free one is judged here.
      if (t.target.environment === 'sandbox' && candidate !== undefined) {
        const reveal = await t.api.post(
          `/runs/${encodeURIComponent(run.runId)}/candidates/${String(candidate)}/reveal`,
          { acting_user_external_id: user },
          { label: 'reveal a candidate' },
        );
        judge(reveal, 'POST /runs/{run_id}/candidates/{candidate_id}/reveal');
      }
      // An empty batch "may be empty": it stores nothing.
      const decisions = await t.api.post(
        `/runs/${encodeURIComponent(run.runId)}/decisions`,
        { acting_user_external_id: user, decisions: [], notices_shown: [] },
        { label: 'an empty decisions batch' },
      );
      judge(decisions, 'POST /runs/{run_id}/decisions');
    },
  },
  {
    id: 'conventions.response-bodies-utf8',
    title: 'Response bodies are valid UTF-8: no invalid byte inside a string, even where Hebrew text is carried',
    suite,
    evidence: 'provoked',
    spec: [S.general],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      // Hebrew notices and candidate texts: the multi-byte text most likely to be cut or mis-encoded.
      const run =
        t.target.environment === 'sandbox'
          ? await t.setup.fixtureRun('cert-notices-all')
          : (await t.setup.realRun()).run;
      const read = await t.api.get(`/runs/${encodeURIComponent(run.runId)}`, {
        lang: 'he',
        label: 'read a run in Hebrew',
      });
      for (const [res, what] of [
        [run.start, 'POST /runs'],
        [read, 'GET /runs/{run_id} (x-svc-lang: he)'],
      ] as const) {
        if (res.status === 0) continue;
        const at = res.invalidUtf8At;
        t.expect.that(
          at === undefined,
          {
            message: `the ${res.status} response of ${what} holds bytes that are not UTF-8 at byte offset ${at} (${res.text.length > 0 ? 'decoded as U+FFFD' : 'no text'}); the request and response body format is JSON (UTF-8)`,
            spec: S.general,
            expected: 'valid UTF-8',
            received: `invalid byte at offset ${at}`,
          },
          res,
        );
      }
    },
  },
  {
    id: 'conventions.message-hebrew-by-default',
    title: 'Without x-svc-lang, an error message is in Hebrew (the default language)',
    suite,
    evidence: 'provoked',
    warns: ['without x-svc-lang the message is in English (an English default may be agreed with the partner)'],
    spec: [S.commonHeaders, S.errors],
    async run(t) {
      const { res, message } = await errorMessage(t);
      if (message === undefined) return;
      // The default is "the partner default (he unless agreed otherwise)": an English default may be
      // an agreement the certifier cannot see, so it warns with both readings, never fails; a message in
      // neither language is a failure whatever was agreed.
      if (isEnglish(message)) {
        t.expect.warn(
          false,
          {
            message: `without x-svc-lang the error message is in English (${show(message.slice(0, 80))}); the default is he unless the partner agreed otherwise`,
            spec: S.commonHeaders,
            reading: 'English is the default agreed with this partner, which cannot be seen from outside',
            otherReading: 'no other default was agreed, and then Hebrew is required',
          },
          res,
        );
        return;
      }
      t.expect.that(
        isHebrew(message),
        {
          message: `without x-svc-lang the error message is in neither Hebrew nor English; it must be a sentence in the partner default language, he unless agreed otherwise`,
          spec: S.commonHeaders,
          expected: 'a message in Hebrew script (or English if that default was agreed)',
          received: message,
        },
        res,
      );
    },
  },
  {
    id: 'conventions.message-hebrew-for-lang-he',
    title: 'With x-svc-lang: he, an error message is in Hebrew',
    suite,
    evidence: 'provoked',
    spec: [S.commonHeaders, S.errors],
    async run(t) {
      const { res, message } = await errorMessage(t, 'he');
      if (message === undefined) return;
      t.expect.that(
        isHebrew(message),
        {
          message: `with x-svc-lang: he the error message is not in Hebrew`,
          spec: S.commonHeaders,
          expected: 'a message in Hebrew script',
          received: message,
        },
        res,
      );
    },
  },
  {
    id: 'conventions.message-english-for-lang-en',
    title: 'With x-svc-lang: en, an error message is in English',
    suite,
    evidence: 'provoked',
    spec: [S.commonHeaders, S.errors],
    async run(t) {
      const { res, message } = await errorMessage(t, 'en');
      if (message === undefined) return;
      t.expect.that(
        isEnglish(message),
        {
          message: `with x-svc-lang: en the error message is not in English`,
          spec: S.commonHeaders,
          expected: 'a message in English (Latin script, no Hebrew)',
          received: message,
        },
        res,
      );
    },
  },
  {
    id: 'conventions.unrouted-error-envelope',
    title: 'An unknown path and a wrong method under /v1 are answered non-2xx with the JSON error envelope',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      'the target answered the unknown path and the wrong method with a success, which the spec allows: no error envelope to judge',
    spec: [S.errors, S.general],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      // Full credentials, so the answer is about the route itself and not an authentication refusal.
      // Which status (404, 405, …) and which error code: not fixed by the spec, so only the envelope is asserted.
      const probes = [
        {
          what: 'GET of a path v1 does not have',
          res: await t.api.get('/zz-svc-certify-no-such-route', { label: 'unknown path' }),
        },
        {
          what: 'DELETE of /runs/{run_id}, a method v1 does not define there',
          res: await t.api.request({ method: 'DELETE', path: `/runs/${randomUUID()}`, label: 'wrong method' }),
        },
      ];
      const succeeded = probes.filter(({ res }) => res.status >= 200 && res.status < 300);
      if (succeeded.length === probes.length) {
        t.skip(
          `${succeeded.map(({ what, res }) => `a ${what} answered ${res.status}`).join('; ')}: the spec gives these no answer, so a success is no violation and no envelope can be observed`,
          'not-applicable',
        );
        return;
      }
      for (const { what, res } of probes) {
        if (res.status >= 200 && res.status < 300) continue;
        expectErrorEnvelope(t, res, `a ${what}`);
        expectJsonUtf8(t, res, `the ${res.status} answer to a ${what}`);
      }
    },
  },
  {
    id: 'conventions.malformed-json-answered-4xx',
    title: 'A malformed JSON body is answered with a 4xx carrying the error envelope',
    suite,
    evidence: 'provoked',
    spec: [S.errors],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      const res = await t.api.request({
        method: 'POST',
        path: '/users',
        rawBody: '{"external_id": "svc-certify-broken", "email": ',
        headers: { 'content-type': 'application/json' },
      });
      if (!t.expect.status(res, '4xx', S.errors)) return;
      expectErrorEnvelope(t, res, 'a POST /users with a malformed JSON body');
    },
  },
];
