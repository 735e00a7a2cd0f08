// The judge between the rules and the reports: every rule's verdict goes through the one outcome model
// (runner/outcome.ts). A rule that throws is an `error` of that rule alone (the other rules are still
// judged, the session goes on); a rule the traffic never reached is a `not-exercised` skip (a
// `needs-input` one when only a flag could let it be reached, `not-applicable` when only the partner's own
// choices create its situation); an advisory rule's offences only warn.

import { describe, expect, it } from 'vitest';
import { judgeContext } from '../../test/support/judge-context.js';
import { createRedactor } from '../config/redact.js';
import { leavesIncomplete, summarize, type CheckResult } from '../runner/results.js';
import { decideVerdict } from '../runner/verdict.js';
import { judgeAll, toCheckResult } from './judge.js';
import { partnerRules, type Rule } from './rules/index.js';
import type { JudgeContext, PartnerRequest, Traffic } from './traffic.js';

const KEY = `spk_live_${'a'.repeat(48)}`;
const TOKEN = `sot_${'b'.repeat(48)}`;
const RUN = '11111111-1111-4111-8111-111111111111';
const rules = partnerRules(() => [KEY]);
const rule = (id: string): Rule => rules.find((r) => r.id === id)!;
const redactor = createRedactor([{ value: KEY, envVar: 'SVC_PARTNER_KEY' }]);
const opts = { origin: 'http://127.0.0.1:8080', redactor, durationMs: 5 };
const ctx = judgeContext;

let nextId = 1;
function read(at: number, status: string, query = ''): PartnerRequest {
  return {
    id: nextId++,
    at,
    answeredAt: at + 1,
    method: 'GET',
    path: `/v1/runs/${RUN}`,
    query,
    headers: { 'x-partner-key': KEY, 'x-svc-org': TOKEN },
    bodyText: '',
    status: 200,
    lost: false,
    responseHeaders: {},
    responseText: '',
    endpoint: 'runs-read',
    runId: RUN,
    responseJson: { run_id: RUN, status, notices: [] },
  };
}

function throwing(id: string, thrown: unknown): Rule {
  return {
    id,
    title: 'a rule with a defect',
    suite: 'secrets',
    spec: [...rule('secrets.not-in-url').spec],
    hint: 'nothing',
    evidence: 'provoked',
    judge: () => {
      throw thrown;
    },
  };
}

const checksOf = (judgedRules: readonly Rule[], traffic: Traffic, c: Partial<JudgeContext> = {}): CheckResult[] =>
  judgeAll(judgedRules, traffic, ctx(c)).map((j) => toCheckResult(j, traffic, opts));

describe('partner judge', () => {
  it('a rule that throws ends `error` (an engine error, not a skip); the rules after it are still judged', () => {
    const traffic: Traffic = { requests: [read(0, 'running', `org=${TOKEN}`)], deliveries: [] };
    const judgedRules = [
      rule('secrets.not-in-body'),
      throwing('secrets.broken', new TypeError('boom')),
      rule('secrets.not-in-url'),
      throwing('secrets.broken-string', 'bare string'),
    ];
    const judged = judgeAll(judgedRules, traffic, ctx());
    expect(judged.map((j) => j.rule.id)).toEqual(judgedRules.map((r) => r.id));
    expect(judged[1]!.error).toBeInstanceOf(TypeError);
    expect(judged[3]!.error).toBeInstanceOf(Error);
    expect(judged[0]!.error).toBeUndefined();

    const checks = judged.map((j) => toCheckResult(j, traffic, opts));
    const byId = new Map(checks.map((c) => [c.id, c]));
    const broken = byId.get('secrets.broken')!;
    expect(broken.status).toBe('error');
    expect(broken.message).toBe('engine error: TypeError: boom');
    expect(broken.error).toMatchObject({ name: 'TypeError', message: 'boom' });
    // An engine error is no skip: no kind, so it can never be read as "not exercised" or accepted as one.
    expect(broken.skipKind).toBeUndefined();
    expect(byId.get('secrets.broken-string')).toMatchObject({
      status: 'error',
      message: 'engine error: Error: bare string',
    });
    // The rules around it are judged as if it were not there: the one after it still fails with its evidence.
    expect(byId.get('secrets.not-in-body')!.status).toBe('passed');
    const url = byId.get('secrets.not-in-url')!;
    expect(url.status).toBe('failed');
    expect(url.exchanges).toHaveLength(1);

    // An engine error fails the certification (docs/design.md, Verdict), with --strict or without.
    const summary = summarize(checks);
    expect(summary.error).toBe(2);
    const verdictOf = (strict: boolean) => decideVerdict({ summary, checks }, strict).verdict;
    expect(verdictOf(false)).toBe('not-certified');
    const onlyErrors = checks.filter((c) => c.status !== 'failed');
    expect(decideVerdict({ summary: summarize(onlyErrors), checks: onlyErrors }, false).verdict).toBe('not-certified');
  });

  it('a conditional rule never exercised is not-applicable with its declared reason, never not-exercised; the run can be certified', () => {
    const conditional = rule('decisions.whole-batch-resent-after-422');
    expect(conditional.evidence).toBe('conditional');
    const checks = checksOf([conditional, rule('secrets.not-in-url')], {
      requests: [read(0, 'running')],
      deliveries: [],
    });
    const [never, judged] = checks;
    expect(never).toMatchObject({
      status: 'skipped',
      skipKind: 'not-applicable',
      message: conditional.notApplicableWhen,
    });
    expect(leavesIncomplete(never!)).toBe(false);
    expect(judged!.status).toBe('passed');
    expect(decideVerdict({ summary: summarize(checks), checks }, true).verdict).toBe('certified');
    // A provoked rule the traffic never reached stays not-exercised: the session creates its situation.
    const provoked = rule('retries.at-most-3-attempts');
    expect(provoked.evidence).toBe('provoked');
    expect(checksOf([provoked], { requests: [], deliveries: [] })[0]).toMatchObject({ skipKind: 'not-exercised' });
  });

  it('while the session runs, a throwing rule is pending (the live checklist keeps going) and still carries its error', () => {
    const traffic: Traffic = { requests: [read(0, 'running')], deliveries: [] };
    const judged = judgeAll(
      [throwing('secrets.broken', new RangeError('live')), rule('secrets.not-in-url')],
      traffic,
      ctx({ final: false }),
    );
    expect(judged[0]!.verdict.state).toBe('pending');
    expect(judged[0]!.error?.message).toBe('live');
    expect(judged[1]!.verdict.state).toBe('passed');
  });

  it('a rule never exercised is skipped not-exercised with its hint and leaves the run incomplete; an advisory one does not', () => {
    const checks = checksOf([rule('retries.at-most-3-attempts'), rule('polling.running-run-read-at-most-every-5s')], {
      requests: [],
      deliveries: [],
    });
    const [duty, advisory] = checks;
    expect(duty).toMatchObject({ status: 'skipped', skipKind: 'not-exercised' });
    expect(duty!.message).toMatch(/^not exercised: /);
    expect(duty!.advisory).toBeUndefined();
    expect(leavesIncomplete(duty!)).toBe(true);
    expect(advisory).toMatchObject({ status: 'skipped', skipKind: 'not-exercised', advisory: true });
    expect(leavesIncomplete(advisory!)).toBe(false);
    expect(decideVerdict({ summary: summarize(checks), checks }, false).verdict).toBe('incomplete');
    expect(decideVerdict({ summary: summarize(checks), checks }, true).verdict).toBe('not-certified');
    // Only the duty is missing: the advisory skip is listed nowhere.
    expect(decideVerdict({ summary: summarize(checks), checks }, false).missing.map((m) => [m.kind, m.checks])).toEqual(
      [['not-exercised', ['retries.at-most-3-attempts']]],
    );
  });

  it('a webhook rule without --webhook-url is a needs-input skip that names the flag', () => {
    const [check] = checksOf(
      [rule('webhooks.valid-deliveries-acknowledged-2xx')],
      { requests: [], deliveries: [] },
      { webhookRegistered: false },
    );
    expect(check).toMatchObject({ status: 'skipped', skipKind: 'needs-input', unlock: '--webhook-url' });
    expect(check!.message).toContain('--webhook-url');
    const missing = decideVerdict({ summary: summarize([check!]), checks: [check!] }, false);
    expect(missing.verdict).toBe('incomplete');
    expect(missing.missing).toEqual([
      { kind: 'needs-input', what: '--webhook-url', checks: ['webhooks.valid-deliveries-acknowledged-2xx'] },
    ]);
  });

  it("an advisory rule's offences are a `warning` with its evidence, never a failure, even past the ten shown", () => {
    const reads = Array.from({ length: 14 }, (_, i) => read(i * 1000, 'running'));
    const [check] = checksOf([rule('polling.running-run-read-at-most-every-5s')], { requests: reads, deliveries: [] });
    expect(check!.status).toBe('warning');
    expect(check!.advisory).toBe(true);
    expect(check!.message).toMatch(/\(advisory: client guidance, not a duty\)$/);
    expect(check!.observations.length).toBeGreaterThan(10);
    expect(check!.observations.every((o) => o.severity === 'warning')).toBe(true);
    expect(check!.observations.at(-1)!.message).toBe('3 more warning(s) not shown');
    expect(check!.exchanges.length).toBeGreaterThan(0);
    expect(JSON.stringify(check)).not.toContain(KEY);
    const summary = summarize([check!]);
    expect(decideVerdict({ summary, checks: [check!] }, false).verdict).toBe('certified');
    expect(decideVerdict({ summary, checks: [check!] }, true).verdict).toBe('not-certified');
  });
});
