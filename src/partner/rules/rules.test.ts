// Each rule on synthetic traffic: the offence it exists for fails it (an advisory rule's warns), and the
// conformant alternatives the spec allows pass (a literal Retry-After, a start-to-start 5 s poller, a refresh after a reveal, …).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeContext } from '../../../test/support/judge-context.js';
import { packageRoot } from '../../package-root.js';
import { INJECTION_POINTS } from '../injection-points.js';
import { loadSpec } from '../../spec/spec-file.js';
import type { JudgeContext, PartnerRequest, Traffic, WebhookDelivery } from '../traffic.js';
import { partnerRules, type Rule, type RuleVerdict } from './index.js';
import { ruleVerdict } from './rule.js';

const KEY = `spk_live_${'a'.repeat(48)}`;
const TOKEN = `sot_${'b'.repeat(48)}`;
const RUN = '11111111-1111-4111-8111-111111111111';
const rules = partnerRules(() => [KEY]);
const rule = (id: string): Rule => rules.find((r) => r.id === id)!;

let nextId = 1;
function req(at: number, over: Partial<PartnerRequest> & { endpoint: PartnerRequest['endpoint'] }): PartnerRequest {
  const body = over.json !== undefined ? JSON.stringify(over.json) : '';
  return {
    id: nextId++,
    at,
    answeredAt: at + 1,
    method: over.endpoint === 'runs-read' ? 'GET' : 'POST',
    path: over.endpoint === 'runs-read' ? `/v1/runs/${RUN}` : '/v1/x',
    query: '',
    headers: { 'x-partner-key': KEY, 'x-svc-org': TOKEN, 'content-type': 'application/json' },
    bodyText: body,
    status: 200,
    lost: false,
    responseHeaders: {},
    responseText: '',
    ...over,
  };
}
const read = (at: number, status: string | number, over: Partial<PartnerRequest> = {}) =>
  typeof status === 'number'
    ? req(at, { endpoint: 'runs-read', runId: RUN, status, ...over })
    : req(at, { endpoint: 'runs-read', runId: RUN, responseJson: { run_id: RUN, status, notices: [] }, ...over });
/** A read of RUN in `status` under sandbox fixture `fixture`, serving the notices `codes` (then `more`). */
const fixtureRunRead = (
  at: number,
  status: string,
  fixture: string,
  codes: string[],
  more: Record<string, unknown> = {},
) =>
  read(at, status, {
    responseJson: { run_id: RUN, status, sandbox: { fixture }, notices: codes.map((code) => ({ code })), ...more },
  });
/** A delivery of an event for RUN started at `at`, acknowledged 204 5 ms later; `over` says what differs. */
const delivered = (at: number, over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  eventId: 'e',
  event: 'run_completed',
  runId: RUN,
  attempt: 1,
  url: 'https://h/x',
  wrongSignature: false,
  status: 204,
  startedAt: at,
  answeredAt: at + 5,
  ackTimeoutMs: 10_000,
  ...over,
});
/** A decisions batch that a 422 refuses for b's unknown reject reason (a is valid), and b fixed. */
const BATCH_422 = (() => {
  const b = { candidate_id: 2, decision: 'rejected', reject_reason: 'zz_old', occurred_at: 't' };
  return {
    a: { candidate_id: 1, decision: 'shortlisted', reject_reason: null, occurred_at: 't' },
    b,
    fixedB: { ...b, reject_reason: 'location' },
  };
})();
/** What a run start of job-1 by rec-1 sends, and that start (POST /v1/runs at `at`; `over` says what differs). */
const START_BODY = { job_external_id: 'job-1', acting_user_external_id: 'rec-1', target_count: 2 };
const runStart = (at: number, over: Partial<PartnerRequest> = {}) =>
  req(at, { endpoint: 'runs-start', path: '/v1/runs', json: START_BODY, ...over });
/** A known 503 of a POST, then the same call again 1.5 s later: a known failure the client retried. */
const knownFailureRetried = (endpoint: 'jobs' | 'users', path: string, externalId: string): PartnerRequest[] => [
  req(100_000, { endpoint, path, json: { external_id: externalId }, status: 503, errorCode: 'rate_limit_unavailable' }),
  req(101_500, { endpoint, path, json: { external_id: externalId } }),
];
const ctx = judgeContext;
const judge = (
  id: string,
  requests: PartnerRequest[],
  deliveries: WebhookDelivery[] = [],
  c: Partial<JudgeContext> = {},
) => rule(id).judge({ requests, deliveries } satisfies Traffic, ctx(c));

/** A decisions call of recruiter rec-1 on RUN, and one decision item (the review block below words its own). */
const decide = (at: number, items: unknown[], over: Partial<PartnerRequest> = {}) =>
  req(at, {
    endpoint: 'decisions',
    runId: RUN,
    json: { acting_user_external_id: 'rec-1', decisions: items, notices_shown: [] },
    ...over,
  });
const item = (over: Record<string, unknown> = {}) => ({
  candidate_id: 990000000001,
  decision: 'shortlisted',
  reject_reason: null,
  occurred_at: '2026-11-27T10:00:00Z',
  ...over,
});

describe('partner rules', () => {
  it('cite sections that exist in the spec', () => {
    const sections = new Set(loadSpec().sections);
    for (const ref of rules.flatMap((r) => r.spec)) expect(sections.has(ref), ref).toBe(true);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
  });

  it('the checks reference documents every rule and injection point (--help: src/cli/help-text.test.ts)', () => {
    const page = readFileSync(join(packageRoot(), 'docs', 'reference', 'checks.md'), 'utf8');
    for (const r of rules) expect(page, r.id).toContain(`\`${r.id}\``);
    for (const p of INJECTION_POINTS) expect(page, p.id).toContain(`\`${p.id}\``);
  });

  it('an unexercised rule is pending during the session and skipped at its end, with the hint', () => {
    const r = rule('polling.running-run-read-at-most-every-5s');
    expect(r.judge({ requests: [], deliveries: [] }, ctx({ final: false })).state).toBe('pending');
    const end = r.judge({ requests: [], deliveries: [] }, ctx());
    expect(end.state).toBe('skipped');
    expect(end.message).toContain('cert-slow');
  });

  it('secrets: a token in the query fails, percent-encoded too; the key in a body warns', () => {
    expect(judge('secrets.not-in-url', [read(0, 'running', { query: `org=${encodeURIComponent(TOKEN)}` })]).state).toBe(
      'failed',
    );
    expect(judge('secrets.not-in-body', [req(0, { endpoint: 'users', json: { key: KEY } })]).state).toBe('warning');
    expect(judge('secrets.not-in-url', [read(0, 'running')]).state).toBe('passed');
    // Each offence names what was sent, from the prefix it starts with.
    const named = (id: string, r: PartnerRequest): string[] => judge(id, [r]).observations.map((o) => o.message);
    expect(named('secrets.not-in-url', read(0, 'running', { query: `t=${TOKEN}` }))).toEqual([
      expect.stringMatching(/^an org token sent in the URL/),
    ]);
    expect(named('secrets.not-in-url', read(0, 'running', { query: `k=${KEY}` }))).toEqual([
      expect.stringMatching(/^a partner key sent in the URL/),
    ]);
  });

  it('a POST without Content-Type application/json fails', () => {
    const r = req(0, { endpoint: 'users', json: {} });
    r.headers = { ...r.headers, 'content-type': 'text/plain' };
    expect(judge('requests.post-content-type-json', [r]).state).toBe('failed');
    expect(
      judge('requests.post-content-type-json', [
        req(0, { endpoint: 'users', json: {}, headers: { 'content-type': 'application/json; charset=utf-8' } }),
      ]).state,
    ).toBe('passed');
  });

  it('backoff: a retry after 503 sooner than 1 s fails; 1 s then 2 s passes; a shrinking wait warns', () => {
    expect(judge('retries.backoff-from-1s', [read(0, 503), read(300, 'running')]).state).toBe('failed');
    expect(judge('retries.backoff-from-1s', [read(0, 503), read(1001, 503), read(3002, 'running')]).state).toBe(
      'passed',
    );
    expect(judge('retries.backoff-from-1s', [read(0, 503), read(2001, 503), read(3100, 'running')]).state).toBe(
      'warning',
    );
    // At time scale 100 the steps are 10 and 20 ms: timer lag on a loaded machine (27 ms, then 23 ms) is no shrink.
    expect(
      judge('retries.backoff-from-1s', [read(0, 503), read(28, 503), read(52, 'running')], [], { timeScale: 100 })
        .state,
    ).toBe('passed');
    // …nor 283 ms then 103 ms (both far beyond the 10 and 20 ms steps).
    expect(
      judge('retries.backoff-from-1s', [read(0, 503), read(284, 503), read(388, 'running')], [], { timeScale: 100 })
        .state,
    ).toBe('passed');
    // At time scale 10 the spec's 1 s is 100 ms.
    expect(judge('retries.backoff-from-1s', [read(0, 503), read(101, 'running')], [], { timeScale: 10 }).state).toBe(
      'passed',
    );
  });

  it('at most 3 attempts: a fourth fails', () => {
    const four = [read(0, 503), read(1001, 503), read(3002, 503), read(7003, 'running')];
    expect(judge('retries.at-most-3-attempts', four).state).toBe('failed');
    expect(judge('retries.at-most-3-attempts', four.slice(1)).state).toBe('passed');
  });

  it('Retry-After is judged as sent, in real seconds, whatever the time scale', () => {
    const limited = () =>
      req(0, { endpoint: 'users', json: { external_id: 'u' }, status: 429, responseHeaders: { 'retry-after': '1' } });
    const retry = (at: number) => req(at, { endpoint: 'users', json: { external_id: 'u' } });
    expect(judge('retries.retry-after-honoured', [limited(), retry(1001)], [], { timeScale: 100 }).state).toBe(
      'passed',
    );
    expect(judge('retries.retry-after-honoured', [limited(), retry(30)], [], { timeScale: 100 }).state).toBe('failed');
  });

  it('no retry after 422; a corrected request is no retry', () => {
    const refused = () => req(0, { endpoint: 'runs-start', json: { target_count: 99 }, status: 422 });
    expect(
      judge('retries.none-after-401-403-404-409-410-422', [
        refused(),
        req(2000, { endpoint: 'runs-start', json: { target_count: 99 } }),
      ]).state,
    ).toBe('failed');
    expect(
      judge('retries.none-after-401-403-404-409-410-422', [
        refused(),
        req(2000, { endpoint: 'runs-start', json: { target_count: 5 } }),
      ]).state,
    ).toBe('passed');
  });

  it('redeem: the same code (written differently) after a lost answer fails; a new code passes', () => {
    const lost = () => req(0, { endpoint: 'redeem', json: { code: 'SVC-ABCD-EFGH' }, lost: true, status: 0 });
    expect(
      judge('retries.redeem-not-retried-after-lost-answer', [
        lost(),
        req(90_000, { endpoint: 'redeem', json: { code: 'svc abcd efgh' } }),
      ]).state,
    ).toBe('failed');
    expect(
      judge('retries.redeem-not-retried-after-lost-answer', [
        lost(),
        req(5000, { endpoint: 'redeem', json: { code: 'SVC-JKMN-PQRS' } }),
      ]).state,
    ).toBe('passed');
  });

  // The Limits table lists run polling as "client guidance" (answer when exceeded: none): the polling
  // rules are advisory, so the habit each exists for warns, with the advisory note, and never fails.
  const ADVISORY_NOTE = '(advisory: client guidance, not a duty)';
  const warns = (v: RuleVerdict): void => {
    expect(v.state).toBe('warning');
    expect(v.observations.length).toBeGreaterThan(0);
    expect(v.message.endsWith(ADVISORY_NOTE), v.message).toBe(true);
    for (const w of v.observations) {
      expect(w.severity).toBe('warning');
      expect(w.message.endsWith(ADVISORY_NOTE), w.message).toBe(true);
      // The evidence stays: the partner's offending requests.
      expect(w.requests.length).toBeGreaterThan(0);
    }
  };

  it('exactly the three polling rules are advisory (client guidance); every other rule is a duty', () => {
    expect(
      rules
        .filter((r) => r.advisory)
        .map((r) => r.id)
        .sort(),
    ).toEqual([
      'polling.running-run-read-at-most-every-5s',
      'polling.stops-after-30-min-running',
      'polling.stops-at-completed-or-failed',
    ]);
  });

  it('polling: a start-to-start 5 s poller passes, a 1 s poller warns (advisory), the backoff after 503 is no poll', () => {
    expect(
      judge('polling.running-run-read-at-most-every-5s', [
        read(0, 'running'),
        read(5000, 'running'),
        read(10_000, 'completed'),
      ]).state,
    ).toBe('passed');
    const fast = judge('polling.running-run-read-at-most-every-5s', [read(0, 'running'), read(1000, 'running')]);
    warns(fast);
    expect(fast.message).toContain('read again 1.00 s after a read that showed it running');
    // Live, the warning shows as soon as it is seen, not only at the end.
    expect(
      judge('polling.running-run-read-at-most-every-5s', [read(0, 'running'), read(1000, 'running')], [], {
        final: false,
      }).state,
    ).toBe('warning');
    expect(
      judge('polling.running-run-read-at-most-every-5s', [read(0, 'running'), read(5000, 503), read(6001, 'running')])
        .state,
    ).toBe('passed');
  });

  it('after completed: a poll warns (advisory); a refresh after a reveal or a read much later passes', () => {
    const watched = () => [read(0, 'running'), read(5000, 'completed')];
    warns(judge('polling.stops-at-completed-or-failed', [...watched(), read(10_000, 'completed')]));
    // Requests are built in arrival order: their ids are what orders them.
    const shown = watched();
    const reveal = req(6000, { endpoint: 'reveal', runId: RUN, json: {} });
    expect(judge('polling.stops-at-completed-or-failed', [...shown, reveal, read(7000, 'completed')]).state).toBe(
      'passed',
    );
    expect(judge('polling.stops-at-completed-or-failed', [...watched(), read(600_000, 'completed')]).state).toBe(
      'passed',
    );
    // A loopback round trip fits in a millisecond: the reveal arrives with the terminal read's timestamp.
    const [running, completed] = watched();
    const sameMs = req(completed!.at, { endpoint: 'reveal', runId: RUN, json: {} });
    expect(
      judge('polling.stops-at-completed-or-failed', [
        running!,
        completed!,
        sameMs,
        read(completed!.at + 2, 503),
        read(completed!.at + 5, 'completed'),
      ]).state,
    ).toBe('passed');
  });

  it('30 minutes of running: reads after the read past the limit warn (advisory)', () => {
    const start = req(0, { endpoint: 'runs-start', status: 202, responseJson: { run_id: RUN } });
    const polls = Array.from({ length: 20 }, (_, i) => read(29 * 60_000 + i * 10_000, 'running'));
    warns(judge('polling.stops-after-30-min-running', [start, ...polls]));
    expect(judge('polling.stops-after-30-min-running', [start, ...polls.slice(0, 8)]).state).toBe('passed');
    // One read past the read that found the limit is a lagging clock, two are a poller that ignores it.
    expect(judge('polling.stops-after-30-min-running', [start, ...polls.slice(0, 12)]).state).toBe('passed');
    warns(judge('polling.stops-after-30-min-running', [start, ...polls.slice(0, 13)]));
  });

  it('an advisory rule that also has its own warnings keeps them after the advisory ones; a duty still fails', () => {
    const offence = { message: 'polled too often', requests: [1] };
    const own = { message: 'read two ways', requests: [2] };
    const ctxEnd = ctx();
    const advisory = ruleVerdict({ hint: 'h', advisory: true, spec: ['Limits'] }, ctxEnd, {
      offences: [offence],
      warnings: [own],
      exercised: true,
      passMessage: 'ok',
    });
    expect(advisory.state).toBe('warning');
    expect(advisory.observations).toEqual([
      { message: `polled too often ${ADVISORY_NOTE}`, requests: [1], spec: 'Limits', severity: 'warning' },
      { message: 'read two ways', requests: [2], spec: 'Limits', severity: 'warning' },
    ]);
    const duty = ruleVerdict({ hint: 'h', spec: ['Limits'] }, ctxEnd, {
      offences: [offence],
      warnings: [own],
      exercised: true,
      passMessage: 'ok',
    });
    expect(duty.state).toBe('failed');
    expect(duty.message).toBe('polled too often');
    // The same observations as any check records: the failure, then the warning, each citing its section.
    expect(duty.observations).toEqual([
      { message: 'polled too often', requests: [1], spec: 'Limits' },
      { message: 'read two ways', requests: [2], spec: 'Limits', severity: 'warning' },
    ]);
  });

  it('notices_shown: missing codes fail only at the end; every code reported passes', () => {
    const fixtureRead = fixtureRunRead(0, 'completed', 'cert-notice-unknown', ['zz_certification_probe']);
    const decision = { candidate_id: 7, decision: 'shortlisted', occurred_at: '2026-01-01T00:00:00Z' };
    const decisions = (codes: string[]) =>
      req(10, { endpoint: 'decisions', runId: RUN, json: { decisions: [decision], notices_shown: codes } });
    expect(
      judge('decisions.notices-shown-includes-unknown-codes', [fixtureRead, decisions([])], [], { final: false }).state,
    ).toBe('pending');
    expect(judge('decisions.notices-shown-includes-unknown-codes', [fixtureRead, decisions([])]).state).toBe('failed');
    expect(
      judge('decisions.notices-shown-includes-unknown-codes', [fixtureRead, decisions(['zz_certification_probe'])])
        .state,
    ).toBe('passed');
  });

  it('notices_shown, unknown codes: a missing code fails only for a run a recruiter evidently saw', () => {
    const id = 'decisions.notices-shown-includes-unknown-codes';
    const fixtureRead = () => fixtureRunRead(0, 'completed', 'cert-notice-unknown', ['zz_certification_probe']);
    const report = (decisions: unknown[]) =>
      req(10, { endpoint: 'decisions', runId: RUN, json: { decisions, notices_shown: [] } });
    // A background read nobody saw: warns, naming the reading.
    const unseen = judge(id, [fixtureRead(), report([])]);
    expect(unseen.state).toBe('warning');
    expect(unseen.message).toContain('may never have been shown');
    expect(judge(id, [fixtureRead()]).state).toBe('warning');
    // A reveal shows the recruiter saw it: the missing code fails.
    expect(judge(id, [fixtureRead(), req(5, { endpoint: 'reveal', runId: RUN, json: {} }), report([])]).state).toBe(
      'failed',
    );
  });

  // False blame removed; each offence still caught.
  it('after completed: a read within a few seconds of a delivery for the run is prompted by the webhook, not a poll', () => {
    const delivery = (at: number, event = 'run_completed'): WebhookDelivery => delivered(at, { event });
    const watched = () => [read(0, 'running'), read(5000, 'completed')];
    expect(
      judge('polling.stops-at-completed-or-failed', [...watched(), read(6100, 'completed')], [delivery(6000)]).state,
    ).toBe('passed');
    // Any delivery for the run prompts a read; at time scale 10 "a few seconds" are a tenth as long.
    expect(
      judge(
        'polling.stops-at-completed-or-failed',
        [read(0, 'running'), read(500, 'completed'), read(620, 'completed')],
        [delivery(600, 'candidate_revealed')],
        { timeScale: 10 },
      ).state,
    ).toBe('passed');
    // A delivery for another run, or long before the read, prompts nothing: the poll still warns.
    warns(
      judge(
        'polling.stops-at-completed-or-failed',
        [...watched(), read(10_000, 'completed')],
        [{ ...delivery(9900), runId: 'other' }],
      ),
    );
    warns(judge('polling.stops-at-completed-or-failed', [...watched(), read(20_000, 'completed')], [delivery(6000)]));
    warns(
      judge(
        'polling.stops-at-completed-or-failed',
        [read(0, 'running'), read(500, 'completed'), read(1700, 'completed')],
        [delivery(600)],
        { timeScale: 10 },
      ),
    );
  });

  it('a request after fixing the cause is no retry: 404 user_not_found, POST /users, the same POST /runs', () => {
    const id = 'retries.none-after-401-403-404-409-410-422';
    const start = { job_external_id: 'job-1', acting_user_external_id: 'rec-1', target_count: 2 };
    const refused = () => req(0, { endpoint: 'runs-start', json: start, status: 404, errorCode: 'user_not_found' });
    const users = (at: number, status = 201) => req(at, { endpoint: 'users', json: { external_id: 'rec-1' }, status });
    expect(
      judge(id, [refused(), users(500), req(1000, { endpoint: 'runs-start', json: start, status: 202 })]).state,
    ).toBe('passed');
    // The same after a job (422/409/410 alike) or a redeem in between.
    const changedBetween = (status: number, change: Parameters<typeof req>[1]) => [
      req(0, { endpoint: 'runs-start', json: start, status }),
      req(500, change),
      req(1000, { endpoint: 'runs-start', json: start }),
    ];
    expect(judge(id, changedBetween(422, { endpoint: 'jobs', json: { external_id: 'job-1' } })).state).toBe('passed');
    expect(judge(id, changedBetween(410, { endpoint: 'redeem', json: { code: 'X' } })).state).toBe('passed');
    // Nothing changed in between (or the change was refused): still a retry.
    expect(judge(id, [refused(), req(1000, { endpoint: 'runs-start', json: start })]).state).toBe('failed');
    expect(judge(id, [refused(), users(500, 422), req(1000, { endpoint: 'runs-start', json: start })]).state).toBe(
      'failed',
    );
    expect(judge(id, [refused(), read(500, 'running'), req(1000, { endpoint: 'runs-start', json: start })]).state).toBe(
      'failed',
    );
  });

  it('503 rate_limit_unavailable executed nothing: a backoff retry passes where retry-safe, warns on a run start, passes on a redeem', () => {
    const unavailable = { status: 503, errorCode: 'rate_limit_unavailable' } as const;
    expect(
      judge('retries.backoff-from-1s', [read(0, 503, { errorCode: 'rate_limit_unavailable' }), read(1001, 'running')])
        .state,
    ).toBe('passed');
    const body = { job_external_id: 'job-1', acting_user_external_id: 'rec-1', target_count: 2 };
    const v = judge('retries.run-start-not-retried-after-5xx', [
      req(0, { endpoint: 'runs-start', json: body, ...unavailable }),
      req(1001, { endpoint: 'runs-start', json: body, status: 202 }),
    ]);
    expect(v.state).toBe('warning');
    expect(v.message).toContain('must not be retried automatically after a timeout or 5xx');
    expect(v.message).toContain('nothing was executed');
    expect(v.message).toContain('retry with backoff');
    // Execution unknown: after a 500, another 503 or a lost answer, a resend sooner than a person acts fails.
    const startResent = (first: Partial<PartnerRequest>) =>
      judge('retries.run-start-not-retried-after-5xx', [
        req(0, { endpoint: 'runs-start', json: body, ...first }),
        req(500, { endpoint: 'runs-start', json: body }),
      ]).state;
    expect(
      [
        { status: 500, errorCode: 'internal_error' },
        { status: 503, errorCode: 'unavailable' },
        { status: 0, lost: true },
      ].map(startResent),
    ).toEqual(['failed', 'failed', 'failed']);
    const code = { code: 'SVC-ABCD-EFGH', external_id: 'c' };
    const redeemResent = (first: Partial<PartnerRequest>) =>
      judge('retries.redeem-not-retried-after-lost-answer', [
        req(0, { endpoint: 'redeem', json: code, ...first }),
        req(1001, { endpoint: 'redeem', json: code }),
      ]).state;
    expect(redeemResent(unavailable)).toBe('passed');
    expect(redeemResent({ status: 500 })).toBe('failed');
  });

  it('secrets in a body: the mere sot_/spk_ shape is text; the issued key or token itself warns, never fails', () => {
    const id = 'secrets.not-in-body';
    const job = (description: string) =>
      req(0, { endpoint: 'jobs', json: { external_id: 'j', description_text: description } });
    expect(judge(id, [job('Configure sot_settings and spk_live_examplevalue in the admin panel')]).state).toBe(
      'passed',
    );
    const key = judge(id, [job(`our key is ${KEY}`)]);
    expect(key.state).toBe('warning');
    expect(key.observations.filter((o) => o.severity !== 'warning')).toEqual([]);
    const issued = req(0, { endpoint: 'redeem', json: { code: 'X' }, responseJson: { org_token: TOKEN } });
    expect(judge(id, [issued, req(10, { endpoint: 'users', json: { token: TOKEN } })]).state).toBe('warning');
    // The URL rule is unchanged: the shape there still fails.
    expect(judge('secrets.not-in-url', [read(0, 'running', { query: 'x=sot_abcdefghijkl' })]).state).toBe('failed');
  });

  it('notices_shown: a missing code fails only for a run a recruiter evidently saw; codes never served fail', () => {
    const id = 'decisions.notices-shown-reports-every-code';
    const fixtureRead = () =>
      fixtureRunRead(0, 'completed', 'cert-notices-all', ['run_funnel', 'widen_hint'], { candidates: [{ id: 7 }] });
    const report = (codes: string[], decisions: unknown[] = []) =>
      req(10, { endpoint: 'decisions', runId: RUN, json: { decisions, notices_shown: codes } });
    const decision = { candidate_id: 7, decision: 'shortlisted', occurred_at: '2026-01-01T00:00:00Z' };
    // Read, never shown: warns at most.
    expect(judge(id, [fixtureRead(), report(['run_funnel'])]).state).toBe('warning');
    expect(judge(id, [fixtureRead()]).state).toBe('warning');
    // A decision or a reveal shows the recruiter saw it: the missing code fails.
    expect(judge(id, [fixtureRead(), report(['run_funnel'], [decision])]).state).toBe('failed');
    expect(
      judge(id, [fixtureRead(), req(5, { endpoint: 'reveal', runId: RUN, json: {} }), report(['run_funnel'])]).state,
    ).toBe('failed');
    expect(judge(id, [fixtureRead(), report(['run_funnel', 'widen_hint'], [decision])]).state).toBe('passed');
    // Codes never served for the run fail, seen or not.
    const never = judge(id, [fixtureRead(), report(['run_funnel', 'widen_hint', 'paid_fallback'])]);
    expect(never.state).toBe('failed');
    expect(never.message).toContain('paid_fallback');
    expect(judge(id, [report(['run_funnel'])]).state).toBe('failed');
  });

  it('a refused org token used again fails; a new token passes', () => {
    const refused = read(0, 401, { errorCode: 'invalid_org_token' });
    // Another call long after the refusal: the token kept in use.
    expect(
      judge('org-token.not-used-after-invalid-org-token', [refused, req(70_000, { endpoint: 'users', json: {} })])
        .state,
    ).toBe('failed');
    // The refused call itself again, however soon: a retry of the refused token.
    expect(judge('org-token.not-used-after-invalid-org-token', [refused, read(100, 'running')]).state).toBe('failed');
    // Another call soon after: another session of the customer, not yet aware of the refusal (two readings).
    const soon = judge('org-token.not-used-after-invalid-org-token', [
      refused,
      req(100, { endpoint: 'users', json: {} }),
    ]);
    expect(soon.state).toBe('warning');
    expect(soon.message).toContain('reading taken: another session');
    const renewed = req(100, { endpoint: 'users', json: {} });
    renewed.headers = { ...renewed.headers, 'x-svc-org': `sot_${'c'.repeat(48)}` };
    expect(judge('org-token.not-used-after-invalid-org-token', [refused, renewed]).state).toBe('passed');
  });

  it('webhooks: 2xx passes, 3xx fails only the redirect rule; a bad signature answered 401 passes, 403 or 200 fails', () => {
    const d = (status: number | null, wrongSignature = false): WebhookDelivery =>
      delivered(0, { wrongSignature, status });
    expect(judge('webhooks.valid-deliveries-acknowledged-2xx', [], [d(204)]).state).toBe('passed');
    expect(judge('webhooks.valid-deliveries-acknowledged-2xx', [], [d(302)]).state).toBe('passed');
    expect(judge('webhooks.valid-deliveries-never-redirected', [], [d(302)]).state).toBe('failed');
    expect(judge('webhooks.valid-deliveries-acknowledged-2xx', [], [d(null)]).state).toBe('failed');
    expect(judge('webhooks.bad-signature-refused', [], [d(401, true)]).state).toBe('passed');
    // Decided reading: "answers `401` without processing on mismatch" is explicit; another refusal fails, quoting it.
    const refused403 = judge('webhooks.bad-signature-refused', [], [d(403, true)]);
    expect(refused403.state).toBe('failed');
    expect(refused403.message).toContain('answers `401` without processing on mismatch');
    expect(judge('webhooks.bad-signature-refused', [], [d(200, true)]).state).toBe('failed');
    const unregistered = judge('webhooks.bad-signature-refused', [], [], { webhookRegistered: false });
    expect(unregistered.message).toContain('--webhook-url');
    // No traffic can exercise a webhook rule without a registered endpoint: the flag is what is missing.
    expect(unregistered.unlock).toBe('--webhook-url');
    expect(judge('webhooks.bad-signature-refused', [], []).unlock).toBeUndefined();
  });

  it('a repeated event_id: reading the run again passes; reporting, revealing or starting again what the first delivery prompted fails', () => {
    const id = 'webhooks.repeated-event-id-not-acted-on-again';
    const d = (startedAt: number, attempt: number): WebhookDelivery =>
      delivered(startedAt, { eventId: 'e-1', attempt, status: 200 });
    const twice = [d(1_000, 1), d(61_000, 2)];
    const path = `/v1/runs/${RUN}/decisions`;
    const report = (at: number, over: Partial<PartnerRequest> = {}) => decide(at, [], { path, ...over });
    // Acted on once, the repeat only read again: harmless.
    const once = judge(id, [read(1_100, 'completed'), report(1_200), read(61_100, 'completed')], twice);
    expect(once.state).toBe('passed');
    // The report of the first delivery made again after the repeat: acting twice on one event.
    const again = judge(
      id,
      [read(1_100, 'completed'), report(1_200), read(61_100, 'completed'), report(61_200)],
      twice,
    );
    expect(again.state).toBe('failed');
    expect(again.message).toContain('de-duplicate on event_id');
    // A report on the run after the repeat that reports something else (the recruiter's next decision) is
    // not the first delivery's act again; the same decision reported again, whenever it occurred, is.
    const decided = (at: number, over: Record<string, unknown>) => decide(at, [item(over)], { path });
    const next = [decided(1_200, {}), decided(61_200, { candidate_id: 990000000002 })];
    expect(judge(id, next, twice).state).toBe('passed');
    const same = [decided(1_200, {}), decided(61_200, { occurred_at: '2026-11-27T10:01:00Z' })];
    expect(judge(id, same, twice).state).toBe('failed');
    // A report whose first try failed, resent after the repeat, is the retry the spec asks for, not a second act.
    expect(judge(id, [report(1_200, { status: 503 }), report(61_200)], twice).state).toBe('passed');
    // A retry after an answer that came too late is a repeat too: the first was acted on all the same.
    const late = [{ ...d(1_000, 1), status: null }, d(61_000, 2)];
    expect(judge(id, [report(1_200), report(61_200)], late).state).toBe('failed');
    // Acts on another run are not what the event prompted.
    const other = '22222222-2222-4222-8222-222222222222';
    const elsewhere = (at: number) => report(at, { runId: other, path: `/v1/runs/${other}/decisions` });
    expect(judge(id, [elsewhere(1_200), elsewhere(61_200)], twice).state).toBe('passed');
    // The same act long after the repeat's window is the recruiter's, not the repeat's.
    expect(judge(id, [report(1_200), report(200_000)], twice).state).toBe('passed');
    // One delivery only (nothing repeated): not exercised; while the repeat's window is open: pending.
    expect(judge(id, [report(1_200)], [d(1_000, 1)]).state).toBe('skipped');
    expect(judge(id, [report(1_200)], twice, { final: false, now: 62_000 }).state).toBe('pending');
    expect(judge(id, [], twice, { webhookRegistered: false }).unlock).toBe('--webhook-url');
  });

  // Duties judged from the client's traffic since the judge's second round.
  describe('duties judged from the traffic', () => {
    it('x-partner-key on every request, x-svc-org on every request but redeem', () => {
      const noKey = req(0, {
        endpoint: 'users',
        json: {},
        headers: { 'x-svc-org': TOKEN, 'content-type': 'application/json' },
      });
      expect(judge('requests.partner-key-on-every-request', [noKey]).state).toBe('failed');
      expect(judge('requests.partner-key-on-every-request', [req(0, { endpoint: 'users', json: {} })]).state).toBe(
        'passed',
      );
      const redeem = req(0, {
        endpoint: 'redeem',
        json: { code: 'X' },
        headers: { 'x-partner-key': KEY, 'content-type': 'application/json' },
      });
      expect(
        judge('requests.org-token-on-every-request-but-redeem', [redeem, req(5, { endpoint: 'users', json: {} })])
          .state,
      ).toBe('passed');
      expect(judge('requests.org-token-on-every-request-but-redeem', [{ ...redeem, endpoint: 'jobs' }]).state).toBe(
        'failed',
      );
    });

    it('x-svc-lang: he and en pass, another language fails, another case warns naming the reading', () => {
      const lang = (v: string) =>
        read(0, 'running', { headers: { 'x-partner-key': KEY, 'x-svc-org': TOKEN, 'x-svc-lang': v } });
      expect(judge('requests.lang-he-or-en', [lang('he'), lang('en')]).state).toBe('passed');
      expect(judge('requests.lang-he-or-en', [lang('en-US')]).state).toBe('failed');
      const upper = judge('requests.lang-he-or-en', [lang('EN')]);
      expect(upper.state).toBe('warning');
      expect(upper.message).toContain('reading taken');
      // Not sent at all: nothing to judge.
      expect(judge('requests.lang-he-or-en', [read(0, 'running')]).state).toBe('skipped');
    });

    it('description_text: element tags fail; a lone < or &, or a generic <T>, is text', () => {
      const job = (d: string) => req(0, { endpoint: 'jobs', json: { external_id: 'j', description_text: d } });
      for (const html of ['<p>Go</p>', 'We use <b>Go</b> daily', '<div class="x">Go'])
        expect(judge('requests.job-description-plain-text', [job(html)]).state, html).toBe('failed');
      // A lone closing tag or void element may be the text of a job about HTML (it was &lt;br&gt;): a warning.
      for (const text of ['Go</li>', 'line<br/>break', 'Semantic HTML: <header>, <div>, </div> and <br>'])
        expect(judge('requests.job-description-plain-text', [job(text)]).state, text).toBe('warning');
      for (const text of ['Node.js & TypeScript', '< 5 years', 'a < b && c > d', 'List<T> generics'])
        expect(judge('requests.job-description-plain-text', [job(text)]).state, text).toBe('passed');
    });

    it('no retry after 402 insufficient_credits', () => {
      const refused = () =>
        req(0, {
          endpoint: 'reveal',
          runId: RUN,
          json: { acting_user_external_id: 'u' },
          status: 402,
          errorCode: 'insufficient_credits',
        });
      expect(
        judge('retries.none-after-402-insufficient-credits', [
          refused(),
          req(1500, { endpoint: 'reveal', runId: RUN, json: { acting_user_external_id: 'u' } }),
        ]).state,
      ).toBe('failed');
      expect(judge('retries.none-after-402-insufficient-credits', [refused(), read(1500, 'completed')]).state).toBe(
        'passed',
      );
    });

    it('decisions retries keep occurred_at: a new one fails, the same passes (after a 503 and after a lost answer)', () => {
      const id = 'decisions.retry-keeps-occurred-at';
      const body = (at: string) => ({
        acting_user_external_id: 'u',
        decisions: [{ candidate_id: 7, decision: 'shortlisted', occurred_at: at }],
        notices_shown: [],
      });
      const t0 = '2026-01-01T00:00:00.000Z';
      for (const failure of [
        { status: 503, errorCode: 'rate_limit_unavailable' },
        { status: 0, lost: true },
      ]) {
        const failed = () => req(0, { endpoint: 'decisions', runId: RUN, json: body(t0), ...failure });
        expect(judge(id, [failed(), req(1500, { endpoint: 'decisions', runId: RUN, json: body(t0) })]).state).toBe(
          'passed',
        );
        expect(
          judge(id, [
            failed(),
            req(1500, { endpoint: 'decisions', runId: RUN, json: body('2026-01-01T00:00:01.500Z') }),
          ]).state,
        ).toBe('failed');
      }
      // The same action under a new occurred_at only long after: the recruiter acting again by hand, or a late
      // retry restamped; the wire reads two ways.
      const late = judge(id, [
        req(0, { endpoint: 'decisions', runId: RUN, json: body(t0), status: 503 }),
        req(600_000, { endpoint: 'decisions', runId: RUN, json: body('2026-01-01T00:10:00Z') }),
      ]);
      expect(late.state).toBe('warning');
      expect(late.message).toContain('reading taken: the recruiter took the same action again by hand');
      // An outbox resending both failed calls 90 s later (past any 60 s window) with the action's occurred_at
      // is right: resends are judged by their occurred_at, at any distance.
      expect(
        judge(id, [
          req(0, { endpoint: 'decisions', runId: RUN, json: body(t0), status: 503 }),
          req(90_000, { endpoint: 'decisions', runId: RUN, json: body(t0) }),
        ]).state,
      ).toBe('passed');
      expect(
        judge(
          id,
          [
            req(0, { endpoint: 'decisions', runId: RUN, json: body(t0), status: 0, lost: true }),
            req(3_600_000, { endpoint: 'decisions', runId: RUN, json: body(t0), responseJson: { duplicates: 1 } }),
          ],
          [],
          { now: 4_000_000 },
        ).state,
      ).toBe('passed');
    });

    it('after a decisions 422 the whole batch is resent: dropping an evidently valid item fails, the refused one warns', () => {
      const id = 'decisions.whole-batch-resent-after-422';
      const { a, b, fixedB } = BATCH_422;
      const refused = (code = 'unknown_reject_reason') =>
        req(0, {
          endpoint: 'decisions',
          runId: RUN,
          json: { decisions: [a, b] },
          status: 422,
          errorCode: code,
          responseJson: { error: code, allowed: ['location'] },
        });
      const resend = (items: unknown[]) => req(1000, { endpoint: 'decisions', runId: RUN, json: { decisions: items } });
      expect(judge(id, [refused(), resend([a, fixedB])]).state).toBe('passed');
      expect(judge(id, [refused(), resend([fixedB])]).state).toBe('failed');
      expect(judge(id, [refused(), resend([a])]).state).toBe('warning');
      expect(judge(id, [refused('invalid_decision'), resend([fixedB])]).state).toBe('warning');
    });

    it('an unknown run status is running: reading on passes, stopping fails once a minute (spec time) passed', () => {
      const id = 'unknown-values.unknown-run-status-read-as-running';
      expect(judge(id, [read(0, 'zz_new'), read(5000, 'running')]).state).toBe('passed');
      // A slow poller (every 30 s) still reads on: no blame for its pace.
      expect(judge(id, [read(0, 'zz_new'), read(30_000, 'running')], [], { now: 100_000 }).state).toBe('passed');
      // Silence after the unknown status fails where the client was polling the run (read running, then again)…
      expect(judge(id, [read(-5000, 'running'), read(0, 'zz_new')], [], { now: 70_000 }).state).toBe('failed');
      // …and only warns where nothing shows anyone was watching it: the recruiter may have left.
      const unwatched = judge(id, [read(0, 'zz_new')], [], { now: 70_000 });
      expect(unwatched.state).toBe('warning');
      expect(unwatched.message).toContain('reading taken: nothing shows the run was being polled');
      // Read again, but only after two minutes: it kept reading; the pace is guidance.
      expect(judge(id, [read(0, 'zz_new'), read(120_000, 'running')], [], { now: 200_000 }).state).toBe('warning');
      // The session ended too soon to tell.
      expect(judge(id, [read(0, 'zz_new')], [], { now: 30_000 }).state).toBe('skipped');
    });

    it('an unknown error code is handled by its status: retried passes; not retried fails beside a retried known 503, else warns', () => {
      const id = 'unknown-values.error-code-handled-by-status';
      const job = (at: number, over: Partial<PartnerRequest> = {}) =>
        req(at, { endpoint: 'jobs', json: { external_id: 'j' }, ...over });
      const unknown = { status: 503, errorCode: 'zz_new_error' };
      expect(judge(id, [job(0, unknown), job(1500)]).state).toBe('passed');
      const known = [
        job(100_000, { status: 503, errorCode: 'rate_limit_unavailable', json: { external_id: 'k' } }),
        job(101_500, { json: { external_id: 'k' } }),
      ];
      expect(judge(id, [job(0, unknown), ...known]).state).toBe('failed');
      expect(judge(id, [job(0, unknown)]).state).toBe('warning');
    });

    it('a run start is never retried automatically: a resend under 1 s or a second resend fails, one resend after a pause warns', () => {
      const id = 'retries.run-start-not-retried-after-5xx';
      const body = { job_external_id: 'job-1', acting_user_external_id: 'rec-1', target_count: 2 };
      const failed = () => req(0, { endpoint: 'runs-start', json: body, status: 500, errorCode: 'internal_error' });
      // Sooner than a person can read the error and click again: automatic.
      const quick = judge(id, [failed(), req(300, { endpoint: 'runs-start', json: body, status: 202 })]);
      expect(quick.state).toBe('failed');
      expect(quick.message).toContain('sooner than a person can act');
      // At time scale 100 a person's second is 10 ms of the sandbox's clock.
      expect(
        judge(id, [failed(), req(30, { endpoint: 'runs-start', json: body, status: 202 })], [], { timeScale: 100 })
          .state,
      ).toBe('warning');
      // One identical resend after a pause (3 s, or three minutes) may be a person's click or a queue's retry:
      // the wire cannot tell, so it warns naming both readings.
      for (const at of [3_000, 30_000, 180_000]) {
        const once = judge(id, [failed(), req(at, { endpoint: 'runs-start', json: body, status: 202 })]);
        expect(once.state, String(at)).toBe('warning');
        expect(once.message).toContain('reading taken: a recruiter starting again by hand once');
      }
      // A second resend of the same failed start, with nothing of the recruiter in between: a loop.
      const loop = judge(id, [
        failed(),
        req(1_000, { endpoint: 'runs-start', json: body, status: 500 }),
        req(3_000, { endpoint: 'runs-start', json: body, status: 202 }),
      ]);
      expect(loop.state).toBe('failed');
      expect(loop.message).toContain('a second time');
      // The recruiter registered again as the job's page loaded (the partner vouches for the logged-in
      // user), then started again by hand: a new action, whatever the distance.
      const page = req(3_000, { endpoint: 'users', json: { external_id: 'rec-1' } });
      expect(judge(id, [failed(), page, req(6_000, { endpoint: 'runs-start', json: body })]).state).toBe('passed');
      // A read of another run of the same recruiter is the recruiter at work too.
      const otherStart = req(1_000, {
        endpoint: 'runs-start',
        json: { job_external_id: 'cert-slow', acting_user_external_id: 'rec-1', target_count: 1 },
        status: 202,
        responseJson: { run_id: RUN },
      });
      expect(
        judge(id, [failed(), otherStart, read(2_000, 'running'), req(6_000, { endpoint: 'runs-start', json: body })])
          .state,
      ).toBe('passed');
      // A decision by the same recruiter in between: a new action, then a new start.
      const decided = req(60_000, {
        endpoint: 'decisions',
        runId: RUN,
        json: { acting_user_external_id: 'rec-1', decisions: [] },
      });
      expect(judge(id, [failed(), decided, req(180_000, { endpoint: 'runs-start', json: body })]).state).toBe('passed');
      // Another recruiter's activity is no action of this one.
      const other = req(60_000, {
        endpoint: 'decisions',
        runId: RUN,
        json: { acting_user_external_id: 'rec-2', decisions: [] },
      });
      expect(judge(id, [failed(), other, req(400, { endpoint: 'runs-start', json: body })]).state).toBe('failed');
    });
  });

  // The review of the rules: conformant traffic each rule failed before (false blame), and a broken
  // client one missed.
  describe('review of the rules: conformant traffic never fails', () => {
    const item = (candidate: number, at: string, decision = 'shortlisted') => ({
      candidate_id: candidate,
      decision,
      occurred_at: at,
    });
    const decide = (at: number, user: string, items: unknown[], over: Partial<PartnerRequest> = {}) =>
      req(at, {
        endpoint: 'decisions',
        runId: RUN,
        json: { acting_user_external_id: user, decisions: items, notices_shown: [] },
        ...over,
      });

    it('decisions retry: another recruiter deciding on the same candidate in between is no retry of this one', () => {
      const id = 'decisions.retry-keeps-occurred-at';
      const failed = decide(0, 'rec-1', [item(7, '2026-01-01T00:00:00Z')], {
        status: 503,
        errorCode: 'rate_limit_unavailable',
      });
      const colleague = decide(800, 'rec-2', [item(7, '2026-01-01T00:00:00.700Z')]);
      const retry = decide(1500, 'rec-1', [item(7, '2026-01-01T00:00:00Z')]);
      expect(judge(id, [failed, colleague, retry]).state).toBe('passed');
      // The same recruiter's resend with a new occurred_at still fails.
      expect(judge(id, [failed, colleague, decide(1500, 'rec-1', [item(7, '2026-01-01T00:00:01.5Z')])]).state).toBe(
        'failed',
      );
    });

    it('decisions retry: the same instant written another way (…Z, ….000Z, +00:00) warns naming the reading, never fails', () => {
      const id = 'decisions.retry-keeps-occurred-at';
      const failed = decide(0, 'rec-1', [item(7, '2026-01-01T10:00:00Z')], {
        status: 503,
        errorCode: 'rate_limit_unavailable',
      });
      for (const spelled of ['2026-01-01T10:00:00.000Z', '2026-01-01T12:00:00+02:00']) {
        const v = judge(id, [failed, decide(1500, 'rec-1', [item(7, spelled)])]);
        expect(v.state, spelled).toBe('warning');
        expect(v.message).toContain('reading taken');
      }
    });

    it('decisions retry after 429: the wait of Retry-After is part of the retry window (a new occurred_at then fails)', () => {
      const id = 'decisions.retry-keeps-occurred-at';
      const limited = decide(0, 'rec-1', [item(7, '2026-01-01T00:00:00Z')], {
        status: 429,
        errorCode: 'rate_limited',
        responseHeaders: { 'retry-after': '30' },
      });
      // Time scale 60: the window is 2 s real, the client honoured Retry-After: 30 literally.
      expect(
        judge(id, [limited, decide(31_000, 'rec-1', [item(7, '2026-01-01T00:00:31Z')])], [], { timeScale: 60 }).state,
      ).toBe('failed');
      expect(
        judge(id, [limited, decide(31_000, 'rec-1', [item(7, '2026-01-01T00:00:00Z')])], [], { timeScale: 60 }).state,
      ).toBe('passed');
    });

    it("whole batch after 422: another recruiter's call in between is not the resend; a resend in parts passes", () => {
      const id = 'decisions.whole-batch-resent-after-422';
      const { a, b, fixedB } = BATCH_422;
      const refused = decide(0, 'rec-1', [a, b], {
        status: 422,
        errorCode: 'unknown_reject_reason',
        responseJson: { error: 'unknown_reject_reason', allowed: ['location'] },
      });
      const colleague = decide(500, 'rec-2', [{ candidate_id: 3, decision: 'hired', occurred_at: 't' }]);
      expect(judge(id, [refused, colleague, decide(1000, 'rec-1', [a, fixedB])]).state).toBe('passed');
      expect(judge(id, [refused, decide(1000, 'rec-1', [fixedB]), decide(1200, 'rec-1', [a])]).state).toBe('passed');
      // The valid item never resent by the recruiter still fails.
      expect(judge(id, [refused, colleague, decide(1000, 'rec-1', [fixedB])]).state).toBe('failed');
    });

    it('description_text: code samples and a job about HTML warn naming the reading; evident markup fails, legacy upper case too', () => {
      const id = 'requests.job-description-plain-text';
      const job = (d: string) => req(0, { endpoint: 'jobs', json: { external_id: 'j', description_text: d } });
      for (const text of [
        'Rust: Vec<A>, Box<S>, Iterator<I>',
        'React: compose <Button> and <Input> components',
        'Semantic HTML (<header>, <nav>, <article>)',
        'JSX like <Button>Save</Button>',
      ]) {
        const v = judge(id, [job(text)]);
        expect(v.state, text).toBe('warning');
        expect(v.message, text).toContain('reading taken');
      }
      for (const text of ['AT&T seeks a dev; a < b', '**Markdown** _role_ with `code`'])
        expect(judge(id, [job(text)]).state, text).toBe('passed');
      for (const html of ['<P>Go</P>', 'Go <a href="https://x">apply</a>', 'Line <B>one</B> two'])
        expect(judge(id, [job(html)]).state, html).toBe('failed');
      // A miss closed: character references left undecoded are HTML not converted to text.
      const entity = judge(id, [job('AT&amp;T seeks a developer&nbsp;in Haifa')]);
      expect(entity.state).toBe('warning');
      expect(entity.message).toContain('&amp;');
    });

    it('an unknown error code: a job upserted again with an edited description is handled (retried)', () => {
      const id = 'unknown-values.error-code-handled-by-status';
      const known = knownFailureRetried('jobs', '/v1/jobs', 'k');
      const failed = req(0, {
        endpoint: 'jobs',
        path: '/v1/jobs',
        json: { external_id: 'j', description_text: 'v1' },
        status: 503,
        errorCode: 'zz_new_error',
      });
      const again = req(1500, {
        endpoint: 'jobs',
        path: '/v1/jobs',
        json: { external_id: 'j', description_text: 'v2 (edited meanwhile)' },
      });
      expect(judge(id, [failed, again, ...known]).state).toBe('passed');
      // Another job is no retry of this one.
      const other = req(1500, {
        endpoint: 'jobs',
        path: '/v1/jobs',
        json: { external_id: 'k', description_text: 'v1' },
      });
      expect(judge(id, [failed, other, ...known]).state).toBe('failed');
    });

    it('a simulated refusal followed by the real call without the simulate header warns naming the reading; a replay with it fails', () => {
      const sim = (value: string) => ({
        'x-partner-key': KEY,
        'x-svc-org': TOKEN,
        'content-type': 'application/json',
        'x-svc-sandbox-simulate': value,
      });
      const reveal = (at: number, over: Partial<PartnerRequest> = {}) =>
        req(at, { endpoint: 'reveal', runId: RUN, json: { acting_user_external_id: 'u' }, ...over });
      const refused = reveal(0, {
        status: 402,
        errorCode: 'insufficient_credits',
        headers: sim('insufficient_credits'),
      });
      const moved = judge('retries.none-after-402-insufficient-credits', [refused, reveal(500)]);
      expect(moved.state).toBe('warning');
      expect(moved.message).toContain('reading taken');
      expect(
        judge('retries.none-after-402-insufficient-credits', [
          refused,
          reveal(500, { headers: sim('insufficient_credits') }),
        ]).state,
      ).toBe('failed');
      const body = { job_external_id: 'cert-notices-all', acting_user_external_id: 'rec-1', target_count: 2 };
      const start = req(0, {
        endpoint: 'runs-start',
        json: body,
        status: 500,
        errorCode: 'internal_error',
        headers: sim('internal_error'),
      });
      expect(
        judge('retries.run-start-not-retried-after-5xx', [
          start,
          req(500, { endpoint: 'runs-start', json: body, status: 202 }),
        ]).state,
      ).toBe('warning');
      expect(
        judge('retries.run-start-not-retried-after-5xx', [
          start,
          req(500, { endpoint: 'runs-start', json: body, headers: sim('internal_error') }),
        ]).state,
      ).toBe('failed');
      const redeem = (at: number, over: Partial<PartnerRequest> = {}) =>
        req(at, { endpoint: 'redeem', json: { code: 'SVC-AAAA-BBBB', external_id: 'org-1' }, ...over });
      expect(
        judge('retries.redeem-not-retried-after-lost-answer', [
          redeem(0, { status: 500, errorCode: 'internal_error', headers: sim('internal_error') }),
          redeem(500),
        ]).state,
      ).toBe('warning');
      expect(
        judge('retries.redeem-not-retried-after-lost-answer', [
          redeem(0, { status: 500, errorCode: 'internal_error' }),
          redeem(500),
        ]).state,
      ).toBe('failed');
      const decided = (at: number, occurred: string, over: Partial<PartnerRequest> = {}) =>
        decide(at, 'rec-1', [item(7, occurred)], over);
      expect(
        judge('decisions.retry-keeps-occurred-at', [
          decided(0, '2026-01-01T00:00:00Z', {
            status: 503,
            errorCode: 'rate_limit_unavailable',
            headers: sim('rate_limit_unavailable'),
          }),
          decided(500, '2026-01-01T00:00:00.5Z'),
        ]).state,
      ).toBe('warning');
    });

    it('after 401 or 422, the same call with a fixed header (a rotated key, a valid reveal price) is no retry', () => {
      const id = 'retries.none-after-401-403-404-409-410-422';
      const headers = (key: string, price?: string) => ({
        'x-partner-key': key,
        'x-svc-org': TOKEN,
        ...(price ? { 'x-svc-sandbox-reveal-price': price } : {}),
      });
      const NEW_KEY = `spk_live_${'c'.repeat(48)}`;
      expect(
        judge(id, [
          read(0, 401, { errorCode: 'invalid_partner_key', headers: headers(KEY) }),
          read(500, 'running', { headers: headers(NEW_KEY) }),
        ]).state,
      ).toBe('passed');
      expect(
        judge(id, [
          read(0, 422, { errorCode: 'invalid_request', headers: headers(KEY, '5000') }),
          read(500, 'running', { headers: headers(KEY, '500') }),
        ]).state,
      ).toBe('passed');
      // The same headers again: a retry.
      expect(
        judge(id, [
          read(0, 401, { errorCode: 'invalid_partner_key', headers: headers(KEY) }),
          read(500, 401, { headers: headers(KEY) }),
        ]).state,
      ).toBe('failed');
    });

    it("backoff: two recruiters polling one run, the other's poll soon after a 503 warns naming the reading; one poller's quick retry fails", () => {
      const id = 'retries.backoff-from-1s';
      // Recruiters A and B each poll every 5 s, B 300 ms after A; A's third read answers 503.
      const polls = [
        read(0, 'running'),
        read(300, 'running'),
        read(5000, 'running'),
        read(5300, 'running'),
        read(10_000, 503, { errorCode: 'rate_limit_unavailable' }),
        read(10_300, 'running'),
        read(11_100, 'running'),
      ];
      const v = judge(id, polls);
      expect(v.state).toBe('warning');
      expect(v.message).toContain('reading taken');
      // One recruiter polling every 5 s, retrying 300 ms after the 503: a retry without backoff.
      expect(
        judge(id, [
          read(0, 'running'),
          read(5000, 'running'),
          read(10_000, 503, { errorCode: 'rate_limit_unavailable' }),
          read(10_300, 'running'),
        ]).state,
      ).toBe('failed');
      // A refresh right after the client's own reveal is no second reader: the quick retry still fails.
      const refresh = [
        read(0, 'running'),
        req(5, { endpoint: 'reveal', runId: RUN, json: { acting_user_external_id: 'u' } }),
        read(10, 'running'),
      ];
      expect(
        judge(id, [...refresh, read(10_000, 503, { errorCode: 'rate_limit_unavailable' }), read(10_300, 'running')])
          .state,
      ).toBe('failed');
    });

    it("notices_shown: a code first served after the recruiter's last decision warns; one served before it still fails", () => {
      const id = 'decisions.notices-shown-reports-every-code';
      const fixtureRead = (at: number, codes: string[]) => fixtureRunRead(at, 'running', 'cert-slow', codes);
      const decided = decide(1000, 'rec-1', [item(7, '2026-01-01T00:00:01Z')], {
        json: {
          acting_user_external_id: 'rec-1',
          decisions: [item(7, '2026-01-01T00:00:01Z')],
          notices_shown: ['run_progress'],
        },
      });
      const later = judge(id, [
        fixtureRead(0, ['run_progress']),
        decided,
        fixtureRead(60_000, ['run_progress', 'location_relaxed']),
      ]);
      expect(later.state).toBe('warning');
      expect(later.message).toContain('after the recruiter');
      expect(judge(id, [fixtureRead(0, ['run_progress', 'location_relaxed']), decided]).state).toBe('failed');
    });

    it('notices_shown naming a warning code of the run start (rendered beside the requirement) warns naming the reading', () => {
      const id = 'decisions.notices-shown-reports-every-code';
      const start = req(0, {
        endpoint: 'runs-start',
        path: '/v1/runs',
        json: { job_external_id: 'cert-notices-all', acting_user_external_id: 'rec-1', target_count: 2 },
        status: 202,
        responseJson: {
          run_id: RUN,
          status: 'running',
          warnings: [{ code: 'short_term_may_be_dropped', index: 0 }],
          sandbox: { fixture: 'cert-notices-all' },
        },
      });
      const fixtureRead = fixtureRunRead(10, 'completed', 'cert-notices-all', ['run_funnel']);
      const report = (codes: string[]) =>
        decide(1000, 'rec-1', [item(7, '2026-01-01T00:00:01Z')], {
          json: {
            acting_user_external_id: 'rec-1',
            decisions: [item(7, '2026-01-01T00:00:01Z')],
            notices_shown: codes,
          },
        });
      const v = judge(id, [start, fixtureRead, report(['run_funnel', 'short_term_may_be_dropped'])]);
      expect(v.state).toBe('warning');
      expect(v.message).toContain('reading taken');
      expect(judge(id, [start, fixtureRead, report(['run_funnel', 'paid_fallback'])]).state).toBe('failed');
    });

    it('org token: the refused token carried along on the redeem that renews the connection warns naming the reading', () => {
      const id = 'org-token.not-used-after-invalid-org-token';
      const refused = read(0, 401, { errorCode: 'invalid_org_token' });
      const renew = req(1000, {
        endpoint: 'redeem',
        path: '/v1/activations/redeem',
        json: { code: 'SVC-AAAA-BBBB', external_id: 'org-1' },
      });
      const v = judge(id, [refused, renew]);
      expect(v.state).toBe('warning');
      expect(v.message).toContain('reading taken');
      expect(judge(id, [refused, read(1000, 'running')]).state).toBe('failed');
    });

    it('x-svc-lang sent empty warns naming the reading (an unset header), a wrong language still fails', () => {
      const lang = (v: string) =>
        read(0, 'running', { headers: { 'x-partner-key': KEY, 'x-svc-org': TOKEN, 'x-svc-lang': v } });
      const empty = judge('requests.lang-he-or-en', [lang('')]);
      expect(empty.state).toBe('warning');
      expect(empty.message).toContain('reading taken');
      expect(judge('requests.lang-he-or-en', [lang(''), lang('fr')]).state).toBe('failed');
    });

    it('run start: an identical start sent while the failed one was still in flight is concurrent, not a retry', () => {
      const id = 'retries.run-start-not-retried-after-5xx';
      const failed = runStart(0, { status: 500, errorCode: 'internal_error', answeredAt: 400 });
      expect(judge(id, [failed, runStart(100, { status: 202 })]).state).toBe('passed');
      expect(judge(id, [failed, runStart(100, { status: 202 }), runStart(900, { status: 202 })]).state).toBe('failed');
    });

    it('misses closed: a run start retried with an attempt counter of its own fails; a decisions batch refused 422 and never resent fails', () => {
      const body = START_BODY;
      const failed = runStart(0, { status: 500, errorCode: 'internal_error' });
      const retried = runStart(400, {
        query: 'attempt=2',
        json: { ...body, client_request_id: 'r-2' },
        status: 202,
      });
      expect(judge('retries.run-start-not-retried-after-5xx', [failed, retried]).state).toBe('failed');
      // …and after a pause too, when it is the third attempt.
      const third = { ...retried, id: nextId++, at: 4000, answeredAt: 4001, query: 'attempt=3' };
      expect(
        judge('retries.run-start-not-retried-after-5xx', [failed, { ...retried, at: 2000, answeredAt: 2001 }, third])
          .state,
      ).toBe('failed');
      // Another count is another run asked for.
      expect(
        judge('retries.run-start-not-retried-after-5xx', [failed, { ...retried, json: { ...body, target_count: 5 } }])
          .state,
      ).toBe('passed');
      const id = 'decisions.whole-batch-resent-after-422';
      const a = { candidate_id: 1, decision: 'shortlisted', reject_reason: null, occurred_at: 't' };
      const b = { candidate_id: 2, decision: 'rejected', reject_reason: 'zz_old', occurred_at: 't' };
      const refused = decide(0, 'rec-1', [a, b], {
        status: 422,
        errorCode: 'unknown_reject_reason',
        responseJson: { error: 'unknown_reject_reason', allowed: ['location'] },
      });
      expect(judge(id, [refused], [], { now: 120_000 }).state).toBe('failed');
      expect(judge(id, [refused], [], { now: 120_000 }).observations[0]?.received).toBe(
        'no later decisions call for the run by "rec-1"',
      );
      // Too soon to tell while the session runs.
      expect(judge(id, [refused], [], { now: 30_000, final: false }).state).toBe('pending');
      // A 422 whose refused item is not shown, never resent: warns naming the reading.
      expect(judge(id, [{ ...refused, errorCode: 'invalid_decision' }], [], { now: 120_000 }).state).toBe('warning');
    });

    it('an unknown error code on a POST: a client that retries failed reads only (as urllib3 does by default) warns, not fails', () => {
      const id = 'unknown-values.error-code-handled-by-status';
      const knownRead = [read(100_000, 503, { errorCode: 'rate_limit_unavailable' }), read(101_500, 'running')];
      const job = (at: number, over: Partial<PartnerRequest> = {}) =>
        req(at, { endpoint: 'jobs', path: '/v1/jobs', json: { external_id: 'j' }, ...over });
      const v = judge(id, [job(0, { status: 503, errorCode: 'zz_new_error' }), ...knownRead]);
      expect(v.state).toBe('warning');
      expect(v.message).toContain('reading taken');
      // A known 503 of a POST retried, the unknown one not: not handled by its status.
      const knownPost = knownFailureRetried('users', '/v1/users', 'u');
      expect(judge(id, [job(0, { status: 503, errorCode: 'zz_new_error' }), ...knownPost]).state).toBe('failed');
    });

    it('backoff: an identical read sent while the failed one was in flight is no retry', () => {
      const id = 'retries.backoff-from-1s';
      const failed = read(0, 503, { errorCode: 'rate_limit_unavailable', answeredAt: 40 });
      expect(judge(id, [failed, read(20, 'running')]).state).toBe('skipped');
      expect(judge(id, [failed, read(60, 'running')]).state).toBe('failed');
    });

    it('an unknown run status on a read prompted by a webhook, then silence, warns naming the reading; unprompted silence fails', () => {
      const id = 'unknown-values.unknown-run-status-read-as-running';
      const delivery = delivered(0, { event: 'candidate_revealed' });
      const v = judge(id, [read(1000, 'zz_new')], [delivery], { now: 100_000 });
      expect(v.state).toBe('warning');
      expect(v.message).toContain('reading taken');
      expect(judge(id, [read(0, 'running'), read(1000, 'zz_new')], [], { now: 100_000 }).state).toBe('failed');
    });
  });

  describe('what the wire shows of an action time, a note, a prompted read', () => {
    const T0 = Date.parse('2026-11-27T10:00:00Z');

    it('occurred_at: an action time in UTC passes, second or millisecond precision, sent at once or in a batch minutes later', () => {
      const id = 'decisions.occurred-at-is-action-time';
      expect(judge(id, [decide(T0 + 200, [item()])]).state).toBe('passed');
      expect(judge(id, [decide(T0 + 50, [item({ occurred_at: '2026-11-27T10:00:00.012Z' })])]).state).toBe('passed');
      // A batch sent four minutes after the actions keeps their times: right.
      expect(
        judge(id, [decide(T0 + 240_000, [item(), item({ candidate_id: 2, occurred_at: '2026-11-27T10:01:30Z' })])])
          .state,
      ).toBe('passed');
      // A few seconds of clock skew between the partner's server and the service is no offence.
      expect(judge(id, [decide(T0 - 5_000, [item()])]).state).toBe('passed');
    });

    it('occurred_at: local time written as UTC (hours after the sending), no zone, or before the run began fails; another offset warns', () => {
      const id = 'decisions.occurred-at-is-action-time';
      const ahead = judge(id, [decide(T0 - 3 * 3_600_000, [item()])]);
      expect(ahead.state).toBe('failed');
      expect(ahead.message).toContain('after the call arrived');
      const noZone = judge(id, [decide(T0, [item({ occurred_at: '2026-11-27T10:00:00' })])]);
      expect(noZone.state).toBe('failed');
      expect(noZone.message).toContain('ISO 8601 in UTC');
      const start = req(T0 + 3_600_000, {
        endpoint: 'runs-start',
        json: { job_external_id: 'cert-notices-all' },
        status: 202,
        responseJson: { run_id: RUN, status: 'running' },
      });
      const before = judge(id, [start, decide(T0 + 3_700_000, [item()])]);
      expect(before.state).toBe('failed');
      expect(before.message).toContain('before the run began');
      const offset = judge(id, [decide(T0, [item({ occurred_at: '2026-11-27T12:00:00+02:00' })])]);
      expect(offset.state).toBe('warning');
      expect(offset.message).toContain('reading taken: an offset names the instant exactly');
      expect(judge(id, [decide(T0, [item({ occurred_at: '2026-11-27T10:00:00+00:00' })])]).state).toBe('passed');
    });

    it('a note only with its decision: a note alone (or with no known decision) fails; with a decision passes; no note is conditional', () => {
      const id = 'decisions.note-only-with-decision';
      expect(judge(id, [decide(T0, [item({ note: 'call Monday' })])]).state).toBe('passed');
      const alone = judge(id, [decide(T0, [{ candidate_id: 1, note: 'call Monday', occurred_at: 'x' }])]);
      expect(alone.state).toBe('failed');
      expect(alone.message).toContain('there is no standalone note without a decision');
      expect(judge(id, [decide(T0, [item({ decision: 'note', note: 'n' })])]).state).toBe('failed');
      // An empty or null note is no note; a decision without a note is not judged.
      expect(judge(id, [decide(T0, [item({ note: null }), item({ decision: null, note: '' })])]).state).toBe('skipped');
      expect(rule(id).evidence).toBe('conditional');
    });

    it("polling: a read a webhook delivery or the user's own reveal prompted is no poll, and the next poll keeps its pace from the last poll", () => {
      const id = 'polling.running-run-read-at-most-every-5s';
      const delivery = (at: number): WebhookDelivery =>
        delivered(at, { event: 'candidate_revealed', status: 200, answeredAt: at + 3 });
      // 391 ms after a poll, prompted by a delivery: no poll. The poll 6 s after the first still passes.
      expect(judge(id, [read(0, 'running'), read(400, 'running'), read(6000, 'running')], [delivery(9)]).state).toBe(
        'passed',
      );
      // 42 ms after the client's own reveal on the run: a refresh.
      const first = read(0, 'running');
      const reveal = req(20, { endpoint: 'reveal', runId: RUN, json: { acting_user_external_id: 'rec-1' } });
      expect(judge(id, [first, reveal, read(62, 'running'), read(5000, 'running')]).state).toBe('passed');
      // Without the delivery or the reveal, the same reads are a 400 ms poll: the advisory warning.
      expect(judge(id, [read(0, 'running'), read(400, 'running'), read(5000, 'running')]).state).toBe('warning');
      // 30 minutes: a read prompted by a delivery after the limit is no poll either.
      const limit = 'polling.stops-after-30-min-running';
      const startedRun = req(0, {
        endpoint: 'runs-start',
        json: { job_external_id: 'job-1' },
        status: 202,
        responseJson: { run_id: RUN, status: 'running' },
      });
      const past = [
        startedRun,
        read(1_810_000, 'running'),
        read(1_900_000, 'running'),
        read(1_990_000, 'running'),
        read(2_080_000, 'running'),
      ];
      expect(judge(limit, past).state).toBe('warning');
      expect(judge(limit, past, [delivery(1_989_000), delivery(2_079_000)]).state).toBe('passed');
    });

    it('candidate ids: not yet exercised, the hint names a listed candidate above 2^53', () => {
      const listing = read(0, 'running', {
        responseText: `{"run_id":"${RUN}","status":"running","candidates":[{"id":12},{"id":9007199254740993}]}`,
      });
      const v = judge('requests.candidate-ids-exact', [listing], [], { final: false });
      expect(v.state).toBe('pending');
      expect(v.message).toContain('lists candidate 9007199254740993, above 2^53');
    });

    it('an unknown status on a read a webhook prompted, read again at the polling pace, passes', () => {
      const id = 'unknown-values.unknown-run-status-read-as-running';
      const delivery = delivered(0, { status: 200, answeredAt: 3 });
      expect(judge(id, [read(10, 'zz_new'), read(5_010, 'completed')], [delivery]).state).toBe('passed');
    });
  });

  // A rule that throws is an engine error of that rule alone (judge.test.ts); none should
  // throw on what a partner can send, however odd its JSON.
  it('no rule throws on hostile traffic (odd JSON shapes, missing headers, odd answers)', () => {
    const shapes: unknown[] = [
      null,
      [],
      'text',
      42,
      {},
      { decisions: 'x' },
      { decisions: [null, 1, 'y', { candidate_id: {}, occurred_at: [] }] },
      { description_text: 7 },
      { notices_shown: [1, null] },
      { code: 5 },
    ];
    const requests: PartnerRequest[] = [];
    for (const [i, json] of shapes.entries()) {
      for (const endpoint of [
        'redeem',
        'users',
        'jobs',
        'runs-start',
        'runs-read',
        'reveal',
        'decisions',
        'other',
      ] as const) {
        for (const status of [0, 200, 202, 402, 422, 503]) {
          requests.push(
            req(i * 1000, {
              endpoint,
              runId: RUN,
              json,
              status,
              lost: status === 0,
              headers: {},
              responseJson: json,
              ...(status >= 400 ? { errorCode: 'zz_odd' } : {}),
              responseHeaders: { 'retry-after': 'soon' },
            }),
          );
        }
      }
    }
    for (const final of [false, true]) {
      for (const r of rules) expect(() => r.judge({ requests, deliveries: [] }, ctx({ final })), r.id).not.toThrow();
    }
  });

  // Rules of the round that made every duty the certifier's to exercise, and the spec's readings behind them.
  describe('duties exercised by the certifier; rules added and readings corrected', () => {
    it('a later action on a candidate carries a new occurred_at: reusing the answered one fails; never acting again is conditional', () => {
      const id = 'decisions.later-action-new-occurred-at';
      const note = item({ note: 'call on Monday' });
      expect(judge(id, [decide(0, [item()]), decide(5000, [note])]).state).toBe('failed');
      expect(
        judge(id, [decide(0, [item()]), decide(5000, [{ ...note, occurred_at: '2026-11-27T10:05:00Z' }])]).state,
      ).toBe('passed');
      // A note on the same decision under the same instant, written another way, is the same occurred_at.
      expect(
        judge(id, [decide(0, [item()]), decide(5000, [{ ...note, occurred_at: '2026-11-27T10:00:00.000Z' }])]).state,
      ).toBe('failed');
      // Decided reading: two different decisions on one candidate in the same second, written with second
      // precision, are two entries (the service's key includes the decision): nothing lost, no offence.
      expect(judge(id, [decide(0, [item()]), decide(5000, [item({ decision: 'contacted' })])]).state).not.toBe(
        'failed',
      );
      // The same item again is a repeat (a retry), and a fix after a 422 follows no answered call: no later action.
      expect(judge(id, [decide(0, [item()]), decide(5000, [item()])]).state).toBe('skipped');
      const refused = decide(0, [item({ reject_reason: 'location' })], { status: 422, errorCode: 'invalid_decision' });
      expect(judge(id, [refused, decide(5000, [item()])]).state).toBe('skipped');
      const none = judge(id, [decide(0, [item()])]);
      expect(none.state).toBe('skipped');
      expect(none.message).toContain('the client never reported a later action');
    });

    it('a decisions call that failed or lost its answer is sent again; never resent before the end fails', () => {
      const id = 'decisions.failed-call-resent';
      const failed = decide(0, [item()], { status: 503, errorCode: 'rate_limit_unavailable' });
      expect(judge(id, [failed, decide(1500, [item()])]).state).toBe('passed');
      expect(judge(id, [failed], [], { now: 100_000 }).state).toBe('failed');
      const lost = decide(0, [item()], { status: 0, lost: true });
      expect(judge(id, [lost], [], { now: 100_000 }).state).toBe('failed');
      // A later note under a new occurred_at does not carry the lost decision.
      const later = decide(3000, [item({ note: 'n', occurred_at: '2026-11-27T10:09:00Z' })]);
      expect(judge(id, [failed, later], [], { now: 100_000 }).state).toBe('failed');
      // Stopped within the retry window: too soon to tell.
      expect(judge(id, [failed], [], { now: 30_000 }).state).toBe('skipped');
      // While the session runs: pending.
      expect(judge(id, [failed], [], { final: false, now: 100_000 }).state).toBe('pending');
    });

    it('a retry after a failure keeps occurred_at; a later note on the candidate is no retry', () => {
      const id = 'decisions.retry-keeps-occurred-at';
      const failed = decide(0, [item()], { status: 503, errorCode: 'rate_limit_unavailable' });
      const note = decide(40, [item({ note: 'later', occurred_at: '2026-11-27T10:09:00Z' })]);
      expect(judge(id, [failed, note, decide(1500, [item()])]).state).toBe('passed');
      expect(judge(id, [failed, decide(1500, [item({ occurred_at: '2026-11-27T10:01:00Z' })])]).state).toBe('failed');
    });

    it('candidate ids go back digit for digit: an id rounded through a double fails, the exact one passes', () => {
      const id = 'requests.candidate-ids-exact';
      const huge = '9007199254740993';
      const listed = read(0, 'running', {
        responseText: `{"run_id":"${RUN}","status":"running","candidates":[{"id":${huge}},{"id":3000000001}]}`,
      });
      const decided = (raw: string) =>
        req(100, {
          endpoint: 'decisions',
          runId: RUN,
          bodyText: `{"acting_user_external_id":"rec-1","decisions":[{"candidate_id":${raw},"decision":"shortlisted","occurred_at":"2026-11-27T10:00:00Z"}],"notices_shown":[]}`,
        });
      expect(judge(id, [listed, decided(huge)]).state).toBe('passed');
      const rounded = judge(id, [listed, decided('9007199254740992')]);
      expect(rounded.state).toBe('failed');
      expect(rounded.message).toContain('9007199254740993');
      const reveal = (raw: string) =>
        req(100, { endpoint: 'reveal', runId: RUN, path: `/v1/runs/${RUN}/candidates/${raw}/reveal`, json: {} });
      expect(judge(id, [listed, reveal('9007199254740992')]).state).toBe('failed');
      expect(judge(id, [listed, reveal(huge)]).state).toBe('passed');
      // Ids below 2^53 survive a double: they prove nothing either way.
      expect(judge(id, [listed, decided('3000000001')]).state).toBe('skipped');
    });

    it('a redeem carries no org token', () => {
      const id = 'requests.redeem-without-org-token';
      const redeem = (headers: Record<string, string>) =>
        req(0, { endpoint: 'redeem', json: { code: 'SVC-AAAA-BBBB', external_id: 'c' }, headers });
      expect(judge(id, [redeem({ 'x-partner-key': KEY })]).state).toBe('passed');
      expect(judge(id, [redeem({ 'x-partner-key': KEY, 'x-svc-org': TOKEN })]).state).toBe('failed');
    });

    it('cert-extra-fields: read and reported like the other fixture runs passes; left unreported while another was fails; never started is conditional', () => {
      const id = 'unknown-values.extra-fields-flow-completed';
      const EXTRA = '22222222-2222-4222-8222-222222222222';
      const start = (runId: string, fixture: string) =>
        req(0, {
          endpoint: 'runs-start',
          json: { job_external_id: fixture },
          status: 202,
          responseJson: { run_id: runId, status: 'running', sandbox: { fixture } },
        });
      const done = (runId: string) =>
        req(10, { endpoint: 'runs-read', runId, responseJson: { run_id: runId, status: 'completed', notices: [] } });
      const report = (runId: string) => decide(20, [], { runId });
      const other = [start(RUN, 'cert-notices-all'), done(RUN), report(RUN)];
      expect(judge(id, [...other, start(EXTRA, 'cert-extra-fields'), done(EXTRA), report(EXTRA)]).state).toBe('passed');
      const stopped = judge(id, [...other, start(EXTRA, 'cert-extra-fields'), done(EXTRA)]);
      expect(stopped.state).toBe('failed');
      expect(stopped.message).toContain('no decisions call for it was accepted');
      expect(judge(id, [...other, start(EXTRA, 'cert-extra-fields')]).state).toBe('failed');
      // No yardstick (the client reports no fixture run at all): nothing shows the fields stopped it.
      expect(judge(id, [start(EXTRA, 'cert-extra-fields'), done(EXTRA)]).state).toBe('skipped');
      const never = judge(id, other);
      expect(never.state).toBe('skipped');
      expect(never.message).toContain('never started a cert-extra-fields run');
    });

    it('an unknown 5xx is judged against a known 5xx retried, never against a 429 waited out', () => {
      const id = 'unknown-values.error-code-handled-by-status';
      const users = (at: number, over: Partial<PartnerRequest> = {}) =>
        req(at, { endpoint: 'users', path: '/v1/users', json: { external_id: 'u' }, ...over });
      const job = req(0, {
        endpoint: 'jobs',
        path: '/v1/jobs',
        json: { external_id: 'j' },
        status: 503,
        errorCode: 'zz_new_error',
      });
      const waited429 = [
        users(10_000, { status: 429, errorCode: 'rate_limited', responseHeaders: { 'retry-after': '1' } }),
        users(12_000),
      ];
      // Retrying every 429 and no 5xx handles the unknown 503 under the generic 5xx row: at most a warning.
      expect(judge(id, [job, ...waited429]).state).toBe('warning');
    });

    it('a refused read repeated by a second reader of the run warns; one in flight beside the refusal is no retry', () => {
      const id = 'retries.none-after-401-403-404-409-410-422';
      const polls = [read(0, 'running'), read(40, 'running')];
      const refused = read(1000, 401, { errorCode: 'invalid_org_token' });
      const v = judge(id, [...polls, refused, read(1050, 401, { errorCode: 'invalid_org_token' })]);
      expect(v.state).toBe('warning');
      expect(v.message).toContain("another reader's poll");
      expect(judge(id, [refused, read(1050, 401, { errorCode: 'invalid_org_token' })]).state).toBe('failed');
      const slow = read(1000, 401, { errorCode: 'invalid_org_token', answeredAt: 1200 });
      expect(judge(id, [slow, read(1100, 401, { errorCode: 'invalid_org_token' })]).state).toBe('passed');
    });
  });
});
