// Faults for conventions and authentication rules that no earlier fault broke on its own: each is one
// rule of the spec gone wrong, so the check asserting that rule is proven able to fail.
import type { FaultDefinition } from './types.js';

export const coverageFaults: FaultDefinition[] = [
  {
    id: 'conventions.error-without-charset',
    area: 'conventions',
    summary: 'error responses (4xx/5xx) say `application/json` without `charset=utf-8`; successes keep it',
    caughtBy: 'conventions.error-envelope-json-utf8',
  },
  {
    id: 'conventions.message-language-swapped',
    area: 'conventions',
    summary: 'error `message` comes in the other language than the request\'s: English for he, Hebrew for en',
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
    summary: 'without x-svc-lang, error messages are empty strings instead of a sentence in the partner default language',
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
];
