// Faults for conventions and authentication rules that no earlier fault broke on its own: each is one
// rule of the spec gone wrong, so the check asserting that rule is proven able to fail.
import type { FaultDefinition } from './types.js';

export const coverageFaults = [
  {
    id: 'conventions.invalid-utf8-in-run-read',
    area: 'conventions',
    summary:
      'a run read carries a stray 0xFF byte inside the first candidate name (invalid UTF-8, still parseable once decoded)',
    caughtBy: 'conventions.response-bodies-utf8',
  },
  {
    id: 'conventions.decisions-success-without-charset',
    area: 'conventions',
    summary: 'the success of POST /runs/{run_id}/decisions alone says `application/json` without `charset=utf-8`',
    caughtBy: 'conventions.success-json-utf8',
  },
  {
    id: 'conventions.error-without-charset',
    area: 'conventions',
    summary: 'error responses (4xx/5xx) say `application/json` without `charset=utf-8`; successes keep it',
    caughtBy: 'conventions.error-envelope-json-utf8',
  },
  {
    id: 'conventions.message-language-swapped',
    area: 'conventions',
    summary: "error `message` comes in the other language than the request's: English for he, Hebrew for en",
    caughtBy: 'conventions.message-english-for-lang-en',
    alsoCaughtBy: ['conventions.message-hebrew-for-lang-he'],
  },
  {
    id: 'auth.missing-partner-key-403',
    area: 'auth',
    summary: 'a request without x-partner-key answers 403 instead of 401 `invalid_partner_key`',
    caughtBy: 'auth.missing-partner-key-refused-401',
  },
  {
    id: 'auth.unknown-org-token-wrong-code',
    area: 'auth',
    summary: 'an org token the service never issued answers 401 `invalid_partner_key` instead of `invalid_org_token`',
    caughtBy: 'auth.unknown-org-token-refused-401',
  },
  {
    id: 'auth.redeem-demands-org-token',
    area: 'auth',
    summary: 'redeem without x-svc-org answers 401 `invalid_org_token`, though the partner key alone authenticates it',
    caughtBy: 'auth.redeem-needs-no-org-token',
  },
  {
    id: 'conventions.default-message-empty',
    area: 'conventions',
    summary:
      'without x-svc-lang, error messages are empty strings instead of a sentence in the partner default language',
    caughtBy: 'conventions.message-hebrew-by-default',
  },
  {
    id: 'auth.jobs-unknown-key-403',
    area: 'auth',
    summary: 'POST /jobs alone answers an unknown partner key with 403 instead of 401',
    caughtBy: 'auth.unknown-partner-key-refused-401',
  },
  {
    id: 'auth.decisions-missing-org-token-403',
    area: 'auth',
    summary: 'POST /runs/{run_id}/decisions alone answers a missing org token with 403 instead of 401',
    caughtBy: 'auth.missing-org-token-refused-401',
  },
  {
    id: 'conventions.unrouted-without-envelope',
    area: 'conventions',
    summary:
      'an unknown path or a wrong method answers its 404/405 with `{"detail": "Not Found"}` instead of the error envelope',
    caughtBy: 'conventions.unrouted-error-envelope',
  },
  {
    id: 'sandbox.accepted-without-environment-header',
    area: 'sandbox',
    summary: '`202` answers (run start, test webhook) lack `x-svc-environment: sandbox`; every other answer keeps it',
    caughtBy: 'sandbox.environment-header-on-post-successes',
    alsoCaughtBy: ['webhooks.test-endpoint-accepted'],
  },
  {
    id: 'fixtures.candidate-requirements-musts-only',
    area: 'fixtures',
    summary:
      "fixture candidates list only the `must` entries of the fixture's requirement list, not one per run requirement",
    caughtBy: 'fixtures.candidate-requirements-match-start',
  },
  {
    id: 'fixtures.submitted-requirements-used',
    area: 'fixtures',
    summary:
      "a fixture run start with valid submitted requirements returns them in its `202` instead of the fixture's fixed list",
    caughtBy: 'fixtures.submitted-requirements-not-used',
  },
  {
    id: 'fixtures.unknown-fixture-as-job-not-found',
    area: 'fixtures',
    summary: 'an unknown `cert-*` job answers `404 job_not_found` instead of `422 unknown_fixture` with `fixtures`',
    caughtBy: 'fixtures.unknown-fixture-422',
  },
  {
    // A read without the name is the conformant variant fixtures.name-on-start-only (a warning): the
    // spec's "Fixture responses carry…" reads two ways. A read naming another fixture is wrong either way.
    id: 'fixtures.read-names-other-fixture',
    area: 'fixtures',
    summary: 'a fixture run read names another fixture in `sandbox.fixture`',
    caughtBy: 'fixtures.cert-notices-all.read-matches-table',
    alsoCaughtBy: ['fixtures.cert-notices-all.read-matches-table-en'],
  },
] as const satisfies readonly FaultDefinition[];
