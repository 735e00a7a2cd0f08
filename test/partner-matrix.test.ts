// The partner matrix: scripted partner clients exercise `svc-certify partner` over loopback (the same
// session the command runs, src/partner/start-partner.ts: its sandbox with the recorder, injections and judge). The client that follows
// every rule passes; each client with one bad habit fails exactly the rule meant for it, or, when that rule
// is advisory (client guidance: the polling rules), warns on exactly it and fails nothing. Prints the figure.
//
// Verdicts (docs/design.md, Verdict): a client that exercises the whole checklist and breaks nothing is
// `certified` (exit 0); one that exercises only part of it is `incomplete` (exit 3: the rules it left out
// are not-exercised skips), whatever it did right; a broken duty is `not-certified` (exit 1). The conformant
// client sends nothing only a judge would want (no simulate header, no invalid value, no forged token): the
// injections make every situation a duty needs, and only the rules judging a situation the client's own
// choices create (declared `conditional`) may stay unexercised, and they end not-applicable.

import { Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPartner, type PartnerOptions } from '../src/partner/start-partner.js';
import type { RunResult } from '../src/runner/results.js';
import { decideVerdict } from '../src/runner/verdict.js';
import { startSandbox } from '../src/sandbox/index.js';
import { INJECTION_POINTS } from '../src/partner/injections.js';
import { partnerRules } from '../src/partner/rules/index.js';
import type { InjectionId, Traffic } from '../src/partner/traffic.js';

const isInjectionId = (id: string): id is InjectionId => INJECTION_POINTS.some((p) => p.id === id);
import {
  ALL_PARTS,
  CHECKLIST_PARTS,
  exercise,
  PartnerClient,
  PartnerWebhookEndpoint,
  type Habits,
  type Part,
} from './support/partner-client.js';

interface Case {
  name: string;
  habits: Habits;
  /** The one rule this client must fail (a duty). */
  fails?: string;
  /**
   * The one rule this client must warn on, failing nothing: an advisory rule (client guidance), or a duty
   * whose text does not make the habit an offence (the partner key in a request body: Authentication 7).
   */
  warns?: string;
  /**
   * A conformant client whose traffic a duty may read two ways: nothing fails, at most this rule warns
   * (naming the reading), and the verdict is the clean one (certified for a whole session).
   */
  mayWarn?: string;
  /** High enough to keep the test short; each session has its own sandbox, so scales may differ. */
  timeScale?: number;
  parts?: Part[];
  /** Injections turned off (--skip-injection), or all of them with `false` (--no-inject). */
  inject?: false | string[];
  /** How long (spec ms) the session stays open after the client is done; default 30 s, the polling rules' quiet window. */
  quietMs?: number;
}

const SCALE = 100;

const CASES: Case[] = [
  { name: 'follows every rule', habits: {} },
  // --no-inject: nothing injected, nothing blamed; the rules only injections exercise are left unexercised.
  { name: 'follows every rule with injections off', habits: {}, inject: false },
  {
    name: 'follows every rule on a run held running past 30 minutes',
    habits: { pollEveryMs: 60_000 },
    timeScale: 600,
    parts: ['connect', 'held-run'],
  },
  // At scale 20 the 5 s are 250 ms and the bad habit's second 50 ms: a loaded machine cannot stretch one into the other.
  // Polling is client guidance (spec, Limits: "answer when exceeded: none"): these habits warn, never fail.
  {
    name: 'polls every second',
    habits: { pollEveryMs: 1000, leaveAfterReads: 8 },
    warns: 'polling.running-run-read-at-most-every-5s',
    timeScale: 20,
    parts: ['connect', 'slow'],
  },
  // At scale 20 the five reads after completion are 250 ms apart within a quiet window of 1.5 s: a loaded
  // machine stretching them (at scale 100, 50 ms apart in 300 ms) no longer pushes them out of it, and only
  // the first can fall within the 250 ms in which the run_completed delivery prompts a read.
  {
    name: 'polls after completion',
    habits: { pollAfterCompletion: true },
    warns: 'polling.stops-at-completed-or-failed',
    parts: ['connect', 'slow'],
    timeScale: 20,
  },
  // At scale 300 the reads past the limit are 200 ms apart over 1 s: a loaded core stalling the client a few
  // hundred ms still leaves more than the one read of grace (at 600 it once left one).
  {
    name: 'polls past 30 minutes of running',
    habits: { pollEveryMs: 60_000, pollPast30Min: true },
    warns: 'polling.stops-after-30-min-running',
    timeScale: 300,
    parts: ['connect', 'held-run'],
  },
  // An automatic retry loop resends the refused start at once: sooner than a person can act (1 s is 250 ms
  // at scale 4, far above a loopback round trip on a loaded core). The 429 is skipped: its Retry-After would be 8 s.
  {
    name: 'an automatic retry loop resends the run start after the 500',
    habits: { retryRunStartAfter500: true },
    fails: 'retries.run-start-not-retried-after-5xx',
    parts: ['connect', 'failed-fixture'],
    timeScale: 4,
    inject: ['rate-limited-429'],
    quietMs: 4_000,
  },
  {
    name: 'redeems the code again after the lost answer',
    habits: { retryRedeem: true },
    fails: 'retries.redeem-not-retried-after-lost-answer',
    parts: ['connect'],
  },
  {
    name: 'ignores Retry-After',
    habits: { ignoreRetryAfter: true },
    fails: 'retries.retry-after-honoured',
    parts: ['connect'],
  },
  // 1 s of backoff is 250 ms at scale 4: an immediate retry stays below it even when a loaded CI core
  // delays the client's event loop (at scale 10 it once did not).
  {
    name: 'retries without backoff',
    habits: { noBackoff: true },
    fails: 'retries.backoff-from-1s',
    timeScale: 4,
    parts: ['connect', 'reveal'],
  },
  {
    name: 'retries a 422',
    habits: { retry422: true },
    fails: 'retries.none-after-401-403-404-409-410-422',
    parts: ['connect', 'refused'],
  },
  {
    name: 'puts the org token in a query string',
    habits: { orgTokenInQuery: true },
    fails: 'secrets.not-in-url',
    parts: ['connect'],
  },
  // Authentication 7 does not list request bodies to the service: the issued key in a body warns, never fails.
  {
    name: 'copies the partner key into a request body',
    habits: { keyInBody: true },
    warns: 'secrets.not-in-body',
    parts: ['connect', 'real-run'],
  },
  {
    name: 'posts a job as text/plain',
    habits: { jobAsTextPlain: true },
    fails: 'requests.post-content-type-json',
    parts: ['connect', 'real-run'],
  },
  {
    name: 'gives a failing read a fourth attempt',
    habits: { fourAttempts: true },
    fails: 'retries.at-most-3-attempts',
    parts: ['connect', 'outage'],
  },
  {
    name: 'reports only the unknown notice codes',
    habits: { omitKnownNotices: true },
    fails: 'decisions.notices-shown-reports-every-code',
    parts: ['connect', 'fixtures'],
  },
  {
    name: 'reports no unknown notice code',
    habits: { omitUnknownNotices: true },
    fails: 'decisions.notices-shown-includes-unknown-codes',
    parts: ['connect', 'fixtures'],
  },
  {
    name: 'sends a reject_reason with a shortlisting',
    habits: { reasonOnShortlist: true },
    fails: 'decisions.reject-reason-only-with-rejected',
    parts: ['connect', 'fixtures'],
  },
  {
    name: 'keeps using a refused org token',
    habits: { reuseRefusedOrgToken: true },
    fails: 'org-token.not-used-after-invalid-org-token',
    parts: ['connect', 'org-token'],
  },
  {
    name: 'acknowledges a bad signature',
    habits: { ackBadSignature: true },
    fails: 'webhooks.bad-signature-refused',
    parts: ['connect', 'webhooks'],
  },
  {
    name: 'answers webhooks with a redirect',
    habits: { redirectWebhooks: true },
    fails: 'webhooks.valid-deliveries-never-redirected',
    parts: ['connect', 'webhooks'],
  },
  {
    name: 'answers webhooks with 500',
    habits: { failWebhooks: true },
    fails: 'webhooks.valid-deliveries-acknowledged-2xx',
    parts: ['connect', 'webhooks'],
  },
  {
    name: 'acts again on a repeated event_id',
    habits: { actOnRepeatedEvent: true },
    fails: 'webhooks.repeated-event-id-not-acted-on-again',
    parts: ['connect', 'webhooks'],
  },
  // Duties judged from the client's traffic since the judge's second round.
  {
    name: 'creates its job without x-partner-key',
    habits: { noPartnerKeyOnJob: true },
    fails: 'requests.partner-key-on-every-request',
    parts: ['connect', 'real-run'],
  },
  {
    name: 'creates its job without x-svc-org',
    habits: { noOrgTokenOnJob: true },
    fails: 'requests.org-token-on-every-request-but-redeem',
    parts: ['connect', 'real-run'],
  },
  { name: 'sends x-svc-lang en-US', habits: { langEnUs: true }, fails: 'requests.lang-he-or-en', parts: ['connect'] },
  {
    name: 'sends the job description as HTML',
    habits: { htmlDescription: true },
    fails: 'requests.job-description-plain-text',
    parts: ['connect', 'real-run'],
  },
  {
    name: 'retries a reveal refused with 402',
    habits: { retryAfter402: true },
    fails: 'retries.none-after-402-insufficient-credits',
    parts: ['connect', 'credits'],
  },
  {
    name: 'retries decisions with a new occurred_at',
    habits: { newOccurredAtOnRetry: true },
    fails: 'decisions.retry-keeps-occurred-at',
    parts: ['connect', 'fixtures'],
  },
  // The lost answer alone (decisions-503 off): the first call carrying a decision is stored, its answer lost.
  {
    name: 'retries decisions with a new occurred_at after a lost answer',
    habits: { newOccurredAtOnRetry: true },
    fails: 'decisions.retry-keeps-occurred-at',
    parts: ['connect', 'fixtures'],
    inject: ['decisions-503'],
  },
  {
    name: 'resends only the fixed decision after a 422',
    habits: { dropValidAfter422: true },
    fails: 'decisions.whole-batch-resent-after-422',
    parts: ['connect', 'batch-fix'],
  },
  {
    name: 'stops polling on an unknown run status',
    habits: { stopOnUnknownStatus: true },
    fails: 'unknown-values.unknown-run-status-read-as-running',
    parts: ['connect', 'slow'],
    quietMs: 250_000,
  },
  // The yardstick is a known 5xx of a POST it retried (the injected decisions 503), not the 429 it waited out.
  {
    name: 'gives up on a 503 with an unknown error code',
    habits: { giveUpOnUnknownErrorCode: true },
    fails: 'unknown-values.error-code-handled-by-status',
    parts: ['connect', 'fixtures', 'real-run'],
  },
  // One resend after a pause, with nothing of the recruiter in between: a queue retrying three minutes
  // later, or a recruiter clicking again by hand after reading the error; the wire cannot tell them apart,
  // so the duty warns naming both readings (a resend under 1 s, or a second one, fails: the loop above).
  {
    name: 'a job queue retries the run start once, three minutes later',
    habits: { retryRunStartLater: true },
    warns: 'retries.run-start-not-retried-after-5xx',
    parts: ['connect', 'failed-fixture'],
    timeScale: 50,
  },
  // The whole integration, the recruiter starting the refused fixture again by hand once, 3 s later:
  // certified. The same recruiter's other work in between shows a new action (passed); with nothing of
  // theirs in between it reads two ways (a warning naming the reading), never a failure.
  {
    name: 'the recruiter starts the refused run again by hand once, after a pause',
    habits: { restartByHandOnce: true },
    mayWarn: 'retries.run-start-not-retried-after-5xx',
  },
  // Conformant alternatives of a whole integration: each is certified with nothing failed or warned.
  // Runs followed by webhook only (read when run_completed arrives; an unknown status read again at the
  // polling pace), decisions that failed resent from an outbox four minutes (spec time) later, beyond any
  // retry window, with their occurred_at. At scale 50 a read prompted by a webhook lands well within 5 s.
  {
    name: 'follows runs by webhook only and resends decisions from an outbox',
    habits: { webhookFirst: true },
    timeScale: 50,
  },
  // The session checklist with one customer: its token is revoked once every other duty is judged.
  { name: 'performs the session checklist with one customer', habits: {}, parts: CHECKLIST_PARTS },
  // The same without revealing: incomplete, and the rules left out name the step.
  {
    name: 'skips the reveal step of the checklist',
    habits: {},
    parts: CHECKLIST_PARTS.filter((p) => p !== 'reveal' && p !== 'credits' && p !== 'keep-working'),
  },
  // The recruiter's action time: local time written as UTC is hours after the sending.
  {
    name: 'writes local time as UTC in occurred_at',
    habits: { occurredAtLocalAsUtc: true },
    fails: 'decisions.occurred-at-is-action-time',
    parts: ['connect', 'fixtures'],
  },
  {
    name: 'sends a note without its decision',
    habits: { noteWithoutDecision: true },
    fails: 'decisions.note-only-with-decision',
    parts: ['connect', 'fixtures'],
  },
  // Rules added since: each duty of the spec, each with the one habit that breaks it.
  {
    name: 'rounds candidate ids through a float',
    habits: { floatIds: true },
    fails: 'requests.candidate-ids-exact',
    parts: ['connect', 'real-run-followed'],
  },
  {
    name: 'sends its org token on the redeem of another customer',
    habits: { orgTokenOnRedeem: true },
    fails: 'requests.redeem-without-org-token',
    parts: ['connect', 'org-token'],
  },
  {
    name: 'stops at the unknown fields of cert-extra-fields',
    habits: { chokeOnExtraFields: true },
    fails: 'unknown-values.extra-fields-flow-completed',
    parts: ['connect', 'fixtures', 'reveal'],
  },
  {
    name: 'sends a later note with the occurred_at of the decision',
    habits: { reuseOccurredAtForNote: true },
    fails: 'decisions.later-action-new-occurred-at',
    parts: ['connect', 'fixtures'],
  },
  // The failed call must be settled before the session ends: 2.5 s real at scale 100, beyond the retry window.
  {
    name: 'gives up on a decisions call that failed',
    habits: { dropFailedDecisions: true },
    fails: 'decisions.failed-call-resent',
    parts: ['connect', 'fixtures'],
    quietMs: 250_000,
  },
];

/**
 * Rules that judge a situation only the client's own choices create (the evidence model's `conditional`
 * kind): a conformant client that never creates it leaves them not exercised, each with the reason.
 */
const CONDITIONAL_RULES = partnerRules(() => []).filter((r) => r.evidence === 'conditional');
const CONDITIONAL = new Set(CONDITIONAL_RULES.map((r) => r.id));

const silent = new Writable({ write: (_c, _e, done) => done() });

/** What each client sent that only a judge would want: simulate headers, per case. */
const judgeOnly = new Map<string, string[]>();
/** The recorded traffic of each case. */
const trafficOf = new Map<string, Traffic>();

async function certifyClient(c: Case): Promise<{ result: RunResult; code: number }> {
  const endpoint = new PartnerWebhookEndpoint(c.habits);
  const url = await endpoint.listen();
  const dir = mkdtempSync(join(tmpdir(), 'svc-partner-'));
  const timeScale = c.timeScale ?? SCALE;
  const opts: PartnerOptions = {
    host: '127.0.0.1',
    port: 0,
    mode: 'sandbox',
    rateLimit: 120,
    allowLoopbackWebhooks: true,
    inject: c.inject !== false,
    skipInjections: Array.isArray(c.inject) ? c.inject.filter(isInjectionId) : [],
    timeScale,
    webhookUrl: url,
    provision: join(dir, 'provision.json'),
    report: { reportDir: dir, reporters: ['json'], strict: false, quiet: false },
  };
  // What the CLI does around the session (src/cli/partner-command.ts), minus writing the provision file.
  const partner = await startPartner(opts, { stream: silent, interactive: false, color: false }, async (hooks) => {
    const sandbox = await startSandbox({ timeScale, allowLoopbackWebhooks: true, hooks });
    return {
      baseUrl: sandbox.baseUrl,
      provision: sandbox.provision({ webhookUrl: url }),
      close: () => sandbox.close(),
    };
  });
  try {
    endpoint.secret = partner.provision.webhook_secret;
    const client = new PartnerClient(partner.provision, c.habits, timeScale);
    client.endpoint = endpoint;
    await exercise(client, endpoint, c.parts ?? ALL_PARTS);
    // Lets the judge's quiet window pass (no poll within 30 s spec time after completed; a run with an
    // unknown status not read for a minute, and at least 2 s real).
    await new Promise((r) => setTimeout(r, (c.quietMs ?? 30_000) / timeScale + 50));
  } finally {
    await endpoint.close();
  }
  trafficOf.set(c.name, partner.session.recorder.traffic());
  judgeOnly.set(
    c.name,
    partner.session.recorder
      .traffic()
      .requests.filter((r) => r.headers['x-svc-sandbox-simulate'] !== undefined)
      .map((r) => `${r.method} ${r.path}`),
  );
  return partner.stop();
}

const ADVISORY_NOTE = '(advisory: client guidance, not a duty)';
/** Duties a bad habit only warns on: what the habit does, the spec does not forbid outright. */
const DUTY_WARNINGS = new Set(['secrets.not-in-body', 'retries.run-start-not-retried-after-5xx']);

/** The rule a bad habit is caught on (failed, or warned when advisory); undefined for a conformant client. */
const caughtOn = (c: Case): string | undefined => c.fails ?? c.warns;

interface Outcome {
  failed: string[];
  warned: string[];
  result: RunResult;
  code: number;
}

const outcomes = new Map<string, Outcome>();

/** Whether the session caught the habit on exactly its rule (and nothing else failed), or found a conformant client clean. */
function asExpected(c: Case, o: Outcome): boolean {
  if (c.fails) return o.failed.length === 1 && o.failed[0] === c.fails;
  if (c.warns) return o.failed.length === 0 && o.warned.length === 1 && o.warned[0] === c.warns;
  return o.failed.length === 0 && o.warned.every((id) => id === c.mayWarn);
}

/**
 * Nothing failed: certified (exit 0) if the client exercised the whole checklist, else incomplete (exit 3),
 * and then only because rules were not exercised (never a missing flag: every session has --webhook-url).
 */
function expectCleanVerdict(result: RunResult, code: number, why: string): void {
  // A conditional rule whose situation the client never created is not-applicable: nothing left out.
  const leftOut = result.checks.filter((x) => x.status === 'skipped' && !x.advisory && x.skipKind !== 'not-applicable');
  expect(
    leftOut.every((x) => x.skipKind === 'not-exercised'),
    leftOut.map((x) => `${x.id}: ${x.skipKind}`).join('\n'),
  ).toBe(true);
  if (leftOut.length === 0) {
    expect(result.verdict, why).toBe('certified');
    expect(code).toBe(0);
  } else {
    expect(result.verdict, why).toBe('incomplete');
    expect(code).toBe(3);
    expect(result.missing!.flatMap((m) => m.checks).sort()).toEqual(leftOut.map((x) => x.id).sort());
  }
}

describe('partner matrix: scripted partner clients over loopback', () => {
  afterAll(() => {
    const bad = CASES.filter((c) => caughtOn(c));
    const caught = bad.filter((c) => {
      const o = outcomes.get(c.name);
      return o !== undefined && asExpected(c, o);
    });
    const good = CASES.filter((c) => !caughtOn(c)).filter((c) => {
      const o = outcomes.get(c.name);
      return o !== undefined && asExpected(c, o) && (o.code === 0 || o.code === 3);
    });
    const rules = new Set(bad.map(caughtOn));
    const warnsOnly = bad.filter((c) => c.warns && !DUTY_WARNINGS.has(c.warns)).length;
    const dutyWarns = bad.filter((c) => c.warns && DUTY_WARNINGS.has(c.warns)).length;
    const total = outcomes.get('follows every rule')?.result.checks.length ?? 0;
    const lines = CASES.map((c) => {
      const o = outcomes.get(c.name);
      const found = !o
        ? 'not run'
        : [
            o.failed.length ? `failed ${o.failed.join(', ')}` : '',
            o.warned.length ? `warned ${o.warned.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; ') || 'passed';
      return `  ${caughtOn(c) ? '✗' : '✓'} ${c.name.padEnd(58)} ${found}${o ? ` (${o.result.verdict}, exit ${o.code})` : ''}`;
    });
    console.log(
      `partner matrix: ${caught.length}/${bad.length} bad habits detected on exactly their rule ` +
        `(${bad.length - warnsOnly - dutyWarns} fail a duty, ${dutyWarns} warn on a duty, ${warnsOnly} warn on advisory guidance; ${rules.size} of ${total} rules); ` +
        `${good.length}/${CASES.length - bad.length} conformant clients pass\n${lines.join('\n')}`,
    );
  });

  it.concurrent.each(CASES)('$name', async (c) => {
    const { result, code } = await certifyClient(c);
    const failed = result.checks.filter((x) => x.status === 'failed').map((x) => x.id);
    const warned = result.checks.filter((x) => x.status === 'warning').map((x) => x.id);
    outcomes.set(c.name, { failed, warned, result, code });
    const why = result.checks
      .filter((x) => x.status === 'failed' || x.status === 'warning' || x.status === 'error')
      .map((x) => `${x.id}: ${x.status} ${x.message}`)
      .join('\n');
    // No rule of the judge ever breaks, whatever the client does.
    expect(
      result.checks.filter((x) => x.status === 'error').map((x) => x.id),
      why,
    ).toEqual([]);
    const target = caughtOn(c);
    if (target) {
      const check = result.checks.find((x) => x.id === target)!;
      if (c.fails) {
        expect(failed, why).toEqual([c.fails]);
        expect(check.advisory).toBeUndefined();
        expect(result.verdict).toBe('not-certified');
        expect(code).toBe(1);
      } else {
        // Guidance (or a duty's two-way text) only warns: exactly its rule, nothing failed, and the gate does
        // not close without --strict.
        expect(failed, why).toEqual([]);
        expect(warned, why).toEqual([c.warns]);
        if (DUTY_WARNINGS.has(c.warns!)) expect(check.advisory).toBeUndefined();
        else {
          expect(check.advisory).toBe(true);
          expect(check.message.endsWith(ADVISORY_NOTE), check.message).toBe(true);
        }
        expect(check.observations.length).toBeGreaterThan(0);
        expect(check.observations.every((o) => o.severity === 'warning')).toBe(true);
        expectCleanVerdict(result, code, why);
        // --strict turns the warning into a failed gate.
        expect(decideVerdict(result, true).verdict).toBe('not-certified');
      }
      // Evidence: the partner's offending requests (or deliveries) with their times, secrets redacted.
      expect(check.exchanges.length).toBeGreaterThan(0);
      expect(check.exchanges.every((e) => !Number.isNaN(Date.parse(e.startedAt)))).toBe(true);
      expect(JSON.stringify(result)).not.toMatch(/(spk_live_|sot_)[0-9a-f]{13}/);
    } else {
      expect(failed, why).toEqual([]);
      expect(
        warned.filter((id) => id !== c.mayWarn),
        why,
      ).toEqual([]);
      expectCleanVerdict(result, code, why);
    }
  });

  it('every rule is the one rule of some bad habit; exactly the advisory ones (and the listed duty warnings) are caught by a warning', () => {
    const checks = outcomes.get('follows every rule')!.result.checks;
    const all = checks.map((x) => x.id).sort();
    expect([...new Set(CASES.flatMap((c) => (caughtOn(c) ? [caughtOn(c)!] : [])))].sort()).toEqual(all);
    const advisory = checks
      .filter((x) => x.advisory)
      .map((x) => x.id)
      .sort();
    expect(CASES.flatMap((c) => (c.warns && !DUTY_WARNINGS.has(c.warns) ? [c.warns] : [])).sort()).toEqual(advisory);
    expect([...new Set(CASES.flatMap((c) => (c.warns && DUTY_WARNINGS.has(c.warns) ? [c.warns] : [])))].sort()).toEqual(
      [...DUTY_WARNINGS].sort(),
    );
  });

  it('the conformant client that exercises the whole checklist is certified; its partial twins are incomplete, never certified', () => {
    const full = outcomes.get('follows every rule')!;
    // Nothing it sent was for the judge alone: no simulate header, no forged token.
    expect(judgeOnly.get('follows every rule')).toEqual([]);
    // (the recorder sees the header: the outage habit's client sends it)
    expect(judgeOnly.get('gives a failing read a fourth attempt')!.length).toBeGreaterThan(0);
    // The conditional rules whose situation this client never created end not-applicable: nothing missing.
    expect((full.result.missing ?? []).flatMap((m) => m.checks)).toEqual([]);
    expect(full.result.verdict).toBe('certified');
    expect(full.code).toBe(0);
    const held = outcomes.get('follows every rule on a run held running past 30 minutes')!;
    expect(held.result.verdict).toBe('incomplete');
    expect(held.code).toBe(3);
    expect(held.result.missing!.length).toBeGreaterThan(0);
    expect(held.result.missing!.every((m) => m.kind === 'not-exercised')).toBe(true);
  });

  it('the conformant client exercises every rule but the 30-minute limit (its held-run twin does) and conditional ones it gave no occasion', () => {
    const full = outcomes.get('follows every rule')!;
    const notPassed = full.result.checks.filter((x) => x.status !== 'passed');
    const listing = notPassed.map((x) => `${x.id}: ${x.status} ${x.message}`).join('\n');
    expect(
      notPassed.every((x) => x.id === 'polling.stops-after-30-min-running' || CONDITIONAL.has(x.id)),
      listing,
    ).toBe(true);
    // A conditional rule left out is not applicable and says why: the situation never arose.
    for (const x of notPassed.filter((c) => CONDITIONAL.has(c.id))) {
      expect(x, listing).toMatchObject({ status: 'skipped', skipKind: 'not-applicable' });
      expect(x.message).toBe(CONDITIONAL_RULES.find((r) => r.id === x.id)?.notApplicableWhen);
    }
    // Advisory: left unexercised, it does not keep the full client from its certificate.
    expect(full.result.checks.find((x) => x.id === 'polling.stops-after-30-min-running')).toMatchObject({
      status: 'skipped',
      skipKind: 'not-exercised',
      advisory: true,
    });
    const held = outcomes.get('follows every rule on a run held running past 30 minutes')!;
    expect(held.result.checks.find((x) => x.id === 'polling.stops-after-30-min-running')?.status).toBe('passed');
    // One sandbox, one signal: no terminal webhook for the held run while its reads say running.
    const traffic = trafficOf.get('follows every rule on a run held running past 30 minutes')!;
    const heldReads = traffic.requests.filter((r) => r.injected === 'run-held-running');
    expect(heldReads.length).toBeGreaterThan(0);
    const heldRun = heldReads[0]!.runId;
    const lastRunning = Math.max(...heldReads.map((r) => r.answeredAt));
    expect(
      traffic.deliveries.filter(
        (d) =>
          d.runId === heldRun &&
          (d.event === 'run_completed' || d.event === 'run_failed') &&
          d.startedAt <= lastRunning,
      ),
    ).toEqual([]);
  });

  it('the session checklist: one customer performing every step is certified; skipping a step is incomplete, naming it', () => {
    for (const name of [
      'performs the session checklist with one customer',
      'follows runs by webhook only and resends decisions from an outbox',
      'the recruiter starts the refused run again by hand once, after a pause',
    ]) {
      const o = outcomes.get(name)!;
      expect(o.result.verdict, name).toBe('certified');
      expect(o.code, name).toBe(0);
    }
    // One customer: the org-token rule is judged on its token, revoked once the other duties were judged.
    const one = outcomes.get('performs the session checklist with one customer')!;
    expect(one.result.checks.find((x) => x.id === 'org-token.not-used-after-invalid-org-token')?.status).toBe('passed');
    expect(
      trafficOf
        .get('performs the session checklist with one customer')!
        .requests.filter((r) => r.endpoint === 'redeem' && r.status === 200).length,
    ).toBeLessThanOrEqual(3);
    // The outbox resent its failed decisions past the retry window, and the rule judged them by occurred_at.
    const outbox = outcomes.get('follows runs by webhook only and resends decisions from an outbox')!;
    expect(outbox.result.checks.find((x) => x.id === 'decisions.retry-keeps-occurred-at')?.status).toBe('passed');
    expect(outbox.result.checks.find((x) => x.id === 'unknown-values.unknown-run-status-read-as-running')?.status).toBe(
      'passed',
    );
    const skipped = outcomes.get('skips the reveal step of the checklist')!;
    expect(skipped.result.verdict).toBe('incomplete');
    expect(skipped.code).toBe(3);
    const reveal = skipped.result.checks.find((x) => x.id === 'retries.none-after-402-insufficient-credits')!;
    expect(reveal.status).toBe('skipped');
    expect(reveal.message).toContain('checklist step 7 (reveal a candidate');
    expect(skipped.result.missing!.flatMap((m) => m.checks)).toContain('retries.none-after-402-insufficient-credits');
  });

  it('--no-inject still works: nothing injected, nothing blamed, the rules only injections exercise are left to the partner', () => {
    const off = outcomes.get('follows every rule with injections off')!;
    expect(off.result.verdict).toBe('incomplete');
    const skipped = off.result.checks.filter((x) => x.status === 'skipped').map((x) => x.id);
    for (const id of [
      'retries.run-start-not-retried-after-5xx',
      'retries.retry-after-honoured',
      'decisions.retry-keeps-occurred-at',
      'unknown-values.unknown-run-status-read-as-running',
      'unknown-values.error-code-handled-by-status',
      'retries.none-after-402-insufficient-credits',
      'org-token.not-used-after-invalid-org-token',
      'decisions.failed-call-resent',
    ]) {
      expect(skipped, id).toContain(id);
    }
    // With injections on, nothing is left: the difference is the injections alone.
    expect((outcomes.get('follows every rule')!.result.missing ?? []).flatMap((m) => m.checks)).toEqual([]);
  });
});
