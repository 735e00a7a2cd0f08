// Hand-built RunResults for the reporter tests: every status, pointers, Hebrew, `]]>`, XML-illegal
// control characters, a <script> in a body, a long body, a redacted secret, two (three) suites; and one
// of each verdict that is neither certified nor not-certified (incomplete, interrupted, passed-not-certified).

import {
  summarize,
  type CheckExchange,
  type CheckResult,
  type RecordedExchange,
  type RunResult,
} from '../src/runner/results.js';
import { resultWithVerdict } from '../src/runner/result-with-verdict.js';

/** What a real partner key would look like; it must never appear in any report. */
export const RAW_SECRET = 'spk_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
/** The recorder's redacted form of it, as it reaches reporters. */
export const REDACTED_SECRET = 'spk_live_…[redacted]';

const SCRIPT_BODY =
  '{"name":"<script>window.__pwned = 1; alert(1)</script>","note":"</pre><img src=x onerror=alert(2)>"}';
const HEBREW_BODY = '{"notices":[{"code":"job_too_vague","message":"תיאור המשרה כללי מדי; הוסיפו דרישות"}]}';
const CDATA_BODY = '{"weird":"ends ]]> here","also":"]]]]>"}';
// NUL, bell, escape (an ANSI sequence), vertical tab, form feed, a lone surrogate, U+FFFE and U+FFFF.
const CONTROL_BODY =
  '{"ctl":"a\u0000b\u0007c\u001b[31mRED\u001b[0m\u000bd\u000ce\ud800f\ufffeg\uffffh","ok":"tab\there"}';
export const LONG_BODY = `{"candidates":[${Array.from({ length: 400 }, (_, i) => `{"id":${9007199254740993n + BigInt(i)},"verdict":"match"}`).join(',')}]}`;

function exchange(
  index: number,
  partial: Partial<RecordedExchange> & {
    method: string;
    path: string;
    status?: number;
    responseBody?: string;
    requestBody?: string;
  },
): CheckExchange {
  const url = `https://partner.example.test/v1${partial.path}`;
  const result: CheckExchange = {
    index,
    label: partial.label,
    startedAt: `2025-01-02T03:04:0${index}.000Z`,
    durationMs: 12 + index,
    request: {
      method: partial.method,
      url,
      headers: {
        'content-type': 'application/json',
        'x-svc-partner-key': REDACTED_SECRET,
        'x-svc-org-token': 'sot_…[redacted]',
      },
      body: partial.requestBody,
    },
    curl: `curl -sS -X ${partial.method} '${url}' \\\n  -H "x-svc-partner-key: $SVC_PARTNER_KEY" \\\n  -H "x-svc-org-token: $SVC_ORG_TOKEN"${partial.requestBody ? ` \\\n  -H 'content-type: application/json' \\\n  --data-raw '${partial.requestBody}'` : ''}`,
  };
  if (partial.status !== undefined) {
    result.response = {
      status: partial.status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-svc-environment': 'sandbox' },
      body: partial.responseBody,
    };
  }
  if (partial.transportError) result.transportError = partial.transportError;
  return result;
}

function check(partial: Partial<CheckResult> & Pick<CheckResult, 'id' | 'title' | 'suite' | 'status'>): CheckResult {
  return { spec: [], message: '', durationMs: 10, observations: [], exchanges: [], ...partial };
}

export function makeRunResult(): RunResult {
  const checks: CheckResult[] = [
    check({
      id: 'auth.missing-partner-key-401',
      title: 'Missing partner key is refused with 401',
      suite: 'auth',
      spec: ['Authentication'],
      status: 'passed',
      durationMs: 12,
      startedMs: 150,
      exchanges: [
        exchange(0, {
          method: 'GET',
          path: '/runs/00000000-0000-0000-0000-000000000000',
          status: 401,
          responseBody: '{"error":{"code":"unauthorized"}}',
        }),
      ],
    }),
    check({
      id: 'auth.wrong-org-token-401',
      title: 'A wrong org token is refused with 401',
      suite: 'auth',
      spec: ['Authentication', 'Errors › Cross-cutting errors (any endpoint)'],
      status: 'failed',
      message: 'A request with an unknown org token was accepted; the spec requires 401 unauthorized.',
      durationMs: 48.6,
      startedMs: 180,
      observations: [
        {
          message: 'A request with an unknown org token was accepted; the spec requires 401 unauthorized.',
          spec: 'Authentication',
          expected: '401',
          received: '200',
          exchange: 0,
        },
        {
          message: 'The response body carries a candidate name with markup in it.',
          spec: 'Resources and their fields › Candidate',
          expected: 'an error envelope',
          received: SCRIPT_BODY,
          pointer: '/name',
          exchange: 1,
        },
      ],
      exchanges: [
        exchange(0, { method: 'GET', path: '/runs/r-1', status: 200, responseBody: SCRIPT_BODY, label: 'wrong token' }),
        exchange(1, {
          method: 'POST',
          path: '/runs',
          status: 202,
          requestBody: '{"job_external_id":"j-1"}',
          responseBody: CDATA_BODY,
        }),
      ],
    }),
    check({
      id: 'auth.disabled-partner-key-403',
      title: 'A disabled partner key is refused',
      suite: 'auth',
      spec: ['Authentication'],
      status: 'skipped',
      message: 'needs --disabled-partner-key (SVC_DISABLED_PARTNER_KEY)',
      skipKind: 'needs-input',
      unlock: '--disabled-partner-key',
      durationMs: 0,
    }),
    check({
      id: 'runs.read.hebrew-notices',
      title: 'Notices are in the requested language',
      suite: 'runs-read',
      spec: ['Resources and their fields › Notice'],
      status: 'failed',
      message: 'A notice message is not in the language asked for with x-svc-lang.',
      durationMs: 1234,
      startedMs: 1_400,
      observations: [
        {
          message: 'A notice message is not in the language asked for with x-svc-lang.',
          spec: 'Resources and their fields › Notice',
          expected: 'English text (x-svc-lang: en)',
          received: 'תיאור המשרה כללי מדי; הוסיפו דרישות',
          pointer: '/notices/0/message',
          exchange: 0,
        },
      ],
      exchanges: [
        exchange(0, { method: 'GET', path: '/runs/r-2', status: 200, responseBody: HEBREW_BODY }),
        exchange(1, { method: 'GET', path: '/runs/r-2?page=2', status: 200, responseBody: CONTROL_BODY }),
      ],
    }),
    check({
      id: 'runs.read.long-body',
      title: 'A large page of candidates is readable',
      suite: 'runs-read',
      spec: ['Endpoints › GET /runs/{run_id}'],
      status: 'passed',
      durationMs: 75_300,
      startedMs: 160,
      exchanges: [
        {
          ...exchange(0, { method: 'GET', path: '/runs/r-3', status: 200, responseBody: LONG_BODY }),
          response: {
            status: 200,
            headers: { 'content-type': 'application/json; charset=utf-8' },
            body: LONG_BODY,
            bodyTruncated: true,
            bodyBytes: 1_048_576,
          },
        },
      ],
    }),
    check({
      id: 'runs.read.unknown-run-404',
      title: 'An unknown run id is 404 not_found',
      suite: 'runs-read',
      spec: ['Errors › Errors by endpoint'],
      status: 'error',
      message: "TypeError: Cannot read properties of undefined (reading 'status')",
      durationMs: 3,
      startedMs: 3_000,
      error: {
        name: 'TypeError',
        message: "Cannot read properties of undefined (reading 'status')",
        stack:
          "TypeError: Cannot read properties of undefined (reading 'status')\n    at run (suites/runs-read.ts:42:17)",
      },
      exchanges: [
        exchange(0, {
          method: 'GET',
          path: '/runs/nope',
          transportError: { code: 'UND_ERR_SOCKET', message: 'other side closed' },
        }),
      ],
    }),
    check({
      id: 'webhooks.signature.valid',
      title: 'Webhooks carry a valid signature',
      suite: 'webhooks',
      spec: ['Events'],
      status: 'passed',
      message: 'Verified 3 deliveries.',
      durationMs: 2100,
      startedMs: 75_460,
    }),
  ];
  return {
    certification: 'run',
    title: 'Service API',
    tool: { name: 'svc-certify', version: '0.1.0' },
    spec: {
      title: 'Partner Candidate-Matching API (v1) Specification',
      sha256: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    },
    config: {
      baseUrl: 'https://partner.example.test/v1',
      partnerKey: REDACTED_SECRET,
      strict: false,
      rateLimit: 10,
      reporter: ['console', 'junit'],
    },
    target: { baseUrl: 'https://partner.example.test/v1', environment: 'sandbox', embedded: false },
    startedAt: '2025-01-02T03:04:00.000Z',
    finishedAt: '2025-01-02T03:05:23.456Z',
    durationMs: 83_456.7891,
    summary: { total: 7, passed: 3, failed: 2, skipped: 1, error: 1, warning: 0, expected: 0 },
    suites: ['auth', 'runs-read', 'webhooks'],
    checks,
    stats: { requests: 42, realRuns: 1, rateLimited: 0 },
    // Minutes of the spec at time scale 60: a second each; the first window went over the budget.
    timeline: {
      windowMs: 1_000,
      requests: [12, 9, 8, 8, 1, 0, ...Array.from({ length: 78 }, (_, i) => (i % 20 === 0 ? 1 : 0))],
      deliveries: [
        { event: 'run_completed', eventId: 'evt-1', attempt: 1, sentMs: 76_000, receivedMs: 76_040, status: 500 },
        { event: 'run_completed', eventId: 'evt-1', attempt: 2, sentMs: 76_000, receivedMs: 77_050, status: 200 },
      ],
    },
  };
}

/** A clean run: everything passed, one suite. */
export function makePassingRunResult(): RunResult {
  const base = makeRunResult();
  const checks = base.checks.filter((c) => c.status === 'passed');
  return {
    ...base,
    checks,
    summary: { total: checks.length, passed: checks.length, failed: 0, skipped: 0, error: 0, warning: 0, expected: 0 },
  };
}

export const WARNING_MESSAGE =
  'GET /runs/r-9 answered "3.0" for candidate_count (read as: a JSON integer, since a number with a fraction part is not one; the other reading: JSON has one number type, 3.0 equals 3)';

/** A clean run but for one warning: passes, unless strict. */
export function makeWarningRunResult(strict = false): RunResult {
  const base = makePassingRunResult();
  const warned: CheckResult = check({
    id: 'runs.read.counts-are-integers',
    title: 'Counts are JSON integers',
    suite: 'runs-read',
    spec: ['Resources and their fields › Run'],
    status: 'warning',
    message: WARNING_MESSAGE,
    durationMs: 20,
    observations: [
      {
        severity: 'warning',
        message: WARNING_MESSAGE,
        spec: 'Resources and their fields › Run',
        expected: 'integer',
        received: '3.0',
        pointer: '/candidate_count',
        exchange: 0,
      },
    ],
    exchanges: [
      exchange(0, { method: 'GET', path: '/runs/r-9', status: 200, responseBody: '{"candidate_count":3.0}' }),
    ],
  });
  const checks = [...base.checks.slice(0, 2), warned, ...base.checks.slice(2)];
  return {
    ...base,
    config: { ...base.config, strict },
    checks,
    summary: {
      total: checks.length,
      passed: checks.length - 1,
      failed: 0,
      skipped: 0,
      error: 0,
      warning: 1,
      expected: 0,
    },
  };
}

function skipped(
  partial: Pick<CheckResult, 'id' | 'title' | 'suite' | 'message' | 'skipKind'> & Partial<CheckResult>,
): CheckResult {
  return check({ status: 'skipped', durationMs: 0, ...partial });
}

/** The RunResult as the CLI writes it: verdict and what is missing decided once (resultWithVerdict, not strict). */
function settled(base: RunResult, checks: CheckResult[], extra: Partial<RunResult> = {}): RunResult {
  const suites = base.suites.filter((suite) => checks.some((c) => c.suite === suite));
  // As certify() writes them: by suite order, then id.
  const sorted = [...checks].sort(
    (a, b) => suites.indexOf(a.suite) - suites.indexOf(b.suite) || a.id.localeCompare(b.id),
  );
  const { verdict: _v, missing: _m, ...rest } = base;
  return resultWithVerdict(
    { ...rest, ...extra, suites, checks: sorted, summary: summarize(sorted) },
    { strict: false },
  );
}

const WEBHOOK_UNLOCK = '--webhook-secret (with --webhook-public-url)';
const WEBHOOK_REASON =
  'needs a webhook receiver: --webhook-secret or SVC_WEBHOOK_SECRET, with --webhook-public-url or SVC_WEBHOOK_PUBLIC_URL reaching --webhook-listen';

/**
 * Nothing failed, but inputs were missing: two webhook checks want a receiver and one check a disabled
 * partner key (needs-input, verdict `incomplete`, exit 3); a production-only check is not applicable
 * to the sandbox and costs nothing.
 */
export function makeIncompleteRunResult(): RunResult {
  const base = makePassingRunResult();
  const [authPassed, longBody, signature] = base.checks;
  const checks: CheckResult[] = [
    authPassed!,
    skipped({
      id: 'auth.disabled-partner-key-403',
      title: 'A disabled partner key is refused',
      suite: 'auth',
      spec: ['Authentication'],
      message: 'needs the key of a disabled partner: --disabled-partner-key or SVC_DISABLED_PARTNER_KEY',
      skipKind: 'needs-input',
      unlock: '--disabled-partner-key',
    }),
    longBody!,
    skipped({
      id: 'runs.read.production-wallet',
      title: 'A reveal is charged to the wallet',
      suite: 'runs-read',
      spec: ['Resources and their fields › Wallet'],
      message:
        'applies to production only; the target is the sandbox (x-svc-environment: sandbox, or --environment / SVC_ENVIRONMENT)',
      skipKind: 'not-applicable',
    }),
    skipped({
      id: 'webhooks.retried-after-failure',
      title: 'A failed delivery is retried',
      suite: 'webhooks',
      spec: ['Events'],
      message: WEBHOOK_REASON,
      skipKind: 'needs-input',
      unlock: WEBHOOK_UNLOCK,
    }),
    signature!,
    skipped({
      id: 'webhooks.redirect-not-followed',
      title: 'A 3xx answer is never followed',
      suite: 'webhooks',
      spec: ['Events'],
      message: WEBHOOK_REASON,
      skipKind: 'needs-input',
      unlock: WEBHOOK_UNLOCK,
    }),
  ];
  return settled(base, checks);
}

const INTERRUPTED_REASON = 'interrupted: the certification was stopped (SIGINT/SIGTERM) before this check ended';

/** SIGINT came while two checks ran: they end `interrupted` (never failed), the verdict too (exit 130). */
export function makeInterruptedRunResult(): RunResult {
  const base = makePassingRunResult();
  const [authPassed, longBody, signature] = base.checks;
  const checks: CheckResult[] = [
    authPassed!,
    { ...longBody!, status: 'skipped', skipKind: 'interrupted', message: INTERRUPTED_REASON, durationMs: 30_000 },
    { ...signature!, status: 'skipped', skipKind: 'interrupted', message: INTERRUPTED_REASON, durationMs: 1_500 },
  ];
  return settled(base, checks, { interrupted: { signal: 'SIGINT' } });
}

/** `--suite auth,webhooks`: every selected check passed; a selection, never a certification (exit 0). */
export function makeSelectionRunResult(): RunResult {
  const base = makePassingRunResult();
  const checks = base.checks.filter((c) => c.suite !== 'runs-read');
  return settled(base, checks, { selection: { suites: ['auth', 'webhooks'], deselected: 170 } });
}
