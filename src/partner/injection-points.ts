// The documented injection points: a leaf module (no imports) so that `--help` can list them without
// loading the judge.

export interface InjectionPoint {
  id:
    | 'run-start-500'
    | 'rate-limited-429'
    | 'run-read-503'
    | 'redeem-answer-lost'
    | 'run-held-running'
    | 'decisions-503'
    | 'decisions-answer-lost'
    | 'run-status-unknown'
    | 'job-503-unknown-code'
    | 'reveal-402'
    | 'org-token-revoked'
    | 'event-delivered-twice';
  /** Where it fires and what the partner sees: printed by --help and docs/reference/checks.md. */
  summary: string;
  /** The rule whose situation it arranges: the timeline of report.html names it beside the injection. */
  arms: string;
}

export const INJECTION_POINTS: readonly InjectionPoint[] = [
  {
    id: 'run-start-500',
    arms: 'retries.run-start-not-retried-after-5xx',
    summary:
      'the first start of the fixture cert-failed (POST /runs) answers 500 internal_error and starts nothing: a start whose loss costs no step of the checklist (show the error; a recruiter may start it again by hand)',
  },
  {
    id: 'rate-limited-429',
    arms: 'retries.retry-after-honoured',
    summary:
      "the first POST /users answers 429 rate_limited with Retry-After: the spec's 30 s ÷ time scale, rounded up (nothing stored)",
  },
  {
    id: 'run-read-503',
    arms: 'retries.backoff-from-1s',
    summary:
      'the first repeat read of a run (GET /runs/{run_id} of a run read before) answers 503 rate_limit_unavailable',
  },
  {
    id: 'redeem-answer-lost',
    arms: 'retries.redeem-not-retried-after-lost-answer',
    summary:
      'the first successful redeem (POST /activations/redeem) is carried out, but its connection is cut before the answer',
  },
  {
    id: 'run-held-running',
    arms: 'polling.stops-after-30-min-running',
    summary:
      'the first real run the sandbox accepts, once the client reads it before it ends (a recruiter watching it), reads `running` until it has run 35 minutes (spec time), so that the 30-minute polling limit can be watched; its run_completed or run_failed webhook is held back as long; a run nobody read by its end (a client following it by webhook) is let go after 5 minutes (spec time, 5 s real at least)',
  },
  {
    id: 'decisions-503',
    arms: 'decisions.retry-keeps-occurred-at',
    summary:
      'the first POST /runs/{run_id}/decisions carrying a decision answers 503 rate_limit_unavailable and stores nothing',
  },
  {
    id: 'decisions-answer-lost',
    arms: 'decisions.failed-call-resent',
    summary:
      'the first POST /runs/{run_id}/decisions carrying a decision for another run is stored, but its connection is cut before the answer',
  },
  {
    id: 'run-status-unknown',
    arms: 'unknown-values.unknown-run-status-read-as-running',
    summary:
      'the first poll of a running run (a read of a run read running before), or the first read of a run within 5 s (spec time) of a webhook delivery for it, whichever comes first (not the held run), answers status zz_certification_status, a value the client cannot know (treat it as running: read it again)',
  },
  {
    id: 'job-503-unknown-code',
    arms: 'unknown-values.error-code-handled-by-status',
    summary:
      'the first POST /jobs is stored, but answers 503 with the error code zz_new_error, a code the client cannot know (handle it by its status)',
  },
  {
    id: 'reveal-402',
    arms: 'retries.none-after-402-insufficient-credits',
    summary:
      'the first reveal answers 402 insufficient_credits and reveals nothing: injected on purpose, since the sandbox itself never answers 402 (production does when the organization lacks credits; tell the user, do not retry)',
  },
  {
    id: 'org-token-revoked',
    arms: 'org-token.not-used-after-invalid-org-token',
    summary:
      'a customer organization is revoked, as the operator would revoke it: a second one connected in the session after its first accepted call, or else the one customer once every other duty of the session is judged, at its next call; every later call with its org token answers 401 invalid_org_token (renew the connection with another provisioned activation code; the other organizations are untouched)',
  },
  {
    id: 'event-delivered-twice',
    arms: 'webhooks.repeated-event-id-not-acted-on-again',
    summary:
      'the run_completed of the first cert-webhook run, once acknowledged with 2xx, is delivered again a minute (spec time, 2 s real at least) later with the same event_id and bytes, as at-least-once delivery allows (acknowledge it; do not act on it again)',
  },
];
